// Autoscaler: the decisions of a node autoscaler — cluster-autoscaler or
// Karpenter — over the autoscaled pools of a cluster, from what it can see.
//
// Contract: the Simulation owns one Autoscaler per provider that some pool
// names (MakeAutoscaler). At each time NextDecisionS() returns it hands the
// autoscaler a snapshot of its pools (their nodes, the pods bound there,
// the pending pods that target them) and carries out what Decide() returns:
// launches nodes (which become ready only after the bring-up times of
// docs/model.md), drains and removes nodes, and reports the pods for which
// no scale-up was made, with why. The autoscaler decides from its own view:
// the pods' requests as written, a template node of each group (a ready
// node of the group copied, else what the provider describes:
// ClusterAutoscalerSettings::template_resources, a Karpenter instance
// type's physical GPUs), the scheduler's filters but no scheduler extender
// (HAMi). Where that view is wrong the simulation shows what follows: no
// scale-up, or nodes that do not hold what was expected. Decide() may keep
// state between calls (unneeded-since timers, the last scale-up); it is
// deterministic: same snapshots, same decisions (any random choice, as the
// random expander's, draws from the Rng it was made with).

#ifndef GPUSHARE_SIM_AUTOSCALER_H_
#define GPUSHARE_SIM_AUTOSCALER_H_

#include <memory>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/node_group_autoscaling.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sim/simulation_observer.h"

namespace gpushare {

// A pod bound to a node of an autoscaled pool.
struct AutoscalerBoundPod {
  PodIndex pod = -1;
  ResourceList requests;  // what it holds on the node (its pool's requests)
  // A PodDisruptionBudget (or karpenter.sh/do-not-disrupt, or no
  // controller) forbids evicting it now.
  bool evictable = true;
};

// One node of an autoscaled pool.
struct AutoscalerNodeView {
  enum class State { kLaunching, kReady, kDeleting };
  int node = -1;  // index in Cluster::nodes()
  State state = State::kReady;
  double state_since_s = 0;  // when it entered `state`
  ResourceList allocatable;  // what kubelet reports (empty until ready)
  ResourceList requested;    // the sum of its bound pods' requests
  std::vector<AutoscalerBoundPod> pods;
  std::string instance_type;  // Karpenter: the type it was launched as
  bool spot = false;
};

// One autoscaled pool (a CA node group or a Karpenter NodePool).
struct AutoscalerGroupView {
  int pool = -1;  // index in Cluster::pools()
  const NodePoolSpec* spec = nullptr;
  const GpuModel* model = nullptr;  // null for a CPU pool
  // What a new node advertises once ready (its device plugin's resources,
  // cpu, memory, pods): the truth the autoscaler may not know.
  ResourceList ready_node_allocatable;
  double price_per_node_hour = 0;  // the pool's node (GPUs + licence)
  std::vector<AutoscalerNodeView> nodes;  // launching, ready and deleting
};

// A pod that failed its last scheduling cycle and targets an autoscaled pool.
struct AutoscalerPendingPod {
  PodIndex pod = -1;
  int pool = -1;
  ResourceList requests;  // as written for its pool (after translation)
  double pending_since_s = 0;
  std::string unschedulable_message;  // the scheduler's FitError
  bool uses_resource_claims = false;  // DRA
};

struct AutoscalerSnapshot {
  double now_s = 0;
  const ResourceRegistry* resources = nullptr;
  std::vector<AutoscalerGroupView> groups;
  std::vector<AutoscalerPendingPod> pending;
};

struct ScaleUpAction {
  int pool = -1;
  int nodes = 0;
  std::string instance_type;  // Karpenter; "" under CA
  bool spot = false;
  std::vector<PodIndex> for_pods;  // the pending pods it expects to hold
};

struct ScaleDownAction {
  int node = -1;
  std::string reason;  // e.g. "unneeded for 600 s (GPU requested 25 %)"
};

// A pending pod the autoscaler did not scale up for, as it would say it
// (cluster-autoscaler's NotTriggerScaleUp event), with the upstream issue
// that documents the gap where there is one.
struct NoScaleUpNote {
  PodIndex pod = -1;
  int pool = -1;
  std::string reason;
  std::string upstream;  // e.g. "Project-HAMi/HAMi#1099"; "" for none
};

struct AutoscalerDecision {
  std::vector<ScaleUpAction> scale_ups;
  std::vector<ScaleDownAction> scale_downs;
  std::vector<NoScaleUpNote> no_scale_up;
};

class Autoscaler {
 public:
  virtual ~Autoscaler() = default;
  // The first time after `now_s` (strictly) at which Decide() is due
  // (cluster-autoscaler: its scan interval; Karpenter: its batching window
  // and consolidation checks).
  virtual double NextDecisionS(double now_s) const = 0;
  virtual AutoscalerDecision Decide(const AutoscalerSnapshot& snapshot) = 0;
};

// The autoscaler of `provider` (not kNone) over `pools` (indices into
// cluster.pools(), each naming that provider), drawing from `rng`.
std::unique_ptr<Autoscaler> MakeAutoscaler(AutoscalerProvider provider,
                                           const Cluster& cluster,
                                           const std::vector<int>& pools,
                                           Rng rng);

}  // namespace gpushare

#endif  // GPUSHARE_SIM_AUTOSCALER_H_
