#include "gpushare/report/svg_legend.h"

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_scale.h"

namespace gpushare {
namespace {

constexpr double kRowHeight = 14;
constexpr double kCharWidth = 6.5;
constexpr double kSwatch = 18;
constexpr double kGap = 14;

}  // namespace

LegendLayout LayOutLegend(const std::vector<LegendItem>& items, double width) {
  LegendLayout layout;
  double x = 0;
  int row = 0;
  for (const LegendItem& item : items) {
    const double w = kSwatch + 4 + kCharWidth * item.name.size() + kGap;
    if (x > 0 && x + w > width) {
      ++row;
      x = 0;
    }
    layout.x.push_back(x);
    layout.row.push_back(row);
    x += w;
  }
  layout.height = items.empty() ? 0 : (row + 1) * kRowHeight;
  return layout;
}

std::string RenderLegend(const std::vector<LegendItem>& items,
                         const LegendLayout& layout, double x, double y) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    const double left = x + layout.x[i];
    const double base = y + layout.row[i] * kRowHeight;
    out += fmt::format(
        "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{}\" "
        "stroke-width=\"{}\"{}/><text x=\"{}\" y=\"{}\">{}</text>",
        SvgNumber(left), SvgNumber(left + kSwatch), SvgNumber(base - 4),
        SvgNumber(base - 4), SeriesColor(items[i].color),
        items[i].dashed ? 2 : 6,
        items[i].dashed ? " stroke-dasharray=\"5 3\"" : "",
        SvgNumber(left + kSwatch + 4), SvgNumber(base),
        HtmlEscape(items[i].name));
  }
  return out.empty() ? out : out + "\n";
}

}  // namespace gpushare
