// Resource arithmetic shared by the autoscaler models (cluster_autoscaler.h,
// karpenter.h): what a node advertises to an autoscaler, what is left on it,
// and whether a pod's requests fit — the resource part of the scheduler's
// NodeResourcesFit filter as an autoscaler runs it, without any scheduler
// extender.
//
// Contract: pure functions over ResourceList; no state. A resource the node
// does not advertise counts as 0 free, so a pod requesting it does not fit
// (kube-scheduler's NodeResourcesFit, pkg/scheduler/framework/plugins/
// noderesources/fit.go fitsRequest: "Insufficient <name>").

#ifndef GPUSHARE_SIM_AUTOSCALER_FIT_H_
#define GPUSHARE_SIM_AUTOSCALER_FIT_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/resources.h"

namespace gpushare {

// `allocatable` as the Node object's status.allocatable shows it: without
// the resources a scheduler extender manages (HAMi's nvidia.com/gpumem,
// gpumem-percentage and gpucores live in node annotations, not in
// allocatable; the simulation's device plugin keeps them in its own
// allocatable for its bookkeeping).
inline ResourceList AdvertisedAllocatable(const ResourceList& allocatable,
                                          const ResourceRegistry& registry) {
  ResourceList out;
  for (const auto& [id, quantity] : allocatable.items()) {
    if (!registry.IgnoredByScheduler(id)) out.Set(id, quantity);
  }
  return out;
}

// `a` - `b`, per resource, floored at 0.
inline ResourceList SubtractResources(const ResourceList& a,
                                      const ResourceList& b) {
  ResourceList out = a;
  for (const auto& [id, quantity] : b.items()) {
    out.Set(id, std::max<int64_t>(0, out.Get(id) - quantity));
  }
  return out;
}

// `a` + `b`, per resource.
inline ResourceList AddResources(const ResourceList& a, const ResourceList& b) {
  ResourceList out = a;
  for (const auto& [id, quantity] : b.items()) out.Add(id, quantity);
  return out;
}

// Whether `requests` fit in `free`; each resource that does not appends the
// filter's reason to `reasons` (when not null): "Insufficient <name>", or
// for a DRA device class (the scheduler's DynamicResources filter) "cannot
// allocate all claims", once.
inline bool RequestsFit(const ResourceList& requests, const ResourceList& free,
                        const ResourceRegistry& registry,
                        std::vector<std::string>* reasons) {
  bool fits = true;
  bool claims_reported = false;
  for (const auto& [id, quantity] : requests.items()) {
    if (quantity <= free.Get(id)) continue;
    fits = false;
    if (reasons == nullptr) continue;
    if (registry.KindOf(id) == ResourceRegistry::Kind::kDraClassKind) {
      if (!claims_reported) reasons->push_back("cannot allocate all claims");
      claims_reported = true;
    } else {
      reasons->push_back("Insufficient " + registry.Name(id));
    }
  }
  return fits;
}

}  // namespace gpushare

#endif  // GPUSHARE_SIM_AUTOSCALER_FIT_H_
