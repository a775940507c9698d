#include "gpushare/report/svg_line_chart.h"

#include <algorithm>

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_legend.h"
#include "gpushare/report/svg_scale.h"

namespace gpushare {
namespace {

constexpr double kLineChartLeft = 56;
constexpr double kLineChartRight = 16;
constexpr double kLineChartBottom = 34;

// Every `stride`-th index, and the last: for series with a band, whose
// low/high must stay parallel to the points.
std::vector<size_t> StrideIndices(size_t n, size_t max_points) {
  std::vector<size_t> out;
  const size_t stride = (n + max_points - 1) / std::max<size_t>(1, max_points);
  for (size_t i = 0; i < n; i += std::max<size_t>(1, stride)) out.push_back(i);
  if (!out.empty() && out.back() != n - 1) out.push_back(n - 1);
  return out;
}

std::string PathData(const std::vector<SeriesPoint>& points,
                     const LinearScale& x, const LinearScale& y) {
  std::string d;
  for (size_t i = 0; i < points.size(); ++i) {
    d += fmt::format("{}{} {}", i == 0 ? "M" : "L", SvgNumber(x(points[i].x)),
                     SvgNumber(y(points[i].y)));
  }
  return d;
}

}  // namespace

std::string FormatPercentTick(double fraction) {
  return fmt::format("{:g}%", std::round(fraction * 1000) / 10);
}

std::string FormatTimeTick(double s) {
  if (std::abs(s) < 120) return fmt::format("{:g}s", std::round(s * 10) / 10);
  if (std::abs(s) < 7200) {
    return fmt::format("{:g}m", std::round(s / 6) / 10);
  }
  return fmt::format("{:g}h", std::round(s / 360) / 10);
}

std::string FormatPlainTick(double value) {
  return fmt::format("{:g}", std::round(value * 1000) / 1000);
}

std::string RenderLineChart(const LineChartSpec& spec,
                            const std::vector<LineSeries>& series) {
  const auto format_x = spec.format_x ? spec.format_x : FormatPlainTick;
  const auto format_y = spec.format_y ? spec.format_y : FormatPlainTick;
  double x_min = INFINITY, x_max = -INFINITY, y_data_max = spec.y_min;
  for (const LineSeries& s : series) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      x_min = std::min(x_min, s.points[i].x);
      x_max = std::max(x_max, s.points[i].x);
      y_data_max = std::max(y_data_max, s.points[i].y);
      if (i < s.high.size()) y_data_max = std::max(y_data_max, s.high[i]);
    }
  }
  if (!std::isnan(spec.x_min)) x_min = std::min(x_min, spec.x_min);
  if (!std::isnan(spec.x_max)) x_max = std::max(x_max, spec.x_max);
  if (!(x_min <= x_max)) x_min = x_max = 0;
  const double y_max = !std::isnan(spec.y_max) ? spec.y_max
                       : y_data_max > spec.y_min ? y_data_max
                                                 : spec.y_min + 1;

  std::vector<LegendItem> legend;
  for (const LineSeries& s : series) {
    legend.push_back({s.name, s.color, s.dashed});
  }
  const LegendLayout layout =
      LayOutLegend(legend, spec.width - kLineChartLeft - kLineChartRight);
  const double top = 36 + layout.height;
  const double plot_bottom = spec.height - kLineChartBottom;
  const double height = spec.height;
  const LinearScale x(x_min, x_max, kLineChartLeft,
                      spec.width - kLineChartRight);
  const LinearScale y(spec.y_min, y_max, plot_bottom, top);

  std::string svg = fmt::format(
      "<svg data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">\n<text class=\"title\" x=\"{}\" y=\"16\">{}</text>\n",
      HtmlEscape(spec.id), spec.width, SvgNumber(height), spec.width,
      SvgNumber(height), SvgNumber(kLineChartLeft), HtmlEscape(spec.title));
  svg += RenderLegend(legend, layout, kLineChartLeft, 34);
  for (double t : NiceTicks(spec.y_min, y_max, 5)) {
    svg += fmt::format(
        "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        SvgNumber(kLineChartLeft), SvgNumber(spec.width - kLineChartRight),
        SvgNumber(y(t)), SvgNumber(y(t)), SvgNumber(kLineChartLeft - 4),
        SvgNumber(y(t) + 4), HtmlEscape(format_y(t)));
  }
  for (double t : spec.x_is_time ? TimeTicks(x_min, x_max, 8)
                                  : NiceTicks(x_min, x_max, 8)) {
    svg += fmt::format(
        "<line class=\"axis\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        SvgNumber(x(t)), SvgNumber(plot_bottom), SvgNumber(plot_bottom + 4),
        SvgNumber(plot_bottom + 16), HtmlEscape(format_x(t)));
  }
  svg += fmt::format(
      "<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>"
      "<text x=\"{3}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>"
      "<text x=\"12\" y=\"{6}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 12 {6})\">{7}</text>\n",
      SvgNumber(kLineChartLeft), SvgNumber(spec.width - kLineChartRight),
      SvgNumber(plot_bottom),
      SvgNumber((kLineChartLeft + spec.width - kLineChartRight) / 2),
      SvgNumber(height - 4), HtmlEscape(spec.x_label),
      SvgNumber((top + plot_bottom) / 2), HtmlEscape(spec.y_label));

  for (const LineSeries& s : series) {
    const char* color = SeriesColor(s.color);
    svg += fmt::format("<g data-series=\"{}\">", HtmlEscape(s.name));
    double lo = INFINITY, hi = -INFINITY;
    for (const SeriesPoint& p : s.points) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
    svg += "<title>" + HtmlEscape(s.name) +
           (s.points.empty()
                ? std::string(": no data")
                : ": " + format_y(lo) + " to " + format_y(hi)) +
           "</title>";
    const bool band = !s.low.empty() && s.low.size() == s.points.size() &&
                      s.high.size() == s.points.size();
    std::vector<SeriesPoint> line;
    if (band) {
      const std::vector<size_t> keep =
          StrideIndices(s.points.size(), spec.max_points);
      std::vector<SeriesPoint> area;
      for (size_t i : keep) {
        line.push_back(s.points[i]);
        area.push_back({s.points[i].x, s.high[i]});
      }
      for (auto it = keep.rbegin(); it != keep.rend(); ++it) {
        area.push_back({s.points[*it].x, s.low[*it]});
      }
      if (!area.empty()) {
        svg += fmt::format(
            "<path d=\"{}Z\" fill=\"{}\" fill-opacity=\"0.18\" "
            "stroke=\"none\"/>",
            PathData(area, x, y), color);
      }
    } else {
      line = MinMaxDownsample(s.points, spec.max_points);
    }
    if (!line.empty()) {
      svg += fmt::format(
          "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"{}/>",
          PathData(line, x, y), color,
          s.dashed ? " stroke-dasharray=\"5 3\"" : "");
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpushare
