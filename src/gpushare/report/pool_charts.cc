#include "gpushare/report/pool_charts.h"

#include "gpushare/report/svg_line_chart.h"

namespace gpushare {

std::string PoolUtilizationChart(const std::string& id,
                                 const std::string& title,
                                 const PoolSummary& pool) {
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
  spec.y_max = 1;
  spec.format_x = FormatTimeTick;
  spec.x_is_time = true;
  spec.format_y = FormatPercentTick;
  return RenderLineChart(spec, series);
}

std::string PendingChart(
    const std::string& id, const std::string& title,
    const std::vector<std::pair<std::string, const std::vector<PoolSample>*>>&
        runs) {
  std::vector<LineSeries> series;
  for (size_t i = 0; i < runs.size(); ++i) {
    LineSeries s;
    s.name = runs[i].first;
    s.color = static_cast<int>(i);
    if (runs[i].second != nullptr) {
      for (const PoolSample& p : *runs[i].second) {
        s.points.push_back({p.time_s, static_cast<double>(p.pending)});
      }
    }
    series.push_back(std::move(s));
  }
  LineChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.x_label = "simulated time";
  spec.y_label = "pending pods";
  spec.width = 560;
  spec.format_x = FormatTimeTick;
  spec.x_is_time = true;
  return RenderLineChart(spec, series);
}

}  // namespace gpushare
