// NodeResourcesFit: kube-scheduler's resource fit filter and its scoring
// strategies (kubernetes/kubernetes pkg/scheduler/framework/plugins/
// noderesources: fit.go, least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go).
//
// Contract: Filter fails a node when it would exceed its pod count ("Too many
// pods") or when any resource the pod requests exceeds what is left of the
// node's allocatable ("Insufficient <resource>"); every shortfall of the node
// is reported, pods first, then resources in id order (cpu, memory,
// extended). Resources an extender manages (ResourceRegistry::
// IgnoredByScheduler, HAMi's gpumem / gpumem-percentage / gpucores) are not
// checked. The reason strings are owned by the plugin and stay valid for its
// lifetime; PreFilter prepares them for the pod's resources so that Filter
// does not allocate (Filter still works, allocating once per new resource,
// when PreFilter was not called).
//
// Score is the profile's ScoringStrategy in kube-scheduler's integer
// arithmetic. For each strategy resource r: requested_r = the node's
// NonZeroRequested (cpu, memory) or Requested (extended) plus the pod's
// request, where a pod's cpu and memory are NonZeroOf(pod) (a container
// without a cpu / memory request counts kDefaultMilliCpuRequest /
// kDefaultMemoryRequestMib, one that asks an explicit 0 counts 0, as
// upstream's GetNonzeroRequestForResource); alloc_r = the node's
// allocatable. A resource is left out (of scores and weights) when alloc_r is
// 0, or when it is an extended resource the pod does not request (kube's
// calculateResourceAllocatableRequest returns (0, 0) then).
//   LeastAllocated: (alloc − req) × 100 / alloc, 0 when req > alloc.
//   MostAllocated:  min(req, alloc) × 100 / alloc.
//   both: Σ score·w / Σ w (integer division), 0 when Σ w = 0.
//   RequestedToCapacityRatio: f(req × 100 / alloc) (f(100) when req > alloc),
//   f piecewise-linear through the shape with scores ×10; node score
//   round(Σ score·w / Σ w) over resources whose score is > 0.
// Scores need no normalization. Not thread-safe (one cycle at a time).

#ifndef GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_
#define GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/cluster/node.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sched/framework.h"
#include "gpushare/sched/profile.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class NodeResourcesFit : public FilterPlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesFit";
  // Filter's reason for a node at its pod count.
  static constexpr std::string_view kTooManyPods = "Too many pods";

  // Interns the strategy's resource names in `registry`, which must outlive
  // the plugin.
  NodeResourcesFit(const ScoringStrategy& strategy, ResourceRegistry& registry);

  std::string_view Name() const override { return kName; }

  void PreFilter(const Pod& pod) override;
  bool Filter(const Pod& pod, const Node& node,
              std::vector<std::string_view>* reasons) const override;

  bool PreScore(const Pod& pod) override;
  int64_t Score(const Pod& pod, const Node& node) const override;
  bool ScoresNormalized() const override { return true; }
  // The pod's scored requests when there are at most two, each < 2^32.
  bool ScoreKey(const Pod& pod, uint64_t* key) const override;

 private:
  // One resource request Filter checks, prepared by PreFilter.
  struct Check {
    ResourceId id;
    int64_t quantity;
    const std::string* insufficient;
  };
  struct WeightedResource {
    ResourceId id;
    int64_t weight;
  };
  // What Filter needs to know of one resource id; filled on first use
  // (`insufficient` is null until then).
  struct ResourceInfo {
    bool ignored = false;
    std::unique_ptr<const std::string> insufficient;  // "Insufficient X"
  };

  const ResourceInfo& InfoOf(ResourceId id) const;
  // The pod's request of `id` as scoring counts it (NonZeroOf for cpu and
  // memory).
  static int64_t ScoredRequest(const Pod& pod, ResourceId id);
  // kube's helper.BuildBrokenLinearFunction over shape_.
  int64_t BrokenLinear(int64_t utilization) const;

  ScoringStrategy::Type type_;
  std::vector<WeightedResource> resources_;
  // RequestedToCapacityRatio shape, scores scaled to 0..kMaxNodeScore.
  std::vector<std::pair<int64_t, int64_t>> shape_;
  const ResourceRegistry& registry_;
  // By resource id; unique_ptr keeps the strings in place as it grows.
  mutable std::vector<ResourceInfo> info_;
  // The pod PreFilter / PreScore prepared for, and what they prepared: the
  // requests Filter checks, and the pod's request (non-zero for cpu and
  // memory; 0 for unrequested extended resources) of each scored resource.
  const Pod* filter_pod_ = nullptr;
  std::vector<Check> checks_;
  const Pod* score_pod_ = nullptr;
  std::vector<int64_t> score_requests_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_
