// Plan candidates: the sharing settings the planner tries on one node pool.
//
// Contract: PoolCandidates() lists, for a pool and its PlanPoolSpec, one
// candidate per distinct setting of the schemes the spec allows, in this
// order: the pool as written (when its scheme is allowed), exclusive,
// time-slicing and MPS for each replica count, HAMi for each split count,
// then MIG (mixed strategy) with each named config of the model
// (all-balanced, all-<profile>; not all-disabled / all-enabled) and, with
// `mig_layouts: all`, one layout per distinct combination of profile counts
// among the model's maximal layouts (catalog/mig_layout.h) without
// media-extension profiles that no named config has, then, with
// `mig_mixes` (the default), the per-GPU mixes of catalog/mig_mix.h (k GPUs
// of each node one whole-GPU instance, labelled "MIG 7g.80gb on GPUs 0-1,
// 2 x 3g.40gb on GPUs 2-3"), then, with the compare
// spec's `mig_dynamic`, dynamic MIG ("MIG (dynamic)": the pool on NVIDIA's
// DRA driver, instances made per claim). A pool that already
// runs a scheme keeps its other settings of that scheme (rename, policies,
// HAMi scaling) with the count changed. The compare spec's replicas and
// split count are always among the counts, so every `compare` variant's
// setting is a candidate. Settings the model rejects (MPS clients over its
// limit, MIG on a GPU without MIG) are skipped with a note. HAMi candidates
// pay `vgpu_licence_per_gpu_hour` (the pool's own licence when it already
// runs HAMi); the others none.

#ifndef GPUSHARE_DECIDE_PLAN_CANDIDATES_H_
#define GPUSHARE_DECIDE_PLAN_CANDIDATES_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/plan_spec.h"

namespace gpushare {

struct PoolCandidate {
  std::string label;  // SharingLabel(sharing, model)
  SharingConfig sharing;
  double licence_per_gpu_hour = 0;
};

std::vector<PoolCandidate> PoolCandidates(const NodePoolSpec& pool,
                                          const GpuModel& model,
                                          const PlanPoolSpec& spec,
                                          const CompareSpec& compare,
                                          double vgpu_licence_per_gpu_hour,
                                          std::vector<std::string>* notes);

// The pool with `candidate`'s settings and `nodes` nodes (ResizePool: an
// imported pool grows with new nodes or drops its last members); dynamic
// MIG puts it on the DRA driver (devices: dra, no other driver setting).
NodePoolSpec ApplyCandidate(const NodePoolSpec& pool,
                            const PoolCandidate& candidate, int nodes);

// USD per hour of `nodes` nodes of `pool`'s shape under `candidate`:
// nodes x GPUs per node x (the model's price + the licence).
double PoolCostPerHour(const NodePoolSpec& pool, const GpuModel& model,
                       double licence_per_gpu_hour, int nodes);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLAN_CANDIDATES_H_
