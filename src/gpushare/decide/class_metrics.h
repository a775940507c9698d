// ClassMetrics: one tenant class's (or the whole cluster's) results of one
// run, as the comparison tables show them and the selection scores them.
//
// Contract: computed from a run's pod summaries, leaving out pods whose
// arrival came after the end of the run (PodOutcome::kNotArrived: never
// created, so neither counted nor pending). A pod is *served* when it
// ran to completion, was deleted at the end of its life, or is running at
// the horizon; it *cannot run* when the scheme cannot express its needs
// (Unschedulable: no MIG instance or replica holds its footprint). Its
// performance, in [0, 1], is what its tenant feels against having a whole
// GPU to itself at once:
//   job that completed      alone time / (end − arrival): queueing, back-offs
//                           and slowdown all lengthen it;
//   service (no work)       its SLO attainment (1 without an SLO) x the
//                           share of its life it was up: up / (up + wait),
//                           where the time its evictions kept it down
//                           (PodRecord::eviction_down_s) is wait, not up;
//   failed, unschedulable,
//   never started           0;
//   job still running at the horizon: left out (its end is unknown).
// `performance` is the mean over the pods that count.
//
// Cost is what the capacity costs, idle included: each pool's bill (every
// GPU for the whole run at its price plus licence) is apportioned to the
// pods that ran there by the GPU-hours their devices held
// (PodRecord::gpu_hours: a replica of R holds 1/R of a GPU). A pool nobody
// used is not apportioned. So a scheme that packs pods on fewer GPU-hours
// of the bill but leaves the rest idle is charged for the idle part, and a
// replica running alone on a GPU is not charged 1/R of it. `held_cost` is
// the held GPU-hours at the pools' prices alone (what the pods' records
// show); `wasted_cost` the part of `cost` spent on lost work
// (PodRecord::wasted_gpu_hours: failed pods, and jobs' work lost to OOM or
// fault kills and evictions); `cost_per_served_pod` divides `cost` by the
// served pods, so wasted work raises it.
//
// A pod's wait splits in two (docs/model.md §9.2): its admission wait, from
// arrival to its workload's first admission by Kueue or KAI
// (PodRecord::admission_wait_s; 0 for pods outside a queue, never more than
// its wait), and its scheduling wait, the rest. `mean_admission_wait_s` +
// `mean_scheduling_wait_s` = `mean_wait_s`, over the pods that started.
// `lost_gpu_hours` is the work the class lost, in GPU-hours
// (PodLostGpuHours below); `memory_unprotected` counts its GPU pods that
// ran, or would be placed (their target pool, when never bound), on a pool
// where another pod can take their memory (PoolSummary::memory_isolated).
//
// `queue_idle_at_quota_share` is the largest, over the queues of the
// class's pods, share of samples at which the queue was held at its quota
// while its flavor's nodes had room for its pods
// (QueueSummary::idle_at_quota_samples); `queue_free_at_quota` and
// `queue_free_resource` are that queue's mean free units then and their
// resource.

#ifndef GPUSHARE_DECIDE_CLASS_METRICS_H_
#define GPUSHARE_DECIDE_CLASS_METRICS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

struct ClassMetrics {
  std::string tenant_class;   // "" for the whole cluster
  std::string workload_class; // of its first pod ("" if mixed or none)
  int64_t pods = 0;
  int64_t served = 0;
  int64_t failed = 0;         // gave up after restarts, or admission failed
  int64_t cannot_run = 0;     // Unschedulable
  int64_t pending = 0;        // arrived, never started by the horizon
  int64_t started = 0;        // started at least once (their waits count)
  int64_t jobs = 0;           // pods with work to finish (not services)
  int64_t jobs_unfinished = 0;  // of them, still running at the horizon
  int64_t killed = 0;         // pods hit at least once by an OOM or fault kill
  int64_t oom_kills = 0;
  int64_t fault_kills = 0;
  int64_t preempted = 0;      // pods evicted at least once by preemption
  int64_t preemptions = 0;    // evictions
  int64_t max_pod_preemptions = 0;  // the most evictions of one pod
  // Pods killed (OOM, GPU fault) or evicted at least once: the measured
  // harm the isolation score counts.
  int64_t disrupted = 0;
  double lost_work_s = 0;     // work lost by failures and evictions
  double lost_gpu_hours = 0;  // Σ PodLostGpuHours
  int64_t memory_unprotected = 0;  // pods whose memory a neighbour can take
  double eviction_down_s = 0; // up time its pods' evictions cost them
  double mean_wait_s = 0;     // over pods that started (0 when none did)
  double p99_wait_s = 0;
  // The admission (Kueue/KAI quota) and scheduling parts of mean_wait_s.
  int64_t queued = 0;         // pods submitted through a queue
  double mean_admission_wait_s = 0;
  double mean_scheduling_wait_s = 0;
  std::string cluster_queue;  // of its first queued pod ("" none)
  double queue_idle_at_quota_share = 0;
  // Of that queue: the free units it had room for then (mean), and their
  // resource (QueueSummary::mean_free_at_quota, free_at_quota_resource).
  double queue_free_at_quota = 0;
  std::string queue_free_resource;
  double mean_slowdown = 0;   // over completed jobs (-1: none)
  // Inference pods with latency samples: mean of their worst-interval p99,
  // mean SLO, and the share of samples meeting the SLO (-1: none).
  double mean_p99_ms = -1;
  double mean_slo_p99_ms = -1;
  // Pods running an LLM engine with latency samples: mean of their
  // worst-interval p99 TTFT and TPOT (-1: none; docs/model.md §6.8).
  double mean_ttft_p99_ms = -1;
  double mean_tpot_p99_ms = -1;
  // Those pods' mean TTFT and TPOT objectives (0: the class sets none;
  // -1: no engine pod with latency samples).
  double mean_slo_ttft_p99_ms = -1;
  double mean_slo_tpot_p99_ms = -1;
  double slo_attainment = -1;
  // The share of its latency samples missed because of neighbours
  // (PodRecord::neighbour_missed_samples; -1: no latency samples).
  double neighbour_miss_share = -1;
  double performance = 0;     // see above
  double gpu_hours = 0;
  double cost = 0;          // apportioned pool bills, idle included
  double held_cost = 0;     // held GPU-hours at the pools' prices
  double wasted_cost = 0;   // the part of `cost` spent on lost work
  double cost_per_served_pod = 0;
  // Why its pods that were not served were not: the message most of them
  // carry (the translator's reason a pod cannot run, the scheduler's
  // FitError, the last failure; ties: the first pod's), "" when none has
  // one. What a report names when no scheme serves the class.
  std::string unserved_cause;
};

// The mean of runs of the same class on different seeds: every figure
// averaged (counts rounded to the nearest pod), except the most evictions
// of one pod (the highest of the runs), latency and SLO
// figures, averaged over the runs that have them (-1 when none does), waits,
// over the runs where a pod started, and cost per served pod, the mean cost
// over the mean served pods. Names come from the first run, the unserved
// cause from the first run that has one. Empty input gives empty metrics.
ClassMetrics MeanClassMetrics(const std::vector<ClassMetrics>& runs);

// The metrics of the pods of `tenant_class` ("" for every pod).
ClassMetrics ComputeClassMetrics(const SimulationResult& result,
                                 const std::string& tenant_class);

// The metrics of the pods routed to pool `pool` (PodRecord::target_pool).
ClassMetrics ComputePoolMetrics(const SimulationResult& result,
                                const std::string& pool);

// Quota-bound: more than half its mean wait is admission wait, and its
// queue was held at its quota while its flavor's nodes had room for its
// pods at some sample (docs/model.md §9.2): more nodes would not shorten
// its wait.
bool IsQuotaBound(const ClassMetrics& metrics);

// The performance of one pod (see above); < 0 when it does not count.
double PodPerformance(const PodRecord& pod, double end_s);
double PodPerformance(const PodSummary& pod, double end_s);

// The work one pod lost in a run that ended at `end_s`, in GPU-hours: the
// hours below times its whole GPUs (at least 1; docs/model.md §10, "Lost
// work"). A pod that cannot run (Unschedulable) counts 0: it is stranded,
// counted apart.
//   job (work_s > 0)     the work its OOM and fault kills and evictions
//                        threw away past its last checkpoint (lost_work_s),
//                        plus, when it never started or failed, its
//                        requested work (work_s), at most the time from its
//                        arrival to the end of the run;
//   service (work_s 0)   the up time of the sessions a kill or eviction
//                        ended (lost_session_s) — not for kind inference,
//                        whose replica holds no state a restart does not
//                        rebuild — plus, when it never started or failed,
//                        its life (lifetime_s, 0: to the end of the run) in
//                        the run that it was not up.
double PodLostGpuHours(const PodRecord& pod, double end_s);
double PodLostGpuHours(const PodSummary& pod, const PodTexts& texts,
                       double end_s);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_CLASS_METRICS_H_
