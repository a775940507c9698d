// KAI-Scheduler's scheduling queues, as a scenario describes them (Queue
// CRD scheduling.run.ai/v2, docs/model.md §4.4): a tree of queues, each with
// a GPU quota (its deserved share), an over-quota weight and a limit, and a
// queue priority. Only leaf queues take jobs; a pod names its leaf queue
// with the kai.scheduler/queue label.
//
// Contract: plain data, validated by its reader (scenario/kai_queue_reader.h):
// names unique, parents defined and acyclic, quotas, weights and limits in
// range. GPU quantities are KAI's GPU units (GpuUnitsOf).

#ifndef GPUSHARE_SCHED_KAI_KAI_CONFIG_H_
#define GPUSHARE_SCHED_KAI_KAI_CONFIG_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

// The label a pod (or its PodGroup) carries to name its KAI queue.
inline constexpr std::string_view kKaiQueueLabel = "kai.scheduler/queue";
// Jobs of this priority and above are non-preemptible: they run only within
// their queue's deserved quota and are never evicted by reclaim or preempt.
inline constexpr int kKaiNonPreemptiblePriority = 100;
// KAI's special quantity: an unlimited quota, no limit.
inline constexpr double kKaiUnlimited = -1;

struct KaiQueueSpec {
  std::string name;
  std::string parent;  // "" a top-level queue
  int priority = 0;    // the queue's priority: over-quota order
  // spec.resources.gpu, in GPU units.
  double gpu_quota = 0;  // deserved; kKaiUnlimited: all it requests
  double gpu_over_quota_weight = 1;
  double gpu_limit = kKaiUnlimited;  // hard cap; kKaiUnlimited: none
};

struct KaiConfig {
  std::vector<KaiQueueSpec> queues;
  // The scheduler's reclaimerUtilizationMultiplier (≥ 1): how much lower
  // than a reclaimee's its utilization must stay for a reclaim.
  double reclaimer_utilization_multiplier = 1;
  bool enabled() const { return !queues.empty(); }
};

// KAI's GPU units of one device of extended resource `resource`: 1 for
// nvidia.com/gpu, X for a MIG device nvidia.com/mig-Xg.Ygb, 0 for anything
// else (docs/queues/README.md "Resource Units").
int GpuUnitsOf(std::string_view resource);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KAI_KAI_CONFIG_H_
