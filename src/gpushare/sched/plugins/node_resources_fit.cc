#include "gpushare/sched/plugins/node_resources_fit.h"

#include <algorithm>
#include <cmath>

namespace gpushare {
namespace {

// requestedToCapacityRatio shape scores are 0..MaxCustomPriorityScore (10);
// kube scales them to 0..MaxNodeScore.
constexpr int64_t kMaxCustomPriorityScore = 10;
constexpr int64_t kMaxUtilization = 100;

int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  return std::min(requested, capacity) * kMaxNodeScore / capacity;
}

}  // namespace

NodeResourcesFit::NodeResourcesFit(const ScoringStrategy& strategy,
                                   ResourceRegistry& registry)
    : type_(strategy.type), registry_(registry) {
  for (const auto& [name, weight] : strategy.resources) {
    resources_.push_back({registry.Intern(name), weight});
  }
  for (const auto& [utilization, score] : strategy.shape) {
    shape_.emplace_back(utilization,
                        score * (kMaxNodeScore / kMaxCustomPriorityScore));
  }
}

const NodeResourcesFit::ResourceInfo& NodeResourcesFit::InfoOf(
    ResourceId id) const {
  if (id >= static_cast<int>(info_.size())) info_.resize(id + 1);
  ResourceInfo& info = info_[id];
  if (info.insufficient == nullptr) {
    info.ignored = registry_.IgnoredByScheduler(id);
    info.insufficient = std::make_unique<const std::string>("Insufficient " +
                                                            registry_.Name(id));
  }
  return info;
}

int64_t NodeResourcesFit::ScoredRequest(const Pod& pod, ResourceId id) {
  if (id == ResourceRegistry::kCpuId) return NonZeroOf(pod).cpu_milli;
  if (id == ResourceRegistry::kMemoryId) return NonZeroOf(pod).memory_mib;
  return pod.requests.Get(id);
}

void NodeResourcesFit::PreFilter(const Pod& pod) {
  checks_.clear();
  for (const auto& [id, quantity] : pod.requests.items()) {
    const ResourceInfo& info = InfoOf(id);
    if (!info.ignored) checks_.push_back({id, quantity, info.insufficient.get()});
  }
  filter_pod_ = &pod;
}

bool NodeResourcesFit::PreScore(const Pod& pod) {
  score_requests_.clear();
  for (const WeightedResource& r : resources_) {
    score_requests_.push_back(ScoredRequest(pod, r.id));
  }
  score_pod_ = &pod;
  return true;
}

bool NodeResourcesFit::ScoreKey(const Pod& pod, uint64_t* key) const {
  if (score_pod_ != &pod || score_requests_.size() > 2) return false;
  uint64_t k = 0;
  for (int64_t request : score_requests_) {
    if (request < 0 || request > int64_t{0xFFFFFFFF}) return false;
    k = (k << 32) | static_cast<uint64_t>(request);
  }
  *key = k;
  return true;
}

bool NodeResourcesFit::Filter(const Pod& pod, const Node& node,
                              std::vector<std::string_view>* reasons) const {
  bool fits = true;
  if (node.pod_count() + 1 > node.max_pods()) {
    if (reasons == nullptr) return false;
    reasons->push_back(kTooManyPods);
    fits = false;
  }
  if (filter_pod_ == &pod) {
    for (const Check& c : checks_) {
      if (c.quantity <= node.Allocatable(c.id) - node.Requested(c.id)) continue;
      if (reasons == nullptr) return false;
      reasons->push_back(*c.insufficient);
      fits = false;
    }
    return fits;
  }
  for (const auto& [id, quantity] : pod.requests.items()) {
    const ResourceInfo& info = InfoOf(id);
    if (info.ignored) continue;
    if (quantity <= node.Allocatable(id) - node.Requested(id)) continue;
    if (reasons == nullptr) return false;
    reasons->push_back(*info.insufficient);
    fits = false;
  }
  return fits;
}

int64_t NodeResourcesFit::BrokenLinear(int64_t utilization) const {
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (utilization <= shape_[i].first) {
      if (i == 0) return shape_[0].second;
      const auto [u0, s0] = shape_[i - 1];
      const auto [u1, s1] = shape_[i];
      return s0 + (s1 - s0) * (utilization - u0) / (u1 - u0);
    }
  }
  return shape_.empty() ? 0 : shape_.back().second;
}

int64_t NodeResourcesFit::Score(const Pod& pod, const Node& node) const {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  const bool prepared = score_pod_ == &pod;
  for (size_t i = 0; i < resources_.size(); ++i) {
    const WeightedResource& r = resources_[i];
    const int64_t pod_request =
        prepared ? score_requests_[i] : ScoredRequest(pod, r.id);
    int64_t node_requested = 0;
    if (r.id == ResourceRegistry::kCpuId ||
        r.id == ResourceRegistry::kMemoryId) {
      node_requested = node.NonZeroRequested(r.id);
    } else {
      // An extended resource the pod does not request is not scored.
      if (pod_request == 0) continue;
      node_requested = node.Requested(r.id);
    }
    const int64_t alloc = node.Allocatable(r.id);
    if (alloc == 0) continue;
    const int64_t requested = node_requested + pod_request;
    switch (type_) {
      case ScoringStrategy::Type::kLeastAllocated:
        node_score += LeastRequestedScore(requested, alloc) * r.weight;
        weight_sum += r.weight;
        break;
      case ScoringStrategy::Type::kMostAllocated:
        node_score += MostRequestedScore(requested, alloc) * r.weight;
        weight_sum += r.weight;
        break;
      case ScoringStrategy::Type::kRequestedToCapacityRatio: {
        const int64_t utilization = requested > alloc
                                        ? kMaxUtilization
                                        : requested * kMaxUtilization / alloc;
        const int64_t score = BrokenLinear(utilization);
        if (score > 0) {
          node_score += score * r.weight;
          weight_sum += r.weight;
        }
        break;
      }
    }
  }
  if (weight_sum == 0) return 0;
  if (type_ == ScoringStrategy::Type::kRequestedToCapacityRatio) {
    return static_cast<int64_t>(std::round(static_cast<double>(node_score) /
                                           static_cast<double>(weight_sum)));
  }
  return node_score / weight_sum;
}

}  // namespace gpushare
