// A scatter chart as inline SVG: points over two numeric axes.
//
// Contract: RenderScatterChart() draws each point as a <circle> (radius 6
// when `highlight`, else 4) in its SeriesColor (report/svg_scale.h; < 0
// grey) with its `title` as hover text, inside axes spanning the points'
// ranges padded by 5 % with round ticks; the <svg> carries data-chart="ID".
// No points: an empty frame with the title. Deterministic.

#ifndef GPUSHARE_REPORT_SVG_SCATTER_CHART_H_
#define GPUSHARE_REPORT_SVG_SCATTER_CHART_H_

#include <functional>
#include <string>
#include <vector>

namespace gpushare {

struct ScatterPoint {
  double x = 0;
  double y = 0;
  int color = 0;
  bool highlight = false;
  std::string title;  // hover text (escaped here)
};

struct ScatterChartSpec {
  std::string id;
  std::string title;
  std::string x_label;
  std::string y_label;
  int width = 760;
  int height = 260;
  std::function<std::string(double)> format_x;
  std::function<std::string(double)> format_y;
};

std::string RenderScatterChart(const ScatterChartSpec& spec,
                               const std::vector<ScatterPoint>& points);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_SCATTER_CHART_H_
