#include "gpushare/report/run_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/elastic_summary.h"
#include "gpushare/report/eviction_warnings.h"
#include "gpushare/report/llm_engine_table.h"
#include "gpushare/report/queue_table.h"
#include "gpushare/report/text_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string Percent(double fraction) { return FormatPercent(fraction); }

std::string Seconds(double s) { return FormatSeconds(s); }

}  // namespace

std::string RunSummary(const SimulationResult& r, double wall_s) {
  int64_t pending = 0;
  int64_t running = 0;
  int64_t not_arrived = 0;
  r.pod_summaries.ForEach([&](const PodSummary& p) {
    pending += p.outcome == PodOutcome::kPending;
    running += p.outcome == PodOutcome::kRunning;
    not_arrived += p.outcome == PodOutcome::kNotArrived;
  });
  std::string out = fmt::format(
      "scenario {} (seed {}): {} pods over {} simulated{}\n", r.scenario,
      r.seed, r.pods, Seconds(r.end_s),
      wall_s > 0 ? fmt::format(" ({:.2f}s wall)", wall_s) : "");
  out += fmt::format(
      "  done {}  failed {}  unschedulable {}  pending {}  running {}{}\n",
      r.succeeded, r.failed, r.unschedulable, pending, running,
      not_arrived > 0
          ? fmt::format("  not arrived {} (after the horizon)", not_arrived)
          : "");
  out += fmt::format(
      "  OOM kills {}  GPU faults {} killing {} (worst blast radius {})\n"
      "  preemptions {}; work lost {}; goodput {}\n",
      r.oom_kills, r.faults, r.fault_kills, r.max_blast_radius,
      r.preemptions, Seconds(r.lost_work_s), Percent(r.goodput));
  out += fmt::format(
      "  queue wait mean {}, p99 {}; slowdown mean {}; SLO met {}\n"
      "  {:.1f} pods/h; cost ${:.2f}\n\n",
      Seconds(r.mean_wait_s), Seconds(r.p99_wait_s),
      r.mean_slowdown > 0 ? fmt::format("{:.2f}", r.mean_slowdown) : "-",
      r.slo_attainment >= 0 ? Percent(r.slo_attainment) : "-",
      r.throughput_per_h, r.cost);

  TextTable pools;
  pools.AddColumn("POOL");
  pools.AddColumn("SCHEME");
  pools.AddColumn("GPU");
  pools.AddColumn("GPUS", TextTable::Align::kRight);
  pools.AddColumn("ALLOC", TextTable::Align::kRight);
  pools.AddColumn("GPU UTIL", TextTable::Align::kRight);
  pools.AddColumn("SM ACTIVE", TextTable::Align::kRight);
  pools.AddColumn("COST $", TextTable::Align::kRight);
  for (const PoolSummary& p : r.pools) {
    pools.AddRow({p.name, p.label.empty() ? p.scheme : p.label,
                  p.model.empty() ? "-" : p.model,
                  std::to_string(p.gpus), Percent(p.mean_allocation),
                  Percent(p.mean_gpu_util), Percent(p.mean_sm_active),
                  fmt::format("{:.2f}", p.cost)});
  }
  out += pools.Render();
  for (const PoolSummary& p : r.pools) {
    if (!p.dynamic_mig) continue;
    out += "\n";
    // Dynamic MIG: what making instances per claim cost (docs/output.md).
    const PoolSummary::DynamicMig& m = p.mig;
    out += WrapText(
        fmt::format(
            "dynamic MIG {}: {} instances made, {} destroyed ({:.1f}/h), MIG "
            "mode enabled {} times; pods waited {} for creation ({} per "
            "instance); stranded pending pods {:.2f} per sample (max {})",
            p.name, m.instances_created, m.instances_destroyed,
            m.churn_per_hour, m.mode_enables, Seconds(m.creation_wait_s),
            Seconds(m.instances_created > 0
                        ? m.creation_wait_s /
                              static_cast<double>(m.instances_created)
                        : 0),
            m.stranded_pending_mean, m.stranded_pending_max),
        kReportWidth, 2);
  }

  out += ElasticPoolsText(r);

  struct ClassStats {
    int64_t pods = 0, done = 0, failed = 0, ooms = 0, waits = 0, slowdowns = 0;
    int64_t preempted = 0;
    int64_t latency_samples = 0, slo_met = 0;
    double wait = 0, admission_wait = 0, slowdown = 0, p99 = -1;
  };
  const bool queued = !r.queue_system.empty();
  std::map<std::string, ClassStats> classes;
  r.pod_summaries.ForEach([&](const PodSummary& p) {
    if (p.outcome == PodOutcome::kNotArrived) return;
    ClassStats& c = classes[r.text(p.workload_class)];
    ++c.pods;
    c.done += p.outcome == PodOutcome::kSucceeded ||
              p.outcome == PodOutcome::kDeleted;
    c.failed += p.outcome == PodOutcome::kFailed ||
                p.outcome == PodOutcome::kAdmissionFailed;
    c.ooms += p.oom_kills;
    c.preempted += p.preemptions;
    if (p.wait_s >= 0) {
      c.wait += p.wait_s;
      ++c.waits;
      if (p.admission_wait_s > 0) {
        c.admission_wait += std::min(p.admission_wait_s, p.wait_s);
      }
    }
    if (p.slowdown > 0) {
      c.slowdown += p.slowdown;
      ++c.slowdowns;
    }
    c.latency_samples += p.latency_samples;
    c.slo_met += p.slo_met_samples;
    c.p99 = std::max(c.p99, p.p99_ms);
  });
  TextTable table;
  table.AddColumn("CLASS");
  table.AddColumn("PODS", TextTable::Align::kRight);
  table.AddColumn("DONE", TextTable::Align::kRight);
  table.AddColumn("FAILED", TextTable::Align::kRight);
  table.AddColumn("OOM", TextTable::Align::kRight);
  table.AddColumn("PREEMPT", TextTable::Align::kRight);
  table.AddColumn("WAIT", TextTable::Align::kRight);
  if (queued) {
    table.AddColumn("ADMIT", TextTable::Align::kRight);
    table.AddColumn("SCHED", TextTable::Align::kRight);
  }
  table.AddColumn("SLOWDOWN", TextTable::Align::kRight);
  table.AddColumn("P99 MAX", TextTable::Align::kRight);
  table.AddColumn("SLO MET", TextTable::Align::kRight);
  for (const auto& [name, c] : classes) {
    std::vector<std::string> row = {
        name, std::to_string(c.pods), std::to_string(c.done),
        std::to_string(c.failed), std::to_string(c.ooms),
        std::to_string(c.preempted),
        c.waits ? Seconds(c.wait / c.waits) : "-"};
    if (queued) {
      row.push_back(c.waits ? Seconds(c.admission_wait / c.waits) : "-");
      row.push_back(c.waits ? Seconds(std::max(0.0, c.wait - c.admission_wait) /
                                      c.waits)
                            : "-");
    }
    row.insert(row.end(),
               {c.slowdowns ? fmt::format("{:.2f}", c.slowdown / c.slowdowns)
                            : "-",
                c.p99 >= 0 ? fmt::format("{:.0f}ms", c.p99) : "-",
                c.latency_samples
                    ? Percent(static_cast<double>(c.slo_met) /
                              static_cast<double>(c.latency_samples))
                    : "-"});
    table.AddRow(row);
  }
  out += "\n" + table.Render();
  if (queued) {
    out += "\n" + WrapText(
        std::string("WAIT mean queue wait = ADMIT (waiting in its ") +
            (r.queue_system == "KAI-Scheduler"
                 ? "KAI queue for allocation: quota and fair share"
                 : "Kueue queue for admission: quota") +
            ") + SCHED (then waiting for the scheduler)",
        kReportWidth, 2);
  }
  if (std::any_of(classes.begin(), classes.end(),
                  [](const auto& c) { return c.second.latency_samples > 0; })) {
    out += "\n" +
           WrapText(std::string("SLO MET ") + kSloMetMeaning, kReportWidth, 2);
  }
  out += LlmEngineText(r);
  for (const std::string& w : RunEvictionWarnings(r)) {
    out += WrapText("warning: " + w, kReportWidth, 2);
  }
  out += QueueTable(r.queues, r.queue_system);
  out += QueueQuotaWarnings(r.queues, r.queue_system);
  out += PatrolAlertsSummary(r.alerts);
  return out;
}

std::string PatrolAlertsSummary(const std::vector<PatrolAlert>& alerts) {
  if (alerts.empty()) return "\npatrol alerts: none fired\n";
  std::map<std::string, int> counts;
  for (const PatrolAlert& a : alerts) ++counts[a.name];
  std::string names;
  for (const auto& [name, count] : counts) {
    names += fmt::format("{}{} {}", names.empty() ? "" : ", ", name, count);
  }
  std::string out =
      fmt::format("\npatrol alerts: {} fired\n  {}\n", alerts.size(), names);
  TextTable table;
  table.AddColumn("FIRED", TextTable::Align::kRight);
  table.AddColumn("RESOLVED", TextTable::Align::kRight);
  table.AddColumn("ALERT");
  table.AddColumn("NODE");
  table.AddColumn("GPU", TextTable::Align::kRight);
  table.AddColumn("DETAIL");
  constexpr size_t kShown = 10;
  for (size_t i = 0; i < alerts.size() && i < kShown; ++i) {
    const PatrolAlert& a = alerts[i];
    std::string detail = "-";
    if (a.name == "GpuNoisyNeighbour") {
      detail = fmt::format("{} {}", a.pod, Percent(a.value));
    } else if (a.name == "DevicePluginStalled") {
      detail = fmt::format("{:g} pods pending", a.value);
    }
    table.AddRow({Seconds(a.fired_s),
                  a.resolved_s >= 0 ? Seconds(a.resolved_s) : "firing",
                  a.name, a.node, a.gpu >= 0 ? std::to_string(a.gpu) : "-",
                  detail});
  }
  out += table.Render();
  if (alerts.size() > kShown) {
    out += fmt::format("  ... and {} more (--json or --csv: alerts)\n",
                       alerts.size() - kShown);
  }
  return out;
}

}  // namespace gpushare
