#include "gpushare/workload/kubectl_mixed_list.h"

#include "gpushare/workload/kubectl_object.h"

namespace gpushare {
namespace {

// The DRA object's apiVersion must be resource.k8s.io/v1 (or absent).
void CheckDraApiVersion(const JsonValue& item, const std::string& kind) {
  const JsonValue at = item.Get("apiVersion");
  const std::string version = at.String();
  if (version.empty() || version == kResourceApiVersion) return;
  at.Fail("a " + kind + " of " + version + ": the import reads " +
          kResourceApiVersion +
          " (Kubernetes 1.34 and later; `kubectl get " + kind +
          ".v1.resource.k8s.io -o json` asks the API server for it)");
}

}  // namespace

std::vector<JsonValue> KubectlMixedItems(const std::string& file,
                                         const std::string& text,
                                         const std::string& kind,
                                         const std::string& other_kind,
                                         KubectlDraItems* dra, int* other) {
  std::string root_kind;
  const std::vector<JsonValue> items =
      KubectlListItems(file, text, kind, &root_kind);
  std::vector<JsonValue> out;
  if (other != nullptr) *other = 0;
  for (const JsonValue& item : items) {
    if (!item.IsObject()) item.Fail("expected a " + kind + " object");
    const std::string k = item.Get("kind").String();
    if (k.empty() || k == kind) {
      out.push_back(item);
      continue;
    }
    std::vector<JsonValue>* bucket =
        k == "ResourceSlice"           ? &dra->resource_slices
        : k == "DeviceClass"           ? &dra->device_classes
        : k == "ResourceClaim"         ? &dra->resource_claims
        : k == "ResourceClaimTemplate" ? &dra->resource_claim_templates
                                       : nullptr;
    if (bucket != nullptr) {
      CheckDraApiVersion(item, k);
      bucket->push_back(item);
    } else if (k == other_kind && root_kind == "List") {
      if (other != nullptr) ++*other;
    } else {
      item.Get("kind").Fail(
          "expected kind " + kind + ", got '" + k + "' (a List may also hold " +
          other_kind +
          ", ResourceSlice, DeviceClass, ResourceClaim and "
          "ResourceClaimTemplate objects)");
    }
  }
  return out;
}

}  // namespace gpushare
