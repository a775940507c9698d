#include "gpushare/report/class_bar_charts.h"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "gpushare/report/svg_bar_chart.h"
#include "gpushare/report/svg_line_chart.h"

namespace gpushare {
namespace {

using Metric = std::function<double(const ClassMetrics&)>;

std::string ClassBarChart(const std::string& id, const std::string& title,
                          const std::string& y_label,
                          const std::vector<std::string>& classes,
                          const std::vector<std::string>& runs,
                          const std::vector<std::vector<ClassMetrics>>& metrics,
                          const Metric& value, const Metric& mark,
                          std::function<std::string(double)> format) {
  BarChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.y_label = y_label;
  spec.series = runs;
  spec.width = 560;
  spec.format = std::move(format);
  if (mark) spec.mark_name = "SLO";
  std::vector<BarGroup> groups;
  for (size_t c = 0; c < classes.size(); ++c) {
    BarGroup g;
    g.label = classes[c];
    for (size_t r = 0; r < runs.size(); ++r) {
      const ClassMetrics& m = metrics[r][c];
      g.values.push_back(value(m));
      g.marks.push_back(mark ? mark(m) : NAN);
    }
    groups.push_back(std::move(g));
  }
  return RenderBarChart(spec, groups);
}

std::string Money(double v) { return fmt::format("{:.2f}", v); }
std::string Times(double v) { return fmt::format("{:g}x", std::round(v * 100) / 100); }
std::string Count(double v) { return fmt::format("{:g}", std::round(v * 10) / 10); }
std::string Ms(double v) { return fmt::format("{:g} ms", std::round(v * 10) / 10); }

}  // namespace

std::string ClassBarCharts(
    const std::string& id_prefix, const std::vector<std::string>& classes,
    const std::vector<std::string>& runs,
    const std::vector<std::vector<ClassMetrics>>& metrics) {
  std::string out = "<div class=\"charts\">\n";
  out += ClassBarChart(
      id_prefix + "slowdown", "Mean slowdown (run time / alone)", "slowdown",
      classes, runs, metrics,
      [](const ClassMetrics& m) {
        return m.mean_slowdown > 0 ? m.mean_slowdown : NAN;
      },
      nullptr, Times);
  out += ClassBarChart(
      id_prefix + "p99", "p99 latency against the SLO (inference)", "ms",
      classes, runs, metrics,
      [](const ClassMetrics& m) { return m.mean_p99_ms; },
      [](const ClassMetrics& m) {
        return m.mean_slo_p99_ms > 0 ? m.mean_slo_p99_ms : NAN;
      },
      Ms);
  out += ClassBarChart(
      id_prefix + "oom", "OOM kills", "kills", classes, runs, metrics,
      [](const ClassMetrics& m) { return static_cast<double>(m.oom_kills); },
      nullptr, Count);
  out += ClassBarChart(
      id_prefix + "wait", "Mean queue wait", "wait", classes, runs, metrics,
      [](const ClassMetrics& m) {
        return m.pods - m.pending > 0 ? m.mean_wait_s : NAN;
      },
      nullptr, FormatTimeTick);
  out += ClassBarChart(
      id_prefix + "cost", "Cost per served pod", "$ / pod", classes, runs,
      metrics,
      [](const ClassMetrics& m) {
        return m.served > 0 ? m.cost_per_served_pod : NAN;
      },
      nullptr, Money);
  out += "</div>\n";
  return out;
}

}  // namespace gpushare
