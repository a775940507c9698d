// The resource.k8s.io/v1 objects the scenario's DRA pools need beyond what
// NVIDIA's DRA driver chart installs, written by `emit k8s` as
// `dra-objects.yaml` (docs/emit.md, "DRA pools").
//
// Contract: the scenario's pods are generated, routed and translated as the
// simulation does it (as emit/pod_template_patches.h does): each pod runs
// on the pool emit/run_pool.h gives — its node's pool when it is bound to a
// node of the cluster (a Running pod of a kubectl import), else
// TargetPool() — and each pod on a `devices: dra` pool has a claim
// (emit/dra_claim.h) of that pool. The file holds, under a header that says
// the Kubernetes version and feature gates its objects need
// (emit/dra_feature_gates.h DraKubernetesNeeds), as YAML documents: first a
// DeviceClass per MIG profile class the claims name
// (NvidiaMigProfileDeviceClass: name, the CEL selector,
// extendedResourceName; the chart installs only gpu.nvidia.com and
// mig.nvidia.com), by name; then one ResourceClaimTemplate per distinct
// (namespace, tenant class, claim) — a pod's namespace is its tenant —
// by namespace, then template name, unless the pool serves the claim
// through the class's extended resource (KEP-5004: no template). Empty
// (header only) when no pod lands on a DRA pool. Refuses (InputError) what
// DraDriverValuesYaml refuses for the driver release and the Kubernetes
// version (CheckDraDriverFeatures, CheckDraKubernetes). Deterministic.
//
// DraDeviceClassChanges() lists the DeviceClasses of the file that the
// cluster has today (PlatformSpec::device_classes_today, from a kubectl
// import) with another spec — other CEL selectors, another
// extendedResourceName, or config the file's class lacks — each as one
// sentence saying what `kubectl apply` replaces; the file's header and the
// README say them (applying is not refused: claims allocated under the old
// spec keep their devices; new claims are matched by the new one).

#ifndef GPUSHARE_EMIT_DRA_OBJECTS_H_
#define GPUSHARE_EMIT_DRA_OBJECTS_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string DraObjectsYaml(const Scenario& scenario, const Catalog& catalog);

std::vector<std::string> DraDeviceClassChanges(const Scenario& scenario,
                                               const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_OBJECTS_H_
