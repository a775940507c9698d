#include "gpushare/sched/plugins/hami_node_policy.h"

#include <algorithm>
#include <cmath>

#include "gpushare/cluster/hami_device_plugin.h"

namespace gpushare {
namespace {

constexpr std::string_view kHamiResourceNames[] = {
    kNvidiaGpu, kHamiGpuMem, kHamiGpuMemPercentage, kHamiGpuCores};

// Raw score of a node without HAMi devices.
constexpr int64_t kNotHami = -1;

}  // namespace

HamiNodePolicy::HamiNodePolicy(const ResourceRegistry& registry)
    : registry_(registry) {}

bool HamiNodePolicy::PreScore(const Pod& pod) {
  policy_known_ = false;
  policy_ = HamiPolicy::kBinpack;
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
  for (int64_t& s : scores) {
    if (s == kNotHami) {
      s = 0;
    } else if (max_score == 0) {
      s = reverse ? kMaxNodeScore : 0;
    } else {
      s = kMaxNodeScore * s / max_score;
      if (reverse) s = kMaxNodeScore - s;
    }
  }
}

}  // namespace gpushare
