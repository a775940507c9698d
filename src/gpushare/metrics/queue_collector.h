// QueueCollector: what the queueing system's queues (Kueue's ClusterQueues
// or KAI-Scheduler's queues) did over a run, for SimulationResult::queues
// (docs/output.md; Kueue's kueue_* and KAI's queue_* metrics).
//
// Contract: Start() with the run's queueing system (null: nothing is
// collected); then Admitted/Evicted as the simulation reports them and
// Sample() at each sample time, which reads every queue's quota usage, fair
// share and pending workloads, and counts the samples at which a queue is
// held at its quota while its flavor's nodes have room for one of its pods:
// free units of the resource the quota limits, counted as the nodes
// advertise it (time-sliced replicas, MIG instances, HAMi slots or MiB,
// whole GPUs) per the least any pod of the queue asks of it (KAI's GPU
// units, and a resource no pod of the queue asks: GPUs with no pod on any
// device, given per pool; results.h QueueSummary). The cluster given to
// Start() is read at each Sample(). Finish() computes the means, peaks,
// fair-share deviations and admission waits and the per-queue pod
// evictions and lost work from `pods`.

#ifndef GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
#define GPUSHARE_METRICS_QUEUE_COLLECTOR_H_

#include <span>
#include <string_view>
#include <vector>

#include "gpushare/base/quantile_summary.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/metrics/results.h"
#include "gpushare/sched/queue_admission.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class QueueCollector {
 public:
  // `cluster`: whose pools a flavor's node labels select; `quantiles`: how
  // the admission waits' p99 is taken.
  // The least request of each queue's pods comes from one pass over the
  // workload (Simulation::ScanPods).
  void Start(const QueueAdmission* queues, const Simulation& simulation,
             const Cluster& cluster, QuantileOptions quantiles = {});
  void Admitted(double t, int queue, std::span<const int> pods,
                bool borrowed);
  void Evicted(double t, int queue, int preemptor_queue,
               std::string_view reason);
  // `idle_gpus`: per pool, its GPUs with no pod on any device.
  void Sample(const std::vector<int>& idle_gpus);
  // `pods`: every pod's summary, in pod order (texts: their strings).
  void Finish(const PodSummaryStore& pods, const PodTexts& texts,
              std::vector<QueueSummary>* out);

 private:
  const QueueAdmission* queues_in_ = nullptr;
  std::vector<QueueSummary> queues_;
  std::vector<std::vector<double>> scale_;  // per queue, quota: base unit
  // Per queue, quota: the pools of its flavor, when it is a GPU resource.
  std::vector<std::vector<std::vector<int>>> gpu_quota_pools_;
  // Per queue, quota: the usage at which it is held (-1: never).
  std::vector<std::vector<double>> quota_caps_;
  // Free units of quota k of queue q on its flavor's nodes (`idle_gpus`
  // where its resource is KAI's GPU units or no pod of the queue asks it).
  int64_t FreeUnits(int q, int k, int idle_gpus) const;

  const Cluster* cluster_ = nullptr;
  // Per queue, quota: the resource the nodes advertise for it (-1: count
  // idle GPUs), and the least a pod of the queue asks of it.
  std::vector<std::vector<ResourceId>> quota_resources_;
  std::vector<std::vector<int64_t>> quota_units_;
  std::vector<double> idle_gpus_sum_;       // per queue, at quota
  std::vector<double> free_sum_;            // per queue, at quota
  std::vector<QuantileSummary> waits_;      // per queue
  std::vector<bool> admitted_once_;         // per pod (first of a workload)
  std::vector<double> arrival_s_;           // per pod
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_QUEUE_COLLECTOR_H_
