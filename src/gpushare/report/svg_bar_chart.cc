#include "gpushare/report/svg_bar_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_legend.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/svg_scale.h"

namespace gpushare {
namespace {

constexpr double kBarChartLeft = 56;
constexpr double kBarChartRight = 16;
constexpr double kBarChartBottom = 30;

bool Drawn(double v) { return !std::isnan(v) && v >= 0; }

}  // namespace

std::string RenderBarChart(const BarChartSpec& spec,
                           const std::vector<BarGroup>& groups) {
  const auto format = spec.format ? spec.format : FormatPlainTick;
  const size_t n = spec.series.size();
  double max = 0;
  bool any = false;
  for (const BarGroup& g : groups) {
    for (size_t k = 0; k < n; ++k) {
      if (k < g.values.size() && Drawn(g.values[k])) {
        max = std::max(max, g.values[k]);
        any = true;
      }
      if (k < g.marks.size() && Drawn(g.marks[k])) {
        max = std::max(max, g.marks[k]);
      }
    }
  }
  if (!(max > 0)) max = 1;
  std::vector<double> ticks = NiceTicks(0, max, 5);
  // Round the axis up to the next tick so the tallest bar sits under it.
  if (!ticks.empty() && ticks.back() < max && ticks.size() >= 2) {
    max = ticks.back() + (ticks[1] - ticks[0]);
    ticks.push_back(max);
  }

  std::vector<LegendItem> legend;
  for (size_t k = 0; k < n; ++k) {
    legend.push_back(
        {spec.series[k], k < spec.colors.size() ? spec.colors[k] : int(k)});
  }
  if (!spec.mark_name.empty()) legend.push_back({spec.mark_name, 7, true});
  const LegendLayout layout =
      LayOutLegend(legend, spec.width - kBarChartLeft - kBarChartRight);
  const double top = 36 + layout.height;
  const double plot_bottom = spec.height - kBarChartBottom;
  const LinearScale y(0, max, plot_bottom, top);
  const double group_width = (spec.width - kBarChartLeft - kBarChartRight) /
                             std::max<size_t>(1, groups.size());
  const double bar_width =
      std::min(40.0, group_width * 0.8 / std::max<size_t>(1, n));

  std::string svg = fmt::format(
      "<svg data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">\n<text class=\"title\" x=\"{}\" y=\"16\">{}</text>\n",
      HtmlEscape(spec.id), spec.width, spec.height, spec.width, spec.height,
      SvgNumber(kBarChartLeft), HtmlEscape(spec.title));
  svg += RenderLegend(legend, layout, kBarChartLeft, 34);
  for (double t : ticks) {
    svg += fmt::format(
        "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        SvgNumber(kBarChartLeft), SvgNumber(spec.width - kBarChartRight),
        SvgNumber(y(t)), SvgNumber(y(t)), SvgNumber(kBarChartLeft - 4),
        SvgNumber(y(t) + 4), HtmlEscape(format(t)));
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    svg +=
        fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    SvgNumber(kBarChartLeft + (g + 0.5) * group_width),
                    SvgNumber(plot_bottom + 16), HtmlEscape(groups[g].label));
  }
  svg += fmt::format(
      "<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>"
      "<text x=\"12\" y=\"{3}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 12 {3})\">{4}</text>\n",
      SvgNumber(kBarChartLeft), SvgNumber(spec.width - kBarChartRight),
      SvgNumber(plot_bottom), SvgNumber((top + plot_bottom) / 2),
      HtmlEscape(spec.y_label));

  if (!any) {
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#777\">"
        "no data</text>\n",
        SvgNumber((kBarChartLeft + spec.width - kBarChartRight) / 2),
        SvgNumber((top + plot_bottom) / 2));
  }
  for (size_t k = 0; k < n; ++k) {
    const int color = k < spec.colors.size() ? spec.colors[k] : int(k);
    svg += fmt::format("<g data-series=\"{}\" fill=\"{}\">",
                       HtmlEscape(spec.series[k]), SeriesColor(color));
    for (size_t g = 0; g < groups.size(); ++g) {
      const double v = k < groups[g].values.size() ? groups[g].values[k] : NAN;
      const double m = k < groups[g].marks.size() ? groups[g].marks[k] : NAN;
      if (!Drawn(v)) continue;
      const double left = kBarChartLeft + g * group_width +
                          (group_width - bar_width * n) / 2 + k * bar_width;
      std::string hover = groups[g].label + ", " + spec.series[k] + ": " +
                          format(v);
      if (Drawn(m)) hover += " (" + spec.mark_name + " " + format(m) + ")";
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">"
          "<title>{}</title></rect>",
          SvgNumber(left + 1), SvgNumber(y(v)), SvgNumber(bar_width - 2),
          SvgNumber(plot_bottom - y(v)), HtmlEscape(hover));
      if (Drawn(m)) {
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#000\" "
            "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>",
            SvgNumber(left), SvgNumber(left + bar_width), SvgNumber(y(m)));
      }
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpushare
