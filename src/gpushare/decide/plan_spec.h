// PlanSpec: what `plan` may change in a scenario and what the plan it
// returns must meet, as a scenario's `plan:` section says it
// (docs/scenario.md, "plan").
//
// Contract: plain values with the documented defaults. `pools` lists the
// node pools the planner may change (the others stay as written): for each,
// the range of node counts, the schemes it may run and the settings tried
// under each. `classes` holds each tenant class's constraints, with the
// defaults of its workload class filled in (DefaultClassConstraints) and the
// class's selection SLO target when its pods have latency SLOs; `cluster`
// the cluster-wide limits. A limit < 0 is not checked. `pinned_quotas`
// names the Kueue ClusterQueues and KAI queues whose quotas keep their
// size when the plan resizes pools (the others scale with their pools,
// decide/queue_quota_conversion.h).

#ifndef GPUSHARE_DECIDE_PLAN_SPEC_H_
#define GPUSHARE_DECIDE_PLAN_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/sharing_config.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

// How MIG layouts are chosen for a pool under MIG.
enum class MigLayoutChoice {
  kNamed,  // the model's named configs (all-balanced, all-<profile>)
  kAll,    // those and every maximal layout (distinct profile counts)
};

struct PlanPoolSpec {
  std::string pool;   // a pool of the scenario's cluster
  int min_nodes = 0;  // the range the planner sizes it in; both
  int max_nodes = 0;  // the written count when not given
  // Schemes it may run (default: all five; those the GPU cannot run are
  // skipped).
  std::vector<SharingScheme> schemes = {
      SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
      SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami};
  std::vector<int> time_slicing_replicas = {2, 4, 8};
  std::vector<int> mps_replicas = {2, 4, 8};
  std::vector<int> hami_split_counts = {4, 10};
  MigLayoutChoice mig_layouts = MigLayoutChoice::kAll;
  // Also try per-GPU mixes within a node (catalog/mig_mix.h): k GPUs with
  // one whole-GPU instance, the others a named config.
  bool mig_mixes = true;
};

// A tenant class's constraints.
struct ClassConstraints {
  std::string tenant_class;
  // Share of latency samples meeting the SLO (classes with SLOs only).
  double min_slo_attainment = -1;
  double max_mean_wait_s = -1;
  double max_p99_wait_s = -1;
  int64_t max_oom_kills = 0;
  int64_t max_failed = 0;
  int64_t max_cannot_run = 0;
  int64_t max_pending = 0;       // pods never started by the horizon
  int64_t max_preemptions = -1;  // evictions its pods suffer (-1: any)
  // Mean slowdown of its completed jobs (run time / time alone on a whole
  // GPU; checked only when some job completed).
  double max_mean_slowdown = -1;
  // Its pods must not be placed where another pod can take their GPU
  // memory (cluster/memory_isolation.h: time-slicing, DRA consumable
  // shares): checked as `needs_memory_isolation`, a limit of 0 such pods.
  bool needs_memory_isolation = false;
};

// The defaults of a workload class for `plan`: no OOM kills, failed,
// unrunnable or never-started pods, a mean queue wait of at most 60 s
// (inference), 300 s (dev), 1800 s (batch) or 3600 s (training), a mean
// slowdown of at most 3x (training) or 4x (batch), and memory isolation for
// training.
ClassConstraints DefaultClassConstraints(WorkloadClass workload_class);

// A class's "served well" contract in `compare`'s selection by default
// (decide/selection.h): DefaultClassConstraints without the limit on pods
// never started (on the cluster as written a queue left at the horizon is
// the cluster's size, which `plan` answers, not the scheme's).
ClassConstraints DefaultServedWell(WorkloadClass workload_class);

struct ClusterConstraints {
  int64_t max_gpus = -1;
  double max_cost_per_hour = -1;  // USD: GPUs x (price + licence)
};

struct PlanSearchSpec {
  // Candidates are first judged on a pilot of about this many pods (the
  // workload scaled down, decide/comparison.h PilotScenario); 0: on the
  // whole workload.
  int64_t pilot_pods = 2000;
  // Per pool, the cheapest pilot-feasible candidates confirmed on the whole
  // workload.
  int finalists = 3;
  // Passes of coordinate descent over the pools when their classes are not
  // separable (a class's pods can land in more than one pool).
  int rounds = 2;
};

struct PlanSpec {
  std::vector<PlanPoolSpec> pools;
  std::vector<ClassConstraints> classes;  // every tenant class, in order
  ClusterConstraints cluster;
  PlanSearchSpec search;
  std::vector<std::string> pinned_quotas;

  // The entry of `pool` / `tenant_class`, or null.
  const PlanPoolSpec* FindPool(const std::string& pool) const;
  const ClassConstraints* FindClass(const std::string& tenant_class) const;
};

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLAN_SPEC_H_
