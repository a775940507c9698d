// ClusterAutoscaler: kubernetes/autoscaler's cluster-autoscaler (CA) as it
// decides, over every pool whose provider is cluster-autoscaler (one CA
// deployment, one node group per pool). docs/autoscaling.md gives each rule
// with its upstream file and function.
//
// Contract: Decide() is one CA loop (static_autoscaler.go RunOnce), due every
// --scan-interval (NextDecisionS). From the snapshot alone it
//  - builds each group's template node: a ready node of the group (ready for
//    more than a minute, not being deleted) copied with what its Node object
//    advertises (extender-managed resources dropped); else the copy it cached
//    from an earlier ready node; else the provider's template (cpu, memory,
//    max pods and nvidia.com/gpu = the physical GPUs of the pool's node,
//    overridden or extended by ClusterAutoscalerSettings::template_resources;
//    DRA device classes only with template_resource_slices);
//  - drops the pending pods younger than --new-pod-scale-up-delay and those
//    that fit the free space of the ready nodes or of upcoming (launching)
//    nodes (filter_out_schedulable);
//  - for each group neither at max nor in backoff, checks each remaining pod
//    against an empty template node (resources only; no extender), bin-packs
//    the pods that fit first-fit decreasing onto new template nodes, capped
//    at max - current size, and lets the expander pick one group; that group
//    grows (one ScaleUpAction a loop);
//  - in a loop without a scale-up, notes every remaining pod with CA's
//    NotTriggerScaleUp message ("pod didn't trigger scale-up: " and the
//    count of groups per reason) and the upstream issue for the gap;
//  - in a loop without a scale-up, marks ready nodes unneeded (utilization
//    under the threshold — GPU nodes: nvidia.com/gpu requested over
//    allocatable only — and every pod evictable and placeable first-fit on
//    the group's other ready nodes) and removes those unneeded for
//    --scale-down-unneeded-time, outside --scale-down-delay-after-add, never
//    below min: empty nodes up to 10 at once, at most one non-empty node
//    draining at a time.
// A launching node older than --max-node-provision-time is no longer upcoming
// and puts its group in backoff: 5 min, doubling while failures repeat, up to
// 30 min, forgotten 3 h after the last failure. Flags CA takes once
// (scan interval, delays, expander) come from the first managed pool's
// settings; per-group options (thresholds, unneeded time, provision time,
// template) from each group's own. State kept between loops: unneeded-since
// times, the last scale-up, backoffs, cached templates. Deterministic; ties
// in the expander draw from the Rng.

#ifndef GPUSHARE_SIM_CLUSTER_AUTOSCALER_H_
#define GPUSHARE_SIM_CLUSTER_AUTOSCALER_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/node_group_autoscaling.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sim/autoscaler.h"

namespace gpushare {

// cluster-autoscaler's constants and flag defaults that the settings struct
// does not carry (kubernetes/autoscaler cluster-autoscaler/FAQ.md, "What are
// the parameters to CA?": the backoff flags, --max-scale-down-parallelism,
// --max-drain-parallelism, --scale-down-non-empty-candidates-count;
// processors/nodeinfosprovider/mixed_nodeinfos_processor.go
// stabilizationDelay).
inline constexpr double kCaTemplateStabilizationS = 60;
inline constexpr double kCaInitialBackoffS = 300;     // 5m0s
inline constexpr double kCaMaxBackoffS = 1800;        // 30m0s
inline constexpr double kCaBackoffResetS = 3 * 3600;  // 3h0m0s
inline constexpr int kCaMaxScaleDownParallelism = 10;
inline constexpr int kCaMaxDrainParallelism = 1;
inline constexpr int kCaScaleDownNonEmptyCandidates = 30;

class ClusterAutoscaler : public Autoscaler {
 public:
  // Manages the groups of `pools`; `global` holds the flags CA takes once.
  ClusterAutoscaler(std::vector<int> pools, ClusterAutoscalerSettings global,
                    Rng rng);

  double NextDecisionS(double now_s) const override;
  AutoscalerDecision Decide(const AutoscalerSnapshot& snapshot) override;

  // The template node CA would use for `group` now (what the scale-up
  // simulation sees), without touching the cache. Exposed for tests.
  ResourceList TemplateFor(const AutoscalerGroupView& group,
                           const AutoscalerSnapshot& snapshot) const;

 private:
  struct Backoff {
    double until_s = 0;
    double duration_s = 0;
    double last_failure_s = 0;
  };

  void UpdateBackoffs(const AutoscalerSnapshot& snapshot);
  bool InBackoff(int pool, double now_s) const;
  void UpdateTemplateCache(const AutoscalerSnapshot& snapshot);
  bool Manages(int pool) const;
  // Scale-up part of the loop; returns whether a group was grown.
  bool ScaleUp(const AutoscalerSnapshot& snapshot,
               AutoscalerDecision* decision);
  void ScaleDown(const AutoscalerSnapshot& snapshot,
                 AutoscalerDecision* decision);

  std::set<int> pools_;
  ClusterAutoscalerSettings global_;
  Rng rng_;
  std::optional<double> last_scale_up_s_;
  std::map<int, double> unneeded_since_s_;  // node -> since
  std::map<int, Backoff> backoff_;          // pool -> backoff
  std::set<int> timed_out_nodes_;           // launching nodes counted once
  std::map<int, ResourceList> template_cache_;  // pool -> cached template
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_CLUSTER_AUTOSCALER_H_
