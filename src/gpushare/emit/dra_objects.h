// The resource.k8s.io/v1 objects the scenario's DRA pools need beyond what
// NVIDIA's DRA driver chart installs, written by `emit k8s` as
// `dra-objects.yaml` (docs/emit.md, "DRA pools").
//
// Contract: the scenario's pods are generated, routed and translated as the
// simulation does it (as emit/pod_template_patches.h does); each pod that
// lands on a `devices: dra` pool has a claim (emit/dra_claim.h). The file
// holds, as YAML documents: first a DeviceClass per MIG profile class the
// claims name (NvidiaMigProfileDeviceClass: name, the CEL selector,
// extendedResourceName; the chart installs only gpu.nvidia.com and
// mig.nvidia.com), by name; then one ResourceClaimTemplate per distinct
// (namespace, tenant class, claim) — a pod's namespace is its tenant —
// by namespace, then template name, unless the pool serves the claim
// through the class's extended resource (KEP-5004: no template). Empty
// (header only) when no pod lands on a DRA pool. Deterministic.

#ifndef GPUSHARE_EMIT_DRA_OBJECTS_H_
#define GPUSHARE_EMIT_DRA_OBJECTS_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string DraObjectsYaml(const Scenario& scenario, const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_OBJECTS_H_
