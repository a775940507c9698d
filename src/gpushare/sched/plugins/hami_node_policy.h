// HAMiNodePolicy: HAMi's node scheduler policy (binpack or spread) as a Score
// plugin (Project-HAMi/HAMi pkg/scheduler/policy/node_policy.go).
//
// Contract: PreScore scores only pods that request nvidia.com/gpu,
// nvidia.com/gpumem, nvidia.com/gpumem-percentage or nvidia.com/gpucores.
// Score is llround(1000 × HamiDevicePlugin::NodeScore()) — HAMi's
// 10 × (ΣUsed/ΣCount + ΣUsedcores/ΣTotalcore + ΣUsedmem/ΣTotalmem) on the
// node's usage before the pod, so 0..30000 — for HAMi nodes and -1 for every
// other node. Normalize is DefaultNormalizeScore, reversed under spread, over
// the HAMi nodes; the others end at 0 whatever the policy:
// binpack favours the most used node, spread the least used (HAMi takes the
// last node of its sorted list). The policy is the node_policy of the first
// HAMi node scored in the current cycle (PreScore resets it), binpack when
// the cycle scored none; clusters whose HAMi pools disagree thus follow the
// first pool's policy. When every HAMi node has the same node_policy
// (NodesChanged tells), that policy is known up front, Score has no side
// effect and its scores may be reused (ScoreKey: the score does not depend on
// the pod); policy() then reports it even in a cycle that scored no HAMi node
// (every node ends at 0 then, whatever the policy). One cycle at a time.

#ifndef GPUSHARE_SCHED_PLUGINS_HAMI_NODE_POLICY_H_
#define GPUSHARE_SCHED_PLUGINS_HAMI_NODE_POLICY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpushare/cluster/node.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/cluster/sharing_config.h"
#include "gpushare/sched/framework.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class HamiNodePolicy : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "HAMiNodePolicy";

  // `registry` must outlive the plugin.
  explicit HamiNodePolicy(const ResourceRegistry& registry);

  std::string_view Name() const override { return kName; }

  bool PreScore(const Pod& pod) override;
  int64_t Score(const Pod& pod, const Node& node) const override;
  void Normalize(std::vector<int64_t>& scores) const override;
  bool ScoreKey(const Pod& pod, uint64_t* key) const override;
  void NodesChanged(const std::vector<Node>& nodes) override;

  // The policy Normalize applies (for tests and reports).
  HamiPolicy policy() const { return policy_; }

 private:
  static constexpr int kNumResources = 4;

  const ResourceRegistry& registry_;
  // nvidia.com/gpu, gpumem, gpumem-percentage, gpucores; -1 until the
  // registry knows the name (ids never change once assigned).
  ResourceId ids_[kNumResources] = {-1, -1, -1, -1};
  // Whether every HAMi node has one node policy, and which.
  bool policies_agree_ = false;
  HamiPolicy common_policy_ = HamiPolicy::kBinpack;
  mutable bool policy_known_ = false;
  mutable HamiPolicy policy_ = HamiPolicy::kBinpack;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_HAMI_NODE_POLICY_H_
