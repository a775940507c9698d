// NodeResourcesBalancedAllocation: kube-scheduler's score favouring nodes
// whose cpu and memory would be used in equal proportion
// (kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/
// balanced_allocation.go).
//
// Contract: for cpu and memory, fraction_r = min((Requested_r + pod_r) /
// alloc_r, 1) with the pod's actual requests (no non-zero defaults);
// resources with alloc_r = 0 are left out. std = |f1 − f2| / 2 for two
// fractions, the population standard deviation for more, 0 for fewer; the
// score is int64((1 − std) × 100), already in 0..kMaxNodeScore. PreScore
// skips best-effort pods (no cpu and no memory request), as kube does.
// Stateless.

#ifndef GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_
#define GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <string_view>

#include "gpushare/cluster/node.h"
#include "gpushare/sched/framework.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class NodeResourcesBalancedAllocation : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesBalancedAllocation";

  std::string_view Name() const override { return kName; }

  bool PreScore(const Pod& pod) override;
  int64_t Score(const Pod& pod, const Node& node) const override;
  bool ScoresNormalized() const override { return true; }
  // The pod's cpu and memory requests when each is < 2^32.
  bool ScoreKey(const Pod& pod, uint64_t* key) const override;

 private:
  // The pod PreScore read, and its cpu and memory requests.
  const Pod* prepared_pod_ = nullptr;
  int64_t prepared_requests_[2] = {0, 0};
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_
