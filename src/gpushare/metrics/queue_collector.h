// QueueCollector: what the queueing system's queues (Kueue's ClusterQueues
// or KAI-Scheduler's queues) did over a run, for SimulationResult::queues
// (docs/output.md; Kueue's kueue_* and KAI's queue_* metrics).
//
// Contract: Start() with the run's queueing system (null: nothing is
// collected); then Admitted/Evicted as the simulation reports them and
// Sample() at each sample time, which reads every queue's quota usage, fair
// share and pending workloads, and counts the samples at which a queue is
// held at its quota while GPUs of its flavor are idle (given the idle GPUs
// per pool; results.h QueueSummary); Finish() computes the means, peaks,
// fair-share deviations and admission waits and the per-queue pod
// evictions and lost work from `pods`.

#ifndef GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
#define GPUSHARE_METRICS_QUEUE_COLLECTOR_H_

#include <span>
#include <string_view>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/metrics/results.h"
#include "gpushare/sched/queue_admission.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class QueueCollector {
 public:
  // `cluster`: whose pools a flavor's node labels select.
  void Start(const QueueAdmission* queues, const std::vector<Pod>& pods,
             const Cluster& cluster);
  void Admitted(double t, int queue, std::span<const int> pods,
                bool borrowed);
  void Evicted(double t, int queue, int preemptor_queue,
               std::string_view reason);
  // `idle_gpus`: per pool, its GPUs with no pod on any device.
  void Sample(const std::vector<int>& idle_gpus);
  void Finish(const std::vector<PodRecord>& pods,
              std::vector<QueueSummary>* out);

 private:
  const QueueAdmission* queues_in_ = nullptr;
  std::vector<QueueSummary> queues_;
  std::vector<std::vector<double>> scale_;  // per queue, quota: base unit
  // Per queue, quota: the pools of its flavor, when it is a GPU resource.
  std::vector<std::vector<std::vector<int>>> gpu_quota_pools_;
  // Per queue, quota: the usage at which it is held (-1: never).
  std::vector<std::vector<double>> quota_caps_;
  std::vector<double> idle_gpus_sum_;       // per queue, at quota
  std::vector<std::vector<double>> waits_;  // per queue
  std::vector<bool> admitted_once_;         // per pod (first of a workload)
  std::vector<double> arrival_s_;           // per pod
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
