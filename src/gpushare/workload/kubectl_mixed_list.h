// A kubectl List that holds several kinds: `kubectl get nodes,pods,
// resourceslices,deviceclasses,resourceclaims,resourceclaimtemplates -A -o
// json` in one file, which both the node import and the pod trace may read.
//
// Contract: KubectlMixedItems() accepts what KubectlItems() (kubectl_object
// .h) accepts for `kind` — a List, a `<kind>List` or one object — and, in a
// List, items of the Dynamic Resource Allocation kinds (ResourceSlice,
// DeviceClass, ResourceClaim, ResourceClaimTemplate) and of `other_kind`
// (Pod in a node list, Node in a pod list), which the caller skips. The DRA
// objects must be of apiVersion resource.k8s.io/v1 (or give none): another
// version of resource.k8s.io (v1beta1, v1beta2, v1alpha3) is an InputError
// at its apiVersion saying that v1 is read and how to get it. Any other kind
// is an InputError at its `kind` naming the kinds accepted. Items keep their
// order within each kind. Errors are at FILE:LINE:COL with the JSON path.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_MIXED_LIST_H_
#define GPUSHARE_WORKLOAD_KUBECTL_MIXED_LIST_H_

#include <string>
#include <vector>

#include "gpushare/io/json_value.h"

namespace gpushare {

// The DRA objects of a List, by kind.
struct KubectlDraItems {
  std::vector<JsonValue> resource_slices;
  std::vector<JsonValue> device_classes;
  std::vector<JsonValue> resource_claims;
  std::vector<JsonValue> resource_claim_templates;

  bool empty() const {
    return resource_slices.empty() && device_classes.empty() &&
           resource_claims.empty() && resource_claim_templates.empty();
  }
};

// The API version read (resource.k8s.io/v1, Kubernetes 1.34 and later).
inline constexpr const char* kResourceApiVersion = "resource.k8s.io/v1";

// The items of `kind`; the DRA objects in `*dra`; `*other` (if set) counts
// the items of `other_kind`.
std::vector<JsonValue> KubectlMixedItems(const std::string& file,
                                         const std::string& text,
                                         const std::string& kind,
                                         const std::string& other_kind,
                                         KubectlDraItems* dra,
                                         int* other = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_MIXED_LIST_H_
