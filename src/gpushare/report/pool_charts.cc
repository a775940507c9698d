#include "gpushare/report/pool_charts.h"

#include <algorithm>

#include "gpushare/report/chart_note.h"
#include "gpushare/report/svg_line_chart.h"

namespace gpushare {
namespace {

bool PoolSampleIsZero(const PoolSample& s) {
  return s.sm_active == 0 && s.gpu_util == 0 && s.fb_used_fraction == 0 &&
         s.allocation == 0;
}

}  // namespace

std::string PoolUtilizationChart(const std::string& id,
                                 const std::string& title,
                                 const PoolSummary& pool, double x_max) {
  if (pool.samples.empty()) return NoChartNote(id, title + ": no samples.");
  if (std::all_of(pool.samples.begin(), pool.samples.end(),
                  PoolSampleIsZero)) {
    return NoChartNote(
        id, title + ": nothing allocated, used or busy at any sample.");
  }
  std::vector<LineSeries> series(4);
  series[0].name = "SM active";
  series[0].color = 5;
  series[1].name = "GPU util";
  series[1].color = 0;
  series[1].dashed = true;
  series[2].name = "memory used";
  series[2].color = 2;
  series[3].name = "allocation";
  series[3].color = 7;
  series[3].dashed = true;
  for (const PoolSample& s : pool.samples) {
    series[0].points.push_back({s.time_s, s.sm_active});
    series[1].points.push_back({s.time_s, s.gpu_util});
    series[2].points.push_back({s.time_s, s.fb_used_fraction});
    series[3].points.push_back({s.time_s, s.allocation});
  }
  LineChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.x_label = "simulated time";
  spec.y_label = "% of GPUs";
  spec.width = 560;
  spec.x_min = 0;
  spec.x_max = x_max;
  spec.y_max = 1;
  spec.format_x = FormatTimeTick;
  spec.x_is_time = true;
  spec.format_y = FormatPercentTick;
  return RenderLineChart(spec, series);
}

std::string PendingChart(
    const std::string& id, const std::string& title,
    const std::vector<std::pair<std::string, const std::vector<PoolSample>*>>&
        runs,
    double x_max) {
  std::vector<LineSeries> series;
  bool any_sample = false;
  bool any_pending = false;
  for (size_t i = 0; i < runs.size(); ++i) {
    LineSeries s;
    s.name = runs[i].first;
    s.color = static_cast<int>(i);
    if (runs[i].second != nullptr) {
      for (const PoolSample& p : *runs[i].second) {
        s.points.push_back({p.time_s, static_cast<double>(p.pending)});
        any_sample = true;
        any_pending = any_pending || p.pending > 0;
      }
    }
    series.push_back(std::move(s));
  }
  const char* where = runs.size() > 1 ? " of any run" : "";
  if (!any_sample) {
    return NoChartNote(id, title + ": no samples" + where + ".");
  }
  if (!any_pending) {
    return NoChartNote(id, title + ": no pod pending at any sample" + where +
                               ".");
  }
  LineChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.x_label = "simulated time";
  spec.y_label = "pending pods";
  spec.width = 560;
  spec.x_min = 0;
  spec.x_max = x_max;
  spec.format_x = FormatTimeTick;
  spec.x_is_time = true;
  return RenderLineChart(spec, series);
}

double LastSampleTime(const std::vector<PoolSummary>& pools) {
  double end = 0;
  for (const PoolSummary& p : pools) {
    if (!p.samples.empty()) end = std::max(end, p.samples.back().time_s);
  }
  return end;
}

}  // namespace gpushare
