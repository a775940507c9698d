// The devices of other drivers' ResourceSlices in a kubectl List, for the
// claims import (kubectl_resource_claims.h) to tell a request for another
// driver's devices (not modelled, left out) from one that no device of the
// cluster can satisfy (its pod is unschedulable).
//
// Contract: ReadOtherDriverDevices() reads every ResourceSlice whose
// spec.driver is not gpu.nvidia.com into a ResourceSlice of its driver and
// devices, each with its attributes (int, bool, string and version values;
// a key without a domain is in the driver's, as the scheduler's CEL
// environment reads it) and capacities (quantities), which is all a CEL
// selector can read. A version the simulator's semver cannot hold (a
// pre-release or build part) is left out of its device. A malformed slice,
// device, attribute or quantity is an InputError at FILE:LINE:COL with the
// JSON path.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_OTHER_DEVICES_H_
#define GPUSHARE_WORKLOAD_KUBECTL_OTHER_DEVICES_H_

#include <vector>

#include "gpushare/cluster/dra/resource_slice.h"
#include "gpushare/io/json_value.h"

namespace gpushare {

std::vector<ResourceSlice> ReadOtherDriverDevices(
    const std::vector<JsonValue>& slices);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_OTHER_DEVICES_H_
