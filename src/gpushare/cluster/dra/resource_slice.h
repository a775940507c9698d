// ResourceSlice: the devices one driver publishes for one pool
// (resource.k8s.io/v1 ResourceSlice).
//
// Contract: a plain value. `pool_name` names the pool (the NVIDIA driver's
// pool is its node's name), `node_name` the node whose devices these are;
// the pool has `resource_slice_count` slices of `pool_generation` (both 1
// for a node-local driver that publishes one slice, as the NVIDIA driver
// does without DynamicMIG). Device names are unique in the slice; `devices`
// is in the order the scheduler's allocator walks them. `shared_counters`
// (KEP-4815 partitionable devices, resource.k8s.io/v1
// ResourceSliceSpec.sharedCounters) are the pool's CounterSets, names unique
// in the pool, from which devices' consumes_counters draw (device.h).

#ifndef GPUSHARE_CLUSTER_DRA_RESOURCE_SLICE_H_
#define GPUSHARE_CLUSTER_DRA_RESOURCE_SLICE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/dra/device.h"

namespace gpushare {

// A named set of counters (resource.k8s.io/v1 CounterSet).
struct CounterSet {
  std::string name;
  std::vector<DeviceCounter> counters;
};

struct ResourceSlice {
  std::string name;       // metadata.name
  std::string driver;     // spec.driver: "gpu.nvidia.com"
  std::string node_name;  // spec.nodeName
  std::string pool_name;  // spec.pool.name
  int64_t pool_generation = 1;
  int64_t resource_slice_count = 1;
  std::vector<Device> devices;
  std::vector<CounterSet> shared_counters;

  // The device named `name`, or null.
  const Device* FindDevice(std::string_view device_name) const;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_RESOURCE_SLICE_H_
