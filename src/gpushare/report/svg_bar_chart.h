// A grouped bar chart as inline SVG: one group per category (a tenant
// class), one bar per series (a scheme) in each group.
//
// Contract: RenderBarChart() draws, for series k, every group's value k as
// a <rect> inside <g data-series="NAME">; a value that is NaN or negative
// means "not applicable" and draws no bar. A `marks` value (NaN: none)
// draws a short black line across its bar at that height (a target, e.g.
// the SLO) and counts for the axis. The y axis runs from 0 to the largest
// value or mark (1 when there is none; a chart without any bar says "no
// data"), labelled through `format`; every
// bar's hover text (SVG <title>) is "GROUP, SERIES: value" (plus the mark).
// Names are escaped. Deterministic.

#ifndef GPUSHARE_REPORT_SVG_BAR_CHART_H_
#define GPUSHARE_REPORT_SVG_BAR_CHART_H_

#include <functional>
#include <string>
#include <vector>

namespace gpushare {

struct BarGroup {
  std::string label;
  std::vector<double> values;  // per series
  std::vector<double> marks;   // per series, optional
};

struct BarChartSpec {
  std::string id;              // data-chart
  std::string title;
  std::string y_label;
  std::string mark_name;       // "SLO"
  std::vector<std::string> series;
  std::vector<int> colors;     // per series (default: its index)
  int width = 760;
  int height = 220;
  std::function<std::string(double)> format;
};

std::string RenderBarChart(const BarChartSpec& spec,
                           const std::vector<BarGroup>& groups);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_BAR_CHART_H_
