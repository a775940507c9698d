#include "gpushare/report/queue_table.h"

#include <fmt/format.h>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/text_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string FormatQuota(double v) {
  return v == static_cast<int64_t>(v) ? fmt::format("{}", v)
                                      : fmt::format("{:.1f}", v);
}

// A resource counted in devices: whole GPUs, replicas, MIG instances, HAMi
// vGPUs (not HAMi's memory and cores, nor cpu and memory).
bool IsGpuDevice(const std::string& r) {
  return r == "nvidia.com/gpu" || r == "nvidia.com/gpu.shared" ||
         r.rfind("nvidia.com/mig-", 0) == 0;
}

}  // namespace

std::string QueueTable(const std::vector<QueueSummary>& queues,
                       const std::string& system) {
  if (queues.empty()) return "";
  const bool kai = system == "KAI-Scheduler";
  TextTable table;
  table.AddColumn("QUEUE");
  table.AddColumn(kai ? "PARENT" : "COHORT");
  if (!kai) table.AddColumn("WLS", TextTable::Align::kRight);
  table.AddColumn("ADMIT", TextTable::Align::kRight);
  table.AddColumn(kai ? "OVER" : "BORROW", TextTable::Align::kRight);
  table.AddColumn("EVICT", TextTable::Align::kRight);
  table.AddColumn("CAUSED", TextTable::Align::kRight);
  table.AddColumn("PEND", TextTable::Align::kRight);
  table.AddColumn("WAIT", TextTable::Align::kRight);
  table.AddColumn(kai ? "GPU" : "QUOTA", TextTable::Align::kRight);
  if (kai) table.AddColumn("DEV", TextTable::Align::kRight);
  for (const QueueSummary& q : queues) {
    int64_t caused = 0;
    for (const auto& [reason, n] : q.preempted_by_reason) caused += n;
    // Extended resources summed over flavors: mean used / nominal, peak
    // borrowed.
    double used = 0, nominal = 0, borrowed = 0;
    for (const QueueQuota& k : q.quotas) {
      if (!IsGpuDevice(k.resource)) continue;
      used += k.mean_used;
      nominal += k.nominal;
      borrowed = std::max(borrowed, k.peak_borrowed);
    }
    std::string quota = "-";
    if (kai && !q.quotas.empty()) {
      const QueueQuota& k = q.quotas.front();
      quota = fmt::format("{:.1f}/{:.1f}/{}", k.mean_used, k.mean_fair_share,
                          k.nominal < 0 ? "inf" : FormatQuota(k.nominal));
    } else if (nominal > 0 || used > 0) {
      quota = fmt::format("{:.1f}/{}", used, FormatQuota(nominal));
      if (borrowed > 0) quota += fmt::format(" +{}", FormatQuota(borrowed));
    }
    std::vector<std::string> row = {q.name, q.cohort.empty() ? "-" : q.cohort};
    if (!kai) row.push_back(std::to_string(q.workloads));
    row.insert(row.end(), {std::to_string(q.admissions),
                           std::to_string(q.borrowing_admissions),
                           std::to_string(q.evictions), std::to_string(caused),
                           std::to_string(q.pending_at_end),
                           FormatSeconds(q.mean_admission_wait_s), quota});
    if (kai) {
      row.push_back(
          q.quotas.empty()
              ? "-"
              : fmt::format("{:.1f}", q.quotas.front().fair_share_deviation));
    }
    table.AddRow(row);
  }
  if (kai) {
    return "\nKAI-Scheduler queues (GPU: units mean allocated/fair "
           "share/deserved;\nDEV: mean |allocated - fair share|; OVER: "
           "admissions over quota)\n" +
           table.Render();
  }
  return "\nKueue ClusterQueues (QUOTA: GPU devices mean used/nominal +peak "
         "borrowed)\n" +
         table.Render();
}

std::string QueueQuotaWarnings(const std::vector<QueueSummary>& queues,
                               const std::string& system) {
  std::string out;
  const bool kai = system == "KAI-Scheduler";
  for (const QueueSummary& q : queues) {
    if (q.idle_at_quota_samples == 0) continue;
    out += WrapText(
        fmt::format("warning: {} {} sat at its {} with workloads waiting "
                    "while its {} had room for them in {} of {} samples "
                    "({:.1f} free {} on average then): its quota, not the "
                    "nodes, kept them waiting.",
                    kai ? "KAI queue" : "ClusterQueue", q.name,
                    kai ? "limit" : "nominal quota",
                    kai ? "cluster" : "flavors' nodes",
                    q.idle_at_quota_samples, q.samples, q.mean_free_at_quota,
                    q.free_at_quota_resource.empty()
                        ? std::string("whole GPUs")
                        : q.free_at_quota_resource),
        kReportWidth, 2);
  }
  return out;
}

}  // namespace gpushare
