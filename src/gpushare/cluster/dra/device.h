// Device: one device of a ResourceSlice (resource.k8s.io/v1 Device), with
// its attributes and capacities.
//
// Contract: a name unique in its slice; attributes and capacities keyed by
// qualified name, split into a domain and a name as the scheduler's CEL
// environment splits them (kubernetes/kubernetes staging/src/k8s.io/
// dynamic-resource-allocation/cel/compile.go, parseQualifiedName): a key
// without a '/' belongs to the driver's domain ("type" of gpu.nvidia.com is
// device.attributes["gpu.nvidia.com"].type), "resource.kubernetes.io/
// pciBusID" to resource.kubernetes.io. Lookups scan the few entries a device
// has and never allocate. Capacities are whole numbers of units (quantity.h).
// A device with `allow_multiple_allocations` (KEP-5075 consumable capacity,
// resource.k8s.io/v1 Device.allowMultipleAllocations) may be allocated to
// several requests at once while the capacity they consume sums to at most
// each capacity's value; each capacity may then carry a request policy
// (capacity_request_policy.h). The NVIDIA driver publishes both with
// --consumable-shares (nvidia_gpu_slice.h).

#ifndef GPUSHARE_CLUSTER_DRA_DEVICE_H_
#define GPUSHARE_CLUSTER_DRA_DEVICE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/dra/capacity_request_policy.h"
#include "gpushare/cluster/dra/device_attribute.h"

namespace gpushare {

struct NamedDeviceAttribute {
  std::string domain;  // "gpu.nvidia.com"
  std::string name;    // "productName"
  DeviceAttribute value;
};

struct DeviceCapacity {
  std::string domain;
  std::string name;  // "memory"
  int64_t value = 0;
  // Only on a device with allow_multiple_allocations.
  std::optional<CapacityRequestPolicy> request_policy;
};

// A counter of a CounterSet, or what a device consumes of one (KEP-4815
// partitionable devices; resource.k8s.io/v1 Counter): a name unique in its
// set ("memory", "multiprocessors", "memory-slice-3") and a whole number.
struct DeviceCounter {
  std::string name;
  int64_t value = 0;
};

// What a device takes of one CounterSet of its pool while it is allocated
// (resource.k8s.io/v1 DeviceCounterConsumption).
struct DeviceCounterConsumption {
  std::string counter_set;  // "gpu-0-counter-set"
  std::vector<DeviceCounter> counters;
};

struct Device {
  std::string name;  // "gpu-0", "gpu-0-mig-1g10gb-19-0"
  std::vector<NamedDeviceAttribute> attributes;
  std::vector<DeviceCapacity> capacities;
  bool allow_multiple_allocations = false;
  // KEP-4815: counters of the pool's CounterSets this device consumes while
  // allocated (empty: none; resource_slice.h holds the sets).
  std::vector<DeviceCounterConsumption> consumes_counters;

  // The attribute `domain`/`key`, or null.
  const DeviceAttribute* FindAttribute(std::string_view domain,
                                       std::string_view key) const;
  // The capacity `domain`/`key`, or null.
  const DeviceCapacity* FindCapacity(std::string_view domain,
                                     std::string_view key) const;
  // Adds or replaces an attribute or a capacity.
  void SetAttribute(std::string domain, std::string key, DeviceAttribute value);
  void SetCapacity(std::string domain, std::string key, int64_t value);
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DEVICE_H_
