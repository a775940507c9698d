// SchedulerProfile: which plugins run, with which weights and arguments,
// as a KubeSchedulerConfiguration profile would say.
//
// Contract: names are kube-scheduler's (NodeResourcesFit, NodeAffinity,
// TaintToleration, NodeResourcesBalancedAllocation) plus gpushare-sim's
// GpuDeviceFit (the device plugin's device-level fit) and HAMi's policies
// (HAMiNodePolicy). Defaults follow kube-scheduler's default plugins
// (kubernetes/kubernetes pkg/scheduler/apis/config/v1/default_plugins.go)
// restricted to those that matter for GPU pods.
// Validate() rejects unknown names (naming the closest), weights outside
// 1..100 and malformed scoring-strategy shapes.

#ifndef GPUSHARE_SCHED_PROFILE_H_
#define GPUSHARE_SCHED_PROFILE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpushare {

// NodeResourcesFitArgs.scoringStrategy (kube-scheduler
// config/v1/types_pluginargs.go).
struct ScoringStrategy {
  enum class Type {
    kLeastAllocated,
    kMostAllocated,
    kRequestedToCapacityRatio
  };
  Type type = Type::kLeastAllocated;
  // (resource name, weight 1..100); default cpu and memory, weight 1.
  std::vector<std::pair<std::string, int64_t>> resources = {{"cpu", 1},
                                                            {"memory", 1}};
  // RequestedToCapacityRatio shape: (utilization 0..100, score 0..10),
  // utilization strictly increasing.
  std::vector<std::pair<int64_t, int64_t>> shape = {{0, 10}, {100, 0}};
};

enum class TieBreak { kRandom, kLowestName };

struct SchedulerProfile {
  std::string scheduler_name = "default-scheduler";
  // Filter plugins in the order they run.
  std::vector<std::string> filters = {"TaintToleration", "NodeAffinity",
                                      "NodeResourcesFit", "GpuDeviceFit"};
  // Score plugins and weights.
  std::vector<std::pair<std::string, int64_t>> scores = {
      {"TaintToleration", 3},
      {"NodeAffinity", 2},
      {"NodeResourcesFit", 1},
      {"NodeResourcesBalancedAllocation", 1},
      {"HAMiNodePolicy", 100}};
  ScoringStrategy scoring_strategy;
  // PostFilter plugins: "DefaultPreemption" (kube-scheduler's default) or
  // none.
  std::vector<std::string> post_filters = {"DefaultPreemption"};
  // DefaultPreemptionArgs.
  int min_candidate_nodes_percentage = 10;  // 0..100
  int min_candidate_nodes_absolute = 100;   // >= 0
  // 0: kube-scheduler's adaptive rule; 1..100 a fixed percentage.
  int percentage_of_nodes_to_score = 0;
  // kube-scheduler's podInitialBackoffSeconds and podMaxBackoffSeconds
  // (KubeSchedulerConfiguration; 1 and 10 there): a pod that failed its
  // cycle is not retried before initial x 2^(attempts - 1), at most max,
  // has passed. 0: off — a waiting pod is retried at the first node event
  // that could let it fit (docs/model.md §4).
  double pod_initial_backoff_s = 0;
  double pod_max_backoff_s = 10;
  // Among nodes with the best score: seeded random (kube-scheduler) or the
  // lowest node name (paper-compatible runs).
  TieBreak tie_break = TieBreak::kRandom;
  uint64_t seed = 1;
  // Whether pods holding DRA devices may be preemption victims: false as
  // upstream (the DynamicResources plugin cannot free claims for a
  // preemptor until KEP-5690); true models "a version that can".
  bool dra_preemption = false;
  // Check device and resource invariants after every bind (tests, debug).
  bool check_invariants = false;
  // Filter only nodes with the pod's extended resource free (same results as
  // the full scan, faster); false scans every node (for tests).
  bool prune_by_free_resources = true;
  // Reuse a node's filter result and cacheable scores while it is unchanged
  // (same results, faster); false recomputes them every cycle (for tests).
  bool reuse_node_results = true;

  // Throws InputError on an invalid profile.
  void Validate() const;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PROFILE_H_
