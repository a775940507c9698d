// Emit's refusal of DRA pools (issue 39): what `emit k8s`, `emit
// device-plugin`, `emit pod-patches` and `plan --out` write is the device
// plugins' configuration — NVIDIA's device-plugin ConfigMap, the GPU
// Operator's values deploying it, node labels selecting it, pod requests
// for its extended resources. On the nodes of a `devices: dra` pool, whose
// GPUs NVIDIA's DRA driver hands out, that would be wrong, and the DRA
// objects themselves (DeviceClasses, ResourceClaimTemplates, the driver's
// Helm values) are not written yet.
//
// Contract: RefuseDraPools throws InputError naming the first pool with
// `devices: dra`, `what` was asked and what to do instead; it returns when
// no pool has it.

#ifndef GPUSHARE_EMIT_DRA_POOLS_GUARD_H_
#define GPUSHARE_EMIT_DRA_POOLS_GUARD_H_

#include <string_view>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

void RefuseDraPools(const Scenario& scenario, std::string_view what);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_POOLS_GUARD_H_
