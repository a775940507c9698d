#include "gpushare/report/svg_scatter_chart.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_scale.h"

namespace gpushare {
namespace {

constexpr double kScatterChartLeft = 64, kScatterChartRight = 16,
                 kScatterChartTop = 28, kScatterChartBottom = 40;

std::pair<double, double> Padded(double lo, double hi) {
  if (hi <= lo) return {lo - 1, hi + 1};
  const double pad = 0.05 * (hi - lo);
  return {lo - pad, hi + pad};
}

}  // namespace

std::string RenderScatterChart(const ScatterChartSpec& spec,
                               const std::vector<ScatterPoint>& points) {
  const auto fx = spec.format_x ? spec.format_x : SvgNumber;
  const auto fy = spec.format_y ? spec.format_y : SvgNumber;
  std::string out = fmt::format(
      "<svg data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">\n<text x=\"{}\" y=\"16\" "
      "class=\"chart-title\">{}</text>\n",
      HtmlEscape(spec.id), spec.width, spec.height, spec.width, spec.height,
      SvgNumber(kScatterChartLeft), HtmlEscape(spec.title));
  const double x0 = kScatterChartLeft, x1 = spec.width - kScatterChartRight;
  const double y0 = spec.height - kScatterChartBottom, y1 = kScatterChartTop;
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
      "stroke=\"#bbb\"/>\n",
      SvgNumber(x0), SvgNumber(y1), SvgNumber(x1 - x0), SvgNumber(y0 - y1));
  if (points.empty()) return out + "</svg>\n";
  double xmin = points[0].x, xmax = points[0].x;
  double ymin = points[0].y, ymax = points[0].y;
  for (const ScatterPoint& p : points) {
    xmin = std::min(xmin, p.x);
    xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y);
    ymax = std::max(ymax, p.y);
  }
  const auto [dx0, dx1] = Padded(xmin, xmax);
  const auto [dy0, dy1] = Padded(ymin, ymax);
  const LinearScale sx(dx0, dx1, x0, x1);
  const LinearScale sy(dy0, dy1, y0, y1);
  for (double t : NiceTicks(dx0, dx1, 6)) {
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}"
        "</text>\n",
        SvgNumber(sx(t)), SvgNumber(y0 + 14), HtmlEscape(fx(t)));
  }
  for (double t : NiceTicks(dy0, dy1, 5)) {
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" "
        "class=\"tick\">{}</text>\n",
        SvgNumber(x0 - 4), SvgNumber(sy(t) + 4), HtmlEscape(fy(t)));
  }
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
      "class=\"axis\">{}</text>\n",
      SvgNumber((x0 + x1) / 2), SvgNumber(spec.height - 6),
      HtmlEscape(spec.x_label));
  out += fmt::format(
      "<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" "
      "text-anchor=\"middle\" class=\"axis\">{}</text>\n",
      SvgNumber((y0 + y1) / 2), SvgNumber((y0 + y1) / 2),
      HtmlEscape(spec.y_label));
  for (const ScatterPoint& p : points) {
    out += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{}><title>{}</title>"
        "</circle>\n",
        SvgNumber(sx(p.x)), SvgNumber(sy(p.y)), p.highlight ? 6 : 4,
        SeriesColor(p.color),
        p.highlight ? " stroke=\"#000\" stroke-width=\"2\"" : "",
        HtmlEscape(p.title));
  }
  return out + "</svg>\n";
}

}  // namespace gpushare
