#include "gpushare/sched/plugins/node_resources_balanced_allocation.h"

#include <cmath>

#include "gpushare/cluster/resources.h"

namespace gpushare {
namespace {

constexpr ResourceId kBalancedResources[] = {ResourceRegistry::kCpuId,
                                             ResourceRegistry::kMemoryId};
constexpr int kNumBalancedResources = static_cast<int>(
    sizeof(kBalancedResources) / sizeof(kBalancedResources[0]));

}  // namespace

bool NodeResourcesBalancedAllocation::PreScore(const Pod& pod) {
  bool requested = false;
  for (int i = 0; i < kNumBalancedResources; ++i) {
    prepared_requests_[i] = pod.requests.Get(kBalancedResources[i]);
    requested = requested || prepared_requests_[i] != 0;
  }
  prepared_pod_ = &pod;
  return requested;  // best-effort pods: kube returns Skip
}

bool NodeResourcesBalancedAllocation::ScoreKey(const Pod& pod,
                                               uint64_t* key) const {
  if (prepared_pod_ != &pod) return false;
  for (int64_t request : prepared_requests_) {
    if (request < 0 || request > int64_t{0xFFFFFFFF}) return false;
  }
  *key = static_cast<uint64_t>(prepared_requests_[0]) << 32 |
         static_cast<uint64_t>(prepared_requests_[1]);
  return true;
}

int64_t NodeResourcesBalancedAllocation::Score(const Pod& pod,
                                               const Node& node) const {
  double fractions[kNumBalancedResources];
  int n = 0;
  double total = 0;
  const bool prepared = prepared_pod_ == &pod;
  for (int i = 0; i < kNumBalancedResources; ++i) {
    const ResourceId id = kBalancedResources[i];
    const int64_t alloc = node.Allocatable(id);
    if (alloc == 0) continue;
    const int64_t requested =
        node.Requested(id) +
        (prepared ? prepared_requests_[i] : pod.requests.Get(id));
    double fraction =
        static_cast<double>(requested) / static_cast<double>(alloc);
    if (fraction > 1) fraction = 1;
    total += fraction;
    fractions[n++] = fraction;
  }
  double std_dev = 0;
  if (n == 2) {
    std_dev = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (n > 2) {
    const double mean = total / n;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      sum += (fractions[i] - mean) * (fractions[i] - mean);
    }
    std_dev = std::sqrt(sum / n);
  }
  return static_cast<int64_t>((1 - std_dev) *
                              static_cast<double>(kMaxNodeScore));
}

}  // namespace gpushare
