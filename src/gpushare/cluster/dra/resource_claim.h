// ResourceClaim: what a pod asks of DRA devices (resource.k8s.io/v1
// ResourceClaimSpec), a ResourceClaimTemplate that yields one claim per pod,
// and the AllocationResult the allocator fills in.
//
// Contract. A spec has 1..kMaxDeviceRequests requests and at most
// kMaxDeviceConstraints constraints (kubernetes/api resource/v1 types.go:
// DeviceRequestsMaxSize, DeviceConstraintsMaxSize). A request has a name
// (a DNS label, unique in the claim) and exactly one of
//   - `exactly`: a DeviceClass name, CEL selectors (compiled, cel_selector.h)
//     that a device must all pass besides the class's own, an allocation
//     mode ExactCount (`count` >= 1, default 1) or All (every matching device
//     of the node, at least one), and for consumable capacity the amount of
//     each named capacity it asks (capacity.requests; capacity_request_
//     policy.h rounds it);
//   - `firstAvailable`: 1..kMaxFirstAvailable subrequests (the API's
//     FirstAvailableDeviceRequestMaxSize), each named (a DNS label unique in
//     the request) and shaped like `exactly`, tried in order (KEP-4816).
// adminAccess is not modelled: a request that sets it is refused. A
// constraint names requests ("gpu", or "gpu/big" for one subrequest; none
// means all) and a fully qualified attribute ("gpu.nvidia.com/productName")
// whose value all their devices must share (matchAttribute).
// ValidateResourceClaimSpec throws InputError naming the claim, request and
// what was expected. ResourceClaimTemplate::ClaimFor names a pod's claim
// "<pod>-<pod claim name>" (the controller adds a random suffix; omitted
// for determinism).

#ifndef GPUSHARE_CLUSTER_DRA_RESOURCE_CLAIM_H_
#define GPUSHARE_CLUSTER_DRA_RESOURCE_CLAIM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/dra/cel_selector.h"
#include "gpushare/cluster/dra/device_class.h"

namespace gpushare {

inline constexpr size_t kMaxDeviceRequests = 32;
inline constexpr size_t kMaxDeviceConstraints = 32;
inline constexpr size_t kMaxFirstAvailable = 8;
// Devices one claim's allocation may hold (AllocationResultsMaxSize).
inline constexpr size_t kMaxAllocationResults = 32;

enum class DeviceAllocationMode { kExactCount, kAll };

// "ExactCount" or "All".
const char* DeviceAllocationModeName(DeviceAllocationMode mode);

// One named capacity a request asks for: "memory" (the device driver's
// domain) or "example.com/memory" split into domain and name.
struct CapacityRequest {
  std::string domain;  // "" means the driver of the device
  std::string name;
  int64_t value = 0;
};

// The device-selecting part shared by `exactly` and a subrequest.
struct DeviceSelection {
  std::string device_class_name;
  std::vector<CelSelector> selectors;
  DeviceAllocationMode allocation_mode = DeviceAllocationMode::kExactCount;
  int64_t count = 1;
  std::vector<CapacityRequest> capacity_requests;
};

struct DeviceSubRequest {
  std::string name;
  DeviceSelection selection;
};

struct DraDeviceRequest {
  std::string name;
  bool has_exactly = false;
  DeviceSelection exactly;                        // when has_exactly
  std::vector<DeviceSubRequest> first_available;  // otherwise
  bool admin_access = false;                      // refused by validation
};

struct DeviceConstraint {
  std::vector<std::string> requests;  // empty: every request of the claim
  std::string match_attribute;        // "gpu.nvidia.com/productName"
};

struct ResourceClaimSpec {
  std::vector<DraDeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
};

struct ResourceClaim {
  std::string name;
  ResourceClaimSpec spec;
};

struct ResourceClaimTemplate {
  std::string name;
  ResourceClaimSpec spec;

  // The claim the template yields for pod `pod_name`'s claim entry
  // `pod_claim_name`.
  ResourceClaim ClaimFor(const std::string& pod_name,
                         const std::string& pod_claim_name) const;
};

// Throws InputError (message "claim NAME: ...", no location) unless `spec`
// is valid and every class it names is in `classes`.
void ValidateResourceClaimSpec(const std::string& claim_name,
                               const ResourceClaimSpec& spec,
                               const std::vector<DeviceClass>& classes);

// Whether `name` is a DNS label (RFC 1123: 1..63 of [a-z0-9-], starting and
// ending with a letter or digit), as request and subrequest names must be.
bool IsDraDnsLabel(const std::string& name);

// One device allocated for a request: its id, the request ("gpu", or
// "gpu/big" for a subrequest, as DeviceRequestAllocationResult.request
// writes it) and, on a device that allows multiple allocations, what it
// consumes of each capacity (consumedCapacity).
struct DeviceRequestAllocationResult {
  std::string request;
  std::string driver;
  std::string pool;
  std::string device;
  std::vector<DeviceCapacity> consumed_capacity;
};

// A claim's allocation: devices in the order they were chosen, and per
// request of the spec the index of the chosen subrequest (-1 for
// `exactly`), which Score reads.
struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> devices;
  std::vector<int> selected_subrequest;
  std::string node_name;  // status.allocation.nodeSelector: this node
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_RESOURCE_CLAIM_H_
