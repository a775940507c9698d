// ClassMetrics: one tenant class's (or the whole cluster's) results of one
// run, as the comparison tables show them and the selection scores them.
//
// Contract: computed from a run's pod records. A pod is *served* when it
// ran to completion, was deleted at the end of its life, or is running at
// the horizon; it *cannot run* when the scheme cannot express its needs
// (Unschedulable: no MIG instance or replica holds its footprint). Its
// performance, in [0, 1], is what its tenant feels against having a whole
// GPU to itself at once:
//   job that completed      alone time / (end − arrival): queueing, back-offs
//                           and slowdown all lengthen it;
//   service (no work)       its SLO attainment (1 without an SLO) x the
//                           share of its life it was up: up / (up + wait);
//   failed, unschedulable,
//   never started           0;
//   job still running at the horizon: left out (its end is unknown).
// `performance` is the mean over the pods that count. Cost is the GPU-hours
// of the devices the pods held (cluster/gpu_share.h) at their pools' prices;
// `cost_per_served_pod` divides it by the served pods.

#ifndef GPUSHARE_DECIDE_CLASS_METRICS_H_
#define GPUSHARE_DECIDE_CLASS_METRICS_H_

#include <cstdint>
#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

struct ClassMetrics {
  std::string tenant_class;   // "" for the whole cluster
  std::string workload_class; // of its first pod ("" if mixed or none)
  int64_t pods = 0;
  int64_t served = 0;
  int64_t failed = 0;         // gave up after restarts, or admission failed
  int64_t cannot_run = 0;     // Unschedulable
  int64_t pending = 0;        // never started by the horizon
  int64_t killed = 0;         // pods hit at least once by an OOM or fault kill
  int64_t oom_kills = 0;
  int64_t fault_kills = 0;
  int64_t preempted = 0;      // pods evicted at least once by preemption
  int64_t preemptions = 0;    // evictions
  double lost_work_s = 0;     // work lost by failures and evictions
  double mean_wait_s = 0;     // over pods that started
  double p99_wait_s = 0;
  double mean_slowdown = 0;   // over completed jobs (-1: none)
  // Inference pods with latency samples: mean of their worst-interval p99,
  // mean SLO, and the share of samples meeting the SLO (-1: none).
  double mean_p99_ms = -1;
  double mean_slo_p99_ms = -1;
  double slo_attainment = -1;
  double performance = 0;     // see above
  double gpu_hours = 0;
  double cost = 0;
  double cost_per_served_pod = 0;
};

// The metrics of the pods of `tenant_class` ("" for every pod).
ClassMetrics ComputeClassMetrics(const SimulationResult& result,
                                 const std::string& tenant_class);

// The metrics of the pods routed to pool `pool` (PodRecord::target_pool).
ClassMetrics ComputePoolMetrics(const SimulationResult& result,
                                const std::string& pool);

// The performance of one pod (see above); < 0 when it does not count.
double PodPerformance(const PodRecord& pod, double end_s);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_CLASS_METRICS_H_
