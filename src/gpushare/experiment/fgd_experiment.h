// FgdExperiment: the FGD paper's scheduling experiment on the openb trace.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator pkg/simulator/core.go
// Simulate, simulator.go; docs/experiment-fgd.md): one run takes a policy and a
// seed. With one Rng(seed), in this order: the arrival order
// (experiment/workload_tuning.h), then a random permutation p of the nodes
// (Go's rand.Perm, inside-out) naming node i "%04d-<sn>" with p[i]. Every node
// gets an Open-Gpu-Share device plugin; every pod asks for its CPU, memory and
// alibabacloud.com/gpu-milli, and its gpu_spec becomes a required node affinity
// on alibabacloud.com/gpu-card-model. Pods arrive one at a time and are
// scheduled once (no retry, no departures): OpenGpuShareFit filters every node;
// one feasible node is taken as is; otherwise the policy's Score runs on each
// feasible node, then its Normalize, and the highest score wins, ties going to
// the lexicographically smallest node name; the policy's GpuSelector picks the
// GPUs at Reserve. A pod no node fits fails. The typical pods M come from the
// trace before inflation.
//
// After the initial state and after every arrival the run records the
// arrived GPU share (pods tried so far, num_gpu x gpu_milli), the allocated
// share and the cluster fragmentation (the sum of F_n(M) over nodes); these
// are averaged per arrived-workload bucket a = round-half-even(arrived /
// (cluster GPUs x 10)) in percent of cluster GPU capacity.
//
// Raw scores are memoised per (pod shape, node generation) — every policy's
// Score reads only the pod's requests and the node's state — unless
// `score_cache` is false. Runs are independent: Run() is const and may be
// called from several threads; RunAll() runs (policy, seed) pairs on
// `threads` threads, results in (policy, seed) order, identical whatever the
// thread count. The catalog given to the constructor must outlive the
// experiment.

#ifndef GPUSHARE_EXPERIMENT_FGD_EXPERIMENT_H_
#define GPUSHARE_EXPERIMENT_FGD_EXPERIMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/experiment/fgd_policy.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/openb_node_list.h"
#include "gpushare/workload/openb_pod_list.h"
#include "gpushare/workload/typical_pods.h"

namespace gpushare {

// The protocol's inflation ratio (tune 1.3) and seeds (42..51).
inline constexpr double kFgdDefaultInflate = 1.3;
inline constexpr uint64_t kFgdFirstSeed = 42;
inline constexpr uint64_t kFgdLastSeed = 51;
// Pods a trace node holds (the artifact's node objects allow 1001).
inline constexpr int kOpenbMaxPods = 1001;

// Averages over the records of one arrived-workload bucket.
struct FgdBucket {
  int arrived_pct = 0;
  int64_t records = 0;
  double alloc_pct = 0;          // allocated GPU share / cluster GPUs
  double frag_amount_pct = 0;    // fragmentation / cluster GPUs
  double frag_ratio_pct = 0;     // fragmentation / idle GPU share
};

struct FgdRunResult {
  FgdPolicy policy = FgdPolicy::kFgd;
  uint64_t seed = 0;
  int64_t arrivals = 0;
  int64_t failed = 0;
  std::vector<FgdBucket> buckets;  // by arrived_pct, only non-empty ones
  // The bucket at `arrived_pct`, else the last one below it; null if none.
  const FgdBucket* At(int arrived_pct) const;
};

struct FgdRunOptions {
  bool score_cache = true;
  // Test hook: called for every scored node with the cached (or computed)
  // raw score, to compare against a fresh computation.
  bool verify_cache = false;
};

class FgdExperiment {
 public:
  // Resolves every node's GPU model through `models` in `catalog`
  // (InputError at the node list's file:line), computes M from `pods`.
  FgdExperiment(const Catalog& catalog, const GpuModelMap& models,
                std::string node_file, std::vector<OpenbNode> nodes,
                std::vector<OpenbPod> pods, double inflate);

  FgdRunResult Run(FgdPolicy policy, uint64_t seed,
                   const FgdRunOptions& options = {}) const;
  std::vector<FgdRunResult> RunAll(const std::vector<FgdPolicy>& policies,
                                   const std::vector<uint64_t>& seeds,
                                   int threads) const;

  const TypicalPods& typical() const { return typical_; }
  int64_t cluster_gpu_milli() const { return cluster_gpu_milli_; }
  const std::vector<OpenbNode>& nodes() const { return nodes_; }
  const std::vector<OpenbPod>& pods() const { return pods_; }
  // The cluster's fragmentation with nothing placed, in % of its GPUs.
  double EmptyClusterFragmentationPct() const;

 private:
  std::vector<OpenbNode> nodes_;
  std::vector<const GpuModel*> node_models_;
  std::vector<OpenbPod> pods_;
  double inflate_;
  TypicalPods typical_;
  int64_t cluster_gpu_milli_ = 0;
  // Each pod's shape id (CPU, memory, GPU ask, model list), for the memo.
  std::vector<int> pod_shape_;
  int shape_count_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXPERIMENT_FGD_EXPERIMENT_H_
