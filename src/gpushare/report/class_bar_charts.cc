#include "gpushare/report/class_bar_charts.h"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "gpushare/report/chart_note.h"
#include "gpushare/report/svg_bar_chart.h"
#include "gpushare/report/svg_line_chart.h"

namespace gpushare {
namespace {

using ClassMetric = std::function<double(const ClassMetrics&)>;

// The charts drawn, and the notes for those that are not.
struct ClassChartsOut {
  std::string charts;
  std::string notes;
};

// Whether `value` draws a bar above 0 for some run of class `c`.
bool ClassMetricShows(const std::vector<std::vector<ClassMetrics>>& metrics,
                      size_t c, const ClassMetric& value) {
  for (const std::vector<ClassMetrics>& run : metrics) {
    const double v = value(run[c]);
    if (!std::isnan(v) && v > 0) return true;
  }
  return false;
}

// Whether `value` is a number (drawn, maybe 0) for some run and class.
bool ClassMetricApplies(const std::vector<std::vector<ClassMetrics>>& metrics,
                        const ClassMetric& value) {
  for (const std::vector<ClassMetrics>& run : metrics) {
    for (const ClassMetrics& m : run) {
      const double v = value(m);
      if (!std::isnan(v) && v >= 0) return true;
    }
  }
  return false;
}

// One chart with a group per class in `groups` (indices into `classes`).
std::string ClassBarChart(const std::string& id, const std::string& title,
                          const std::string& y_label, int width,
                          const std::vector<size_t>& groups,
                          const std::vector<std::string>& classes,
                          const std::vector<std::string>& runs,
                          const std::vector<std::vector<ClassMetrics>>& metrics,
                          const ClassMetric& value, const ClassMetric& mark,
                          std::function<std::string(double)> format) {
  BarChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.y_label = y_label;
  spec.series = runs;
  spec.width = width;
  spec.format = std::move(format);
  if (mark) spec.mark_name = "SLO";
  std::vector<BarGroup> bars;
  for (size_t c : groups) {
    BarGroup g;
    g.label = classes[c];
    for (size_t r = 0; r < runs.size(); ++r) {
      const ClassMetrics& m = metrics[r][c];
      g.values.push_back(value(m));
      g.marks.push_back(mark ? mark(m) : NAN);
    }
    bars.push_back(std::move(g));
  }
  return RenderBarChart(spec, bars);
}

// A chart over every class, or its note when no class shows a value above
// 0: `absent` when no value applies anywhere, else `zero`.
void AddAllClassesChart(const std::string& id, const std::string& title,
                        const std::string& y_label,
                        const std::vector<std::string>& classes,
                        const std::vector<std::string>& runs,
                        const std::vector<std::vector<ClassMetrics>>& metrics,
                        const ClassMetric& value,
                        std::function<std::string(double)> format,
                        const std::string& absent, const std::string& zero,
                        ClassChartsOut* out) {
  std::vector<size_t> all;
  bool shows = false;
  for (size_t c = 0; c < classes.size(); ++c) {
    all.push_back(c);
    shows = shows || ClassMetricShows(metrics, c, value);
  }
  if (!shows) {
    out->notes +=
        NoChartNote(id, ClassMetricApplies(metrics, value) ? zero : absent);
    return;
  }
  out->charts += ClassBarChart(id, title, y_label, 560, all, classes, runs,
                               metrics, value, nullptr, std::move(format));
}

std::string ClassMoneyTick(double v) { return fmt::format("{:.2f}", v); }
std::string ClassTimesTick(double v) {
  return fmt::format("{:g}x", std::round(v * 100) / 100);
}
std::string ClassCountTick(double v) {
  return fmt::format("{:g}", std::round(v * 10) / 10);
}
std::string ClassMsTick(double v) {
  return fmt::format("{:g} ms", std::round(v * 10) / 10);
}

}  // namespace

std::string ClassBarCharts(
    const std::string& id_prefix, const std::vector<std::string>& classes,
    const std::vector<std::string>& runs,
    const std::vector<std::vector<ClassMetrics>>& metrics) {
  const bool one = runs.size() == 1;
  const std::string in_any = one ? "in the run" : "in any run";
  const std::string in_every = one ? "in the run" : "in every run";
  ClassChartsOut out;
  AddAllClassesChart(
      id_prefix + "slowdown", "Mean slowdown (run time / alone)", "slowdown",
      classes, runs, metrics,
      [](const ClassMetrics& m) {
        return m.mean_slowdown > 0 ? m.mean_slowdown : NAN;
      },
      ClassTimesTick, "No completed jobs " + in_any + ": no slowdown to show.",
      "No completed jobs " + in_any + ": no slowdown to show.", &out);

  // p99: a chart per class with latency samples, each on its own axis.
  const ClassMetric p99 = [](const ClassMetrics& m) {
    return m.mean_p99_ms > 0 ? m.mean_p99_ms : NAN;
  };
  const ClassMetric slo = [](const ClassMetrics& m) {
    return m.mean_slo_p99_ms > 0 ? m.mean_slo_p99_ms : NAN;
  };
  std::string without;
  size_t without_count = 0;
  for (size_t c = 0; c < classes.size(); ++c) {
    if (!ClassMetricShows(metrics, c, p99)) {
      without += (without.empty() ? "" : ", ") + classes[c];
      ++without_count;
      continue;
    }
    out.charts += ClassBarChart(id_prefix + "p99-" + classes[c],
                                "p99 latency of " + classes[c], "ms", 360,
                                {c}, classes, runs, metrics, p99, slo,
                                ClassMsTick);
  }
  if (without_count == classes.size()) {
    out.notes += NoChartNote(
        id_prefix + "p99", "No latency samples " + in_any + ": no p99 to show.");
  } else if (without_count > 0) {
    out.notes += NoChartNote(id_prefix + "p99", "No latency samples " +
                                                    in_any + " for " + without +
                                                    ": no p99 chart for them.");
  }
  AddAllClassesChart(
      id_prefix + "oom", "OOM kills", "kills", classes, runs, metrics,
      [](const ClassMetrics& m) { return static_cast<double>(m.oom_kills); },
      ClassCountTick, "No OOM kills " + in_any + ".",
      "No OOM kills " + in_any + ".", &out);
  AddAllClassesChart(
      id_prefix + "wait", "Mean queue wait", "wait", classes, runs, metrics,
      [](const ClassMetrics& m) {
        return m.pods - m.pending > 0 ? m.mean_wait_s : NAN;
      },
      FormatTimeTick, "No pod started " + in_any + ": no queue wait to show.",
      "No pod waited in the queue " + in_any + ".", &out);
  AddAllClassesChart(
      id_prefix + "cost", "Cost per served pod", "$ / pod", classes, runs,
      metrics,
      [](const ClassMetrics& m) {
        return m.served > 0 ? m.cost_per_served_pod : NAN;
      },
      ClassMoneyTick, "No pod served " + in_any + ": no cost per served pod.",
      "Cost per served pod is $0 " + in_every + ".", &out);
  return "<div class=\"charts\">\n" + out.charts + out.notes + "</div>\n";
}

}  // namespace gpushare
