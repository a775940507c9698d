// QueueCollector: what Kueue's ClusterQueues did over a run, for
// SimulationResult::queues (docs/output.md, Kueue's kueue_* metrics).
//
// Contract: Start() with the run's Kueue (null: nothing is collected);
// then Admitted/Evicted as the simulation reports them and Sample() at
// each sample time, which reads every queue's quota usage and pending
// workloads from Kueue; Finish() computes the means, peaks and admission
// waits and the per-queue pod evictions and lost work from `pods`.

#ifndef GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
#define GPUSHARE_METRICS_QUEUE_COLLECTOR_H_

#include <span>
#include <vector>

#include "gpushare/metrics/results.h"
#include "gpushare/sched/kueue/kueue.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class QueueCollector {
 public:
  void Start(const Kueue* kueue, const ResourceRegistry& registry,
             const std::vector<Pod>& pods);
  void Admitted(double t, int cluster_queue, std::span<const int> pods,
                bool borrowed);
  void Evicted(double t, int cluster_queue, int preemptor_queue,
               KueueEvictionReason reason);
  void Sample();
  void Finish(const std::vector<PodRecord>& pods,
              std::vector<QueueSummary>* out);

 private:
  const Kueue* kueue_ = nullptr;
  std::vector<QueueSummary> queues_;
  std::vector<std::vector<int>> pairs_;     // per queue: the pairs it defines
  std::vector<double> scale_;               // per pair: to the base unit
  std::vector<std::vector<double>> waits_;  // per queue
  std::vector<bool> admitted_once_;         // per pod (first of a workload)
  std::vector<double> arrival_s_;           // per pod
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
