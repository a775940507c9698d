// A line chart as inline SVG: series over a shared x axis, optional bands.
//
// Contract: RenderLineChart() draws every series as one <path> inside
// <g data-series="NAME"> (NAME escaped), each first downsampled to at most
// `max_points` points (report/downsample.h); a series with a band (`low`
// and `high`, same length as `points`) also gets a translucent min-max area
// under its line. The x axis spans the data's x range widened to `x_min`
// and `x_max` where they are set (not NaN), so charts given the same
// bounds share one x range (runs compared by eye); the y axis spans
// [y_min, y_max] (y_max NaN: the largest value; y_min + 1 when none is
// above y_min). Round ticks (round times with x_is_time) label them
// through `format_y` / `format_x`. The <svg> carries data-chart="ID" and a
// legend names the series; hovering a series shows its name and range
// (SVG <title>). Empty series are listed in the legend but draw nothing.
// Deterministic: equal inputs give equal text.

#ifndef GPUSHARE_REPORT_SVG_LINE_CHART_H_
#define GPUSHARE_REPORT_SVG_LINE_CHART_H_

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpushare/report/downsample.h"

namespace gpushare {

struct LineSeries {
  std::string name;
  int color = 0;               // report/svg_scale.h SeriesColor index
  bool dashed = false;
  std::vector<SeriesPoint> points;
  std::vector<double> low;     // optional band, parallel to points
  std::vector<double> high;
};

struct LineChartSpec {
  std::string id;              // data-chart
  std::string title;
  std::string x_label;
  std::string y_label;
  double x_min = NAN;          // NaN: from the data (see above)
  double x_max = NAN;
  double y_min = 0;
  double y_max = NAN;          // NaN: from the data
  int width = 760;
  int height = 240;
  size_t max_points = 600;
  bool x_is_time = false;      // x in seconds: ticks at round times
  std::function<std::string(double)> format_x;  // default: SvgNumber-like
  std::function<std::string(double)> format_y;
};

std::string RenderLineChart(const LineChartSpec& spec,
                            const std::vector<LineSeries>& series);

// Tick formatters: "45%" for 0.45; "90s", "12m", "3.5h" for seconds; "12.5".
std::string FormatPercentTick(double fraction);
std::string FormatTimeTick(double seconds);
std::string FormatPlainTick(double value);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_LINE_CHART_H_
