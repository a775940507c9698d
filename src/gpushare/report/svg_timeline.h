// A timeline as inline SVG: groups of lanes (one group per GPU, one lane
// per MIG instance or per overlapping pod on a shared GPU) holding bars
// (pods, from start to end).
//
// Contract: PackIntoLanes() puts bars into the fewest lanes in which no
// two overlap (by start, then end, then input order; the first lane free
// wins); bars needing more than `max_lanes` lanes are left out and
// counted in *dropped. MergeShortBars() takes a lane's bars sorted by
// start and replaces every run of bars narrower than one pixel
// (`seconds_per_pixel`) that follow each other within a pixel by one grey
// bar (color -1) labelled "N pods ..."; a run of one is kept as it is.
// RenderTimeline() draws each group as <g data-series="GROUP LABEL"> with
// its lanes' bars (each at least one pixel wide, its label as hover text),
// merging short bars first, a time axis over [x_min, x_max], lane labels
// at the left and the legend; names escaped; deterministic.

#ifndef GPUSHARE_REPORT_SVG_TIMELINE_H_
#define GPUSHARE_REPORT_SVG_TIMELINE_H_

#include <functional>
#include <string>
#include <vector>

#include "gpushare/report/svg_legend.h"

namespace gpushare {

struct TimelineBar {
  double start = 0;
  double end = 0;
  int color = 0;        // SeriesColor index; -1: grey (merged)
  std::string label;    // hover text
};

struct TimelineLane {
  std::string label;
  std::vector<TimelineBar> bars;
};

struct TimelineGroup {
  std::string label;
  std::vector<TimelineLane> lanes;
};

struct TimelineSpec {
  std::string id;
  std::string title;
  double x_min = 0;
  double x_max = 1;
  int width = 1000;
  int label_width = 190;
  int lane_height = 9;
  std::vector<LegendItem> legend;
  std::function<std::string(double)> format_x;
};

std::vector<std::vector<TimelineBar>> PackIntoLanes(
    std::vector<TimelineBar> bars, int max_lanes, int* dropped);

std::vector<TimelineBar> MergeShortBars(const std::vector<TimelineBar>& bars,
                                        double seconds_per_pixel);

std::string RenderTimeline(const TimelineSpec& spec,
                           const std::vector<TimelineGroup>& groups);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_TIMELINE_H_
