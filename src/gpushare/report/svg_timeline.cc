#include "gpushare/report/svg_timeline.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/svg_scale.h"

namespace gpushare {
namespace {

constexpr double kTimelineRight = 16;
constexpr double kGroupGap = 5;

}  // namespace

std::vector<std::vector<TimelineBar>> PackIntoLanes(
    std::vector<TimelineBar> bars, int max_lanes, int* dropped) {
  std::vector<size_t> order(bars.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&bars](size_t a, size_t b) {
    if (bars[a].start != bars[b].start) return bars[a].start < bars[b].start;
    return bars[a].end < bars[b].end;
  });
  std::vector<std::vector<TimelineBar>> lanes;
  std::vector<double> lane_end;
  int left_out = 0;
  for (size_t i : order) {
    size_t lane = 0;
    while (lane < lanes.size() && lane_end[lane] > bars[i].start) ++lane;
    if (lane == lanes.size()) {
      if (static_cast<int>(lanes.size()) >= max_lanes) {
        ++left_out;
        continue;
      }
      lanes.emplace_back();
      lane_end.push_back(bars[i].start);
    }
    lane_end[lane] = std::max(lane_end[lane], bars[i].end);
    lanes[lane].push_back(std::move(bars[i]));
  }
  if (dropped != nullptr) *dropped = left_out;
  return lanes;
}

std::vector<TimelineBar> MergeShortBars(const std::vector<TimelineBar>& bars,
                                        double seconds_per_pixel) {
  std::vector<TimelineBar> out;
  std::vector<const TimelineBar*> run;  // short bars within a pixel
  auto flush = [&out, &run] {
    if (run.size() == 1) {
      out.push_back(*run.front());
    } else if (run.size() > 1) {
      TimelineBar merged;
      merged.start = run.front()->start;
      merged.end = run.front()->end;
      for (const TimelineBar* b : run) merged.end = std::max(merged.end, b->end);
      merged.color = -1;
      merged.label = fmt::format("{} pods shorter than a pixel, {} to {}",
                                 run.size(), FormatTimeTick(merged.start),
                                 FormatTimeTick(merged.end));
      out.push_back(std::move(merged));
    }
    run.clear();
  };
  double run_end = 0;
  for (const TimelineBar& b : bars) {
    const bool is_short = b.end - b.start < seconds_per_pixel;
    if (!is_short) {
      flush();
      out.push_back(b);
      continue;
    }
    if (!run.empty() && b.start - run_end >= seconds_per_pixel) flush();
    if (run.empty()) run_end = b.end;
    run.push_back(&b);
    run_end = std::max(run_end, b.end);
  }
  flush();
  return out;
}

std::string RenderTimeline(const TimelineSpec& spec,
                           const std::vector<TimelineGroup>& groups) {
  const auto format_x = spec.format_x ? spec.format_x : FormatTimeTick;
  const double left = spec.label_width;
  const double right = spec.width - kTimelineRight;
  const LegendLayout layout = LayOutLegend(spec.legend, right - left);
  const double axis_y = 30 + layout.height + 14;
  double height = axis_y + 6;
  for (const TimelineGroup& g : groups) {
    height += std::max<size_t>(1, g.lanes.size()) * spec.lane_height + kGroupGap;
  }
  height += 4;
  const LinearScale x(spec.x_min, spec.x_max, left, right);
  const double seconds_per_pixel =
      (spec.x_max - spec.x_min) / std::max(1.0, right - left);

  std::string svg = fmt::format(
      "<svg data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">\n<text class=\"title\" x=\"4\" y=\"16\">{}</text>\n",
      HtmlEscape(spec.id), spec.width, SvgNumber(height), spec.width,
      SvgNumber(height), HtmlEscape(spec.title));
  svg += RenderLegend(spec.legend, layout, left, 30);
  for (double t : TimeTicks(spec.x_min, spec.x_max, 10)) {
    svg += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        SvgNumber(x(t)), SvgNumber(axis_y + 2), SvgNumber(height - 2),
        SvgNumber(axis_y - 2), HtmlEscape(format_x(t)));
  }
  double y = axis_y + 6;
  const int label_size = std::min(11, spec.lane_height + 1);
  for (const TimelineGroup& g : groups) {
    const size_t lanes = std::max<size_t>(1, g.lanes.size());
    svg += fmt::format(
        "<g data-series=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"{}\" fill=\"#f3f3f3\"/><text x=\"4\" y=\"{}\" "
        "font-size=\"{}\">{}</text>",
        HtmlEscape(g.label), SvgNumber(left), SvgNumber(y),
        SvgNumber(right - left), SvgNumber(lanes * spec.lane_height),
        SvgNumber(y + label_size - 1), label_size, HtmlEscape(g.label));
    for (size_t l = 0; l < g.lanes.size(); ++l) {
      const double lane_y = y + l * spec.lane_height;
      const TimelineLane& lane = g.lanes[l];
      if (!lane.label.empty()) {
        svg += fmt::format(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"end\" "
            "fill=\"#777\">{}</text>",
            SvgNumber(left - 3), SvgNumber(lane_y + spec.lane_height - 1),
            std::max(7, spec.lane_height - 1), HtmlEscape(lane.label));
      }
      std::vector<TimelineBar> bars = lane.bars;
      std::stable_sort(bars.begin(), bars.end(),
                       [](const TimelineBar& a, const TimelineBar& b) {
                         return a.start < b.start;
                       });
      for (const TimelineBar& b : MergeShortBars(bars, seconds_per_pixel)) {
        const double x0 = std::clamp(x(b.start), left, right);
        const double x1 = std::clamp(x(b.end), left, right);
        svg += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">"
            "<title>{}</title></rect>",
            SvgNumber(x0), SvgNumber(lane_y + 1),
            SvgNumber(std::max(1.0, x1 - x0)),
            SvgNumber(spec.lane_height - 2),
            SeriesColor(b.color),
            HtmlEscape(b.label));
      }
    }
    svg += "</g>\n";
    y += lanes * spec.lane_height + kGroupGap;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpushare
