// What a pod-template patch must remove, and whom it must keep away, so that
// applied to a workload written for any scheme the cluster runs — today or
// after the plan — it leaves exactly the planned request (docs/emit.md,
// "What the pod patches remove").
//
// Contract: ClusterGpuSchemesOf() reads the GPU pools (gpus_per_node > 0) of
// the planned scenario and of `today` (the cluster as it runs now; may be
// null) and returns every extended-resource name a pod of those pools may
// ask, each scheme's as its device plugin advertises it:
//   every GPU pool but DRA   nvidia.com/gpu
//   time-slicing or MPS with renameByDefault
//                            <what it advertises>.shared (NVIDIA's plugin
//                            renames every resource it shares)
//   MIG, mixed strategy      nvidia.com/mig-<p>, each profile of its layouts
//   HAMi                     nvidia.com/gpumem, nvidia.com/gpumem-percentage,
//                            nvidia.com/gpucores, nvidia.com/priority (HAMi
//                            charts/hami/values.yaml resourceMem,
//                            resourceMemPercentage, resourceCores,
//                            resourcePriority; resourceName is
//                            nvidia.com/gpu)
//   DRA with extended_resource (KEP-5004)
//                            nvidia.com/gpu and nvidia.com/mig-<p> of its
//                            layouts (dynamic MIG: every profile of the GPU)
// — and whether HAMi (a `scheme: hami` pool) or DRA (a `devices: dra` pool)
// runs in either. A patch sets the names its class asks and deletes the
// others (`null` in a strategic merge patch). Deterministic (names sorted).
// Also the well-known names the patches write: HAMi's webhook opt-out label
// and the schedulers.

#ifndef GPUSHARE_EMIT_POD_PATCH_REMOVALS_H_
#define GPUSHARE_EMIT_POD_PATCH_REMOVALS_H_

#include <set>
#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/emit/helm_release.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// HAMi's MutatingWebhookConfiguration skips a pod labelled so (its
// objectSelector: hami.io/webhook NotIn [ignore]; Project-HAMi/HAMi
// charts/hami/templates/scheduler/webhook.yaml, since the chart was named
// hami, v2.3).
inline constexpr const char* kHamiWebhookLabel = "hami.io/webhook";
inline constexpr const char* kHamiWebhookIgnore = "ignore";
// KAI-Scheduler's scheduler (HAMi's, kHamiSchedulerName, is in
// emit/helm_release.h).
inline constexpr const char* kKaiSchedulerName = "kai-scheduler";

struct ClusterGpuSchemes {
  std::set<std::string> resource_names;
  bool hami = false;  // a HAMi pool today or after the plan
  bool dra = false;   // a DRA pool today or after the plan
};

ClusterGpuSchemes ClusterGpuSchemesOf(const Scenario& scenario,
                                      const Scenario* today,
                                      const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_POD_PATCH_REMOVALS_H_
