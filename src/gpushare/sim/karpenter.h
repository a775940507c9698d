// Karpenter: kubernetes-sigs/karpenter's provisioner and disruption
// controller as they decide, over every pool whose provider is karpenter
// (one NodePool per pool). docs/autoscaling.md gives each rule with its
// upstream file and function.
//
// Contract:
//  - Batching (provisioning/batcher.go): a pending pod not seen pending at
//    the previous call, or a node of its pools gone or being deleted, opens
//    a batch (or extends the open one); the batch closes once
//    batch_idle_duration_s pass without such a trigger or
//    batch_max_duration_s after it opened. NextDecisionS is the batch's end
//    while one is open, else the next consolidation check. Pods are noticed
//    when Decide is called: calling it when a pod becomes pending starts
//    the batch then; otherwise at the next consolidation check.
//  - Provisioning when a batch closes (provisioning/scheduling/scheduler.go
//    Solve): every pending pod of its pools, largest cpu then memory first:
//    a pod with ResourceClaims is refused (--ignore-dra-requests, on by
//    default); else it goes on the first existing node with room (ready
//    nodes by what they advertise, then launching ones by their instance
//    type's capacity), else on a NodeClaim opened this round (fewest pods
//    first) whose remaining instance types still hold all its pods, else on
//    a new NodeClaim of the first of its pools whose instance types hold it
//    within the NodePool's limits. An instance type's capacity is its
//    physical GPUs as nvidia.com/gpu (Karpenter knows nothing of
//    time-slicing replicas or of extender resources), cpu and memory of the
//    pool's node shape scaled by its GPUs over the pool's gpus_per_node,
//    and the pool's max pods. Each NodeClaim launches the cheapest of its
//    remaining types (spot price where spot is on and offered). Pods that
//    fit nowhere get a NoScaleUpNote with Karpenter's FailedScheduling
//    event text.
//  - Limits (scheduler.go addToNewNodeClaim, filterByRemainingResources):
//    KarpenterSettings::limits and max_nodes as a node limit; existing nodes
//    count what they advertise once ready, their type's capacity before;
//    each new NodeClaim counts the largest of its types.
//  - Consolidation every 10 s (disruption/controller.go pollingPeriod) on
//    ready nodes whose pods have not changed for consolidate_after_s: empty
//    ones are deleted (emptiness.go); with WhenEmptyOrUnderutilized, if none
//    was empty, the first non-empty candidate (highest price per pod first)
//    whose evictable pods all fit the other nodes is deleted, or replaced by
//    the cheapest type that holds them when strictly cheaper (on-demand
//    nodes only; single-node consolidation). Within the disruption budget
//    (ceil(fraction x the pool's nodes), less those being deleted), never
//    below min_nodes; nodes pending pods would fit on are not touched.
// Deterministic.

#ifndef GPUSHARE_SIM_KARPENTER_H_
#define GPUSHARE_SIM_KARPENTER_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/node_group_autoscaling.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sim/autoscaler.h"

namespace gpushare {

// The disruption controller's polling period (disruption/controller.go).
inline constexpr double kKarpenterConsolidationPeriodS = 10;

class Karpenter : public Autoscaler {
 public:
  // Manages the NodePools of `pools`; `global` holds the settings Karpenter
  // takes once (its batch windows).
  Karpenter(std::vector<int> pools, const KarpenterSettings& global, Rng rng);

  double NextDecisionS(double now_s) const override;
  AutoscalerDecision Decide(const AutoscalerSnapshot& snapshot) override;

 private:
  bool Manages(int pool) const { return pools_.count(pool) > 0; }
  void Provision(const AutoscalerSnapshot& snapshot,
                 AutoscalerDecision* decision);
  void Consolidate(const AutoscalerSnapshot& snapshot,
                   AutoscalerDecision* decision);

  std::set<int> pools_;
  Rng rng_;
  std::set<PodIndex> pending_seen_;   // pods pending at the last call
  std::set<int> live_nodes_;          // non-deleting nodes at the last call
  bool batch_open_ = false;
  double batch_start_s_ = 0;
  double last_trigger_s_ = 0;
  double batch_idle_s_ = 1;
  double batch_max_s_ = 10;
  double next_consolidation_s_ = 0;
  // node -> (its pods, when they last changed): the NodeClaim's
  // lastPodEventTime.
  std::map<int, std::pair<std::vector<PodIndex>, double>> pod_events_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_KARPENTER_H_
