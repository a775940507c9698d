// The API server's validation of the DRA objects and pod claim entries the
// kubectl import reads, so that what the API server would never have stored
// is not simulated (issue 51).
//
// Contract (rules of kubernetes/kubernetes pkg/apis/resource/validation/
// validation.go and pkg/apis/core/validation/validation.go, limits of
// kubernetes/api resource/v1 types.go; each an InputError at FILE:LINE:COL
// and the JSON path of the offending value):
//   - KubectlDraArrayLimits(): the API's list limits, for CheckJsonSyntax()
//     (json_syntax.h) to refuse an over-long list while scanning the text,
//     before it is parsed: 32 requests (DeviceRequestsMaxSize), 8
//     firstAvailable subrequests (FirstAvailableDeviceRequestMaxSize), 32
//     selectors (DeviceSelectorsMaxSize), 32 constraints
//     (DeviceConstraintsMaxSize) of at most 32 requests, 32 allocated
//     devices (AllocationResultsMaxSize).
//   - ValidateKubectlClaimSpec(): a ResourceClaimSpec (a claim's `spec`, a
//     template's `spec.spec`): the limits above; request and subrequest
//     names DNS labels (RFC 1123, at most 63), unique in the claim and in
//     their request; exactly one of `exactly` and `firstAvailable`; a
//     deviceClassName; allocationMode ExactCount (count >= 1) or All (no
//     count); each constraint a fully qualified matchAttribute (or
//     distinctAttribute) DOMAIN/NAME, its requests naming requests or
//     REQUEST/SUBREQUEST of the claim.
//   - ValidateKubectlAllocation(): status.allocation.devices.results: at
//     most 32; each names a request of the claim (or REQUEST/SUBREQUEST), a
//     driver, a pool and a device; one device (driver, pool, device and
//     shareID) at most once, as the allocator gives it and status.devices
//     keys it (a repeated device would multiply the pod's GPUs).
//   - ValidateKubectlPodClaims(): a Pod's spec.resourceClaims entries are
//     named (DNS labels) and unique; a container's resources.claims names
//     are unique and each an entry of spec.resourceClaims.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_CLAIM_VALIDATION_H_
#define GPUSHARE_WORKLOAD_KUBECTL_CLAIM_VALIDATION_H_

#include <span>

#include "gpushare/io/json_syntax.h"
#include "gpushare/io/json_value.h"

namespace gpushare {

std::span<const JsonArrayLimit> KubectlDraArrayLimits();

void ValidateKubectlClaimSpec(const JsonValue& spec);

// `allocation` is the claim's status.allocation (present), `spec` its spec.
void ValidateKubectlAllocation(const JsonValue& allocation,
                               const JsonValue& spec);

// `spec` is a Pod's spec.
void ValidateKubectlPodClaims(const JsonValue& spec);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_CLAIM_VALIDATION_H_
