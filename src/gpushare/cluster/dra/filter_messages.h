// The words of the kube-scheduler's DynamicResources plugin and its
// structured allocator when a pod's claims do not fit a node.
//
// Contract: strings as upstream formats them (kubernetes/kubernetes
// pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go,
// PreFilter and Filter; staging/src/k8s.io/dynamic-resource-allocation/
// structured/internal/stable/allocator_stable.go, Allocate, selectorsMatch,
// allocateDevice). Upstream names a claim by namespace/name (klog.KObj);
// gpushare-sim's claims have no namespace, so only the name is written. A
// device is named driver/pool/device, as DeviceID prints.
//   - Unschedulable on this node (other nodes may fit; the scheduler's
//     FitError counts them "N cannot allocate all claims"):
//     kDraCannotAllocateAllClaims when the search found no solution;
//     kDraFilterTimedOut when Filter's DRASchedulerFilterTimeout (10 s)
//     ran out, here a step cap (allocator.h);
//     kDraClaimNotAvailableOnNode for an allocated claim whose node
//     selector excludes the node.
//   - Unschedulable in PreFilter (no node is tried): kDraClaimInUse, and
//     a missing DeviceClass (DraDeviceClassMissing).
//   - Errors (Filter returns Error, which ends the pod's scheduling
//     attempt on every node; the pod is retried with back-off): a CEL
//     runtime error in a class's or a request's selector, a request for more
//     than 32 devices in one claim, and an All request whose devices break a
//     claim constraint.

#ifndef GPUSHARE_CLUSTER_DRA_FILTER_MESSAGES_H_
#define GPUSHARE_CLUSTER_DRA_FILTER_MESSAGES_H_

#include <cstddef>
#include <string>

namespace gpushare {

inline constexpr const char* kDraCannotAllocateAllClaims =
    "cannot allocate all claims";
inline constexpr const char* kDraFilterTimedOut =
    "timed out trying to allocate devices";
inline constexpr const char* kDraClaimNotAvailableOnNode =
    "resourceclaim not available on the node";
inline constexpr const char* kDraClaimInUse = "resourceclaim in use";

// "request gpu: device class gpu.example.com does not exist".
std::string DraDeviceClassMissing(const std::string& request,
                                  const std::string& device_class);

// "claim c: number of requested devices 33 exceeds the claim limit of 32".
std::string DraTooManyDevices(const std::string& claim, size_t devices,
                              size_t limit);

// "class gpu.nvidia.com: selector #0 on device gpu.nvidia.com/node-a/gpu-0:
// CEL runtime error: no such key: profile".
std::string DraClassSelectorError(const std::string& device_class,
                                  size_t selector, const std::string& device,
                                  const std::string& cel_error);

// "claim c: selector #1 on device ...: CEL runtime error: ...".
std::string DraClaimSelectorError(const std::string& claim, size_t selector,
                                  const std::string& device,
                                  const std::string& cel_error);

// "claim c, request gpu: cannot add device ... because a claim constraint
// would not be satisfied" (an All request).
std::string DraAllConstraintError(const std::string& claim,
                                  const std::string& request,
                                  const std::string& device);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_FILTER_MESSAGES_H_
