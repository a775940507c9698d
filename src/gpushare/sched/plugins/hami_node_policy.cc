#include "gpushare/sched/plugins/hami_node_policy.h"

#include <algorithm>
#include <cmath>

#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/sched/score_divisor.h"

namespace gpushare {
namespace {

constexpr std::string_view kHamiResourceNames[] = {
    kNvidiaGpu, kHamiGpuMem, kHamiGpuMemPercentage, kHamiGpuCores};

// Raw score of a node without HAMi devices.
constexpr int64_t kNotHami = -1;

}  // namespace

HamiNodePolicy::HamiNodePolicy(const ResourceRegistry& registry)
    : registry_(registry) {}

void HamiNodePolicy::NodesChanged(const std::vector<Node>& nodes) {
  policies_agree_ = true;
  bool seen = false;
  common_policy_ = HamiPolicy::kBinpack;
  for (const Node& node : nodes) {
    const DevicePlugin* devices = node.devices();
    const HamiDevicePlugin* hami =
        devices != nullptr ? devices->AsHami() : nullptr;
    if (hami == nullptr) continue;
    if (!seen) {
      seen = true;
      common_policy_ = hami->settings().node_policy;
    } else if (hami->settings().node_policy != common_policy_) {
      policies_agree_ = false;
      return;
    }
  }
}

bool HamiNodePolicy::ScoreKey(const Pod& /*pod*/, uint64_t* key) const {
  if (!policies_agree_) return false;  // Score may set the policy
  *key = 0;
  return true;
}

bool HamiNodePolicy::PreScore(const Pod& pod) {
  // With one policy on every HAMi node, the first scored has it; a cycle
  // that scores none gives every node 0 whatever the policy.
  policy_known_ = policies_agree_;
  policy_ = policies_agree_ ? common_policy_ : HamiPolicy::kBinpack;
  // HAMi device plugins register nvidia.com/gpumem: without it the cluster
  // has no HAMi node and there is nothing to score.
  if (registry_.Find(kHamiGpuMem) < 0) return false;
  bool requested = false;
  for (int i = 0; i < kNumResources; ++i) {
    if (ids_[i] < 0) ids_[i] = registry_.Find(kHamiResourceNames[i]);
    if (ids_[i] >= 0 && pod.requests.Get(ids_[i]) > 0) requested = true;
  }
  return requested;
}

int64_t HamiNodePolicy::Score(const Pod& /*pod*/, const Node& node) const {
  const DevicePlugin* devices = node.devices();
  const HamiDevicePlugin* hami =
      devices != nullptr ? devices->AsHami() : nullptr;
  if (hami == nullptr) return kNotHami;
  if (!policy_known_) {
    policy_known_ = true;
    policy_ = hami->settings().node_policy;
  }
  return std::llround(1000.0 * hami->NodeScore());
}

void HamiNodePolicy::Normalize(std::vector<int64_t>& scores) const {
  // Nodes without HAMi devices score 0 whatever the policy (under spread a
  // raw 0 would otherwise reverse to the best score).
  int64_t max_score = 0;
  for (int64_t s : scores) max_score = std::max(max_score, s);
  const bool reverse = policy_ == HamiPolicy::kSpread;
  const ScoreDivisor divide(max_score > 0 ? max_score : 1);
  for (int64_t& s : scores) {
    if (s == kNotHami) {
      s = 0;
    } else if (max_score == 0) {
      s = reverse ? kMaxNodeScore : 0;
    } else {
      s = divide.Divide(kMaxNodeScore * s);
      if (reverse) s = kMaxNodeScore - s;
    }
  }
}

}  // namespace gpushare
