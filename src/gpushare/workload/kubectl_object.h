// Helpers shared by the kubectl readers (kubectl_node_list.h,
// kubectl_pod_list.h): the List envelope, string maps, quantities, taint
// effects and tolerations, each failing with an InputError at FILE:LINE:COL
// and JSON path.
// The text is checked as JSON with the API's DRA list limits
// (kubectl_claim_validation.h KubectlDraArrayLimits) before it is parsed.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_OBJECT_H_
#define GPUSHARE_WORKLOAD_KUBECTL_OBJECT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/quantity.h"
#include "gpushare/io/json_value.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

// The objects of `kubectl get KIND -o json` output in `text`: the items of
// a List (kind `List` or `<kind>List`), or a single object of `kind`.
// Every item must be an object of kind `kind` when it says its kind.
std::vector<JsonValue> KubectlItems(const std::string& file,
                                    const std::string& text,
                                    const std::string& kind);
// The same items unchecked, for readers of Lists that mix kinds; the root's
// kind in `*list_kind` when given.
std::vector<JsonValue> KubectlListItems(const std::string& file,
                                        const std::string& text,
                                        const std::string& kind,
                                        std::string* list_kind);

// The catalog model of a GPU product name as kubectl objects spell it (a
// node's nvidia.com/gpu.product label, HAMi's device type, a DRA device's
// productName): spaces as '-', an "NVIDIA-" prefix dropped if need be;
// fails at `at` when the catalog has no such model.
const GpuModel& KubectlGpuModel(const JsonValue& at, const std::string& product,
                                const Catalog& catalog GS_LIFETIMEBOUND);

// The resource name prefix of MIG devices (nvidia.com/mig-<profile>).
inline constexpr const char* kMigResourcePrefix = "nvidia.com/mig-";

// metadata.labels / nodeSelector / annotations: string values only.
Labels ReadStringMap(const JsonValue& value);

// A quantity (a JSON string such as "500m", or a number).
Quantity ReadQuantity(const JsonValue& value);
// The quantity in the unit of `resource`: millicores for cpu, MiB for
// memory (rounded up), whole units for everything else; >= 0.
int64_t ReadResourceAmount(const JsonValue& value, const std::string& resource);

TaintEffect ReadTaintEffect(const JsonValue& value);

// A v1.Toleration: key, operator (Equal when absent; Equal or Exists),
// value and effect (none: every effect). tolerationSeconds is not read.
Toleration ReadKubectlToleration(const JsonValue& t);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_OBJECT_H_
