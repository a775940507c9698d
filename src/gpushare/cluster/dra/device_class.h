// DeviceClass: a named set of CEL selectors a device must all satisfy
// (resource.k8s.io/v1 DeviceClass), and the NVIDIA driver's classes.
//
// Contract: a device belongs to a class iff every selector evaluates to
// true, tried in order; the first false one ends it (no match), the first
// runtime error ends it with the error, worded as the scheduler's allocator
// words it: "class NAME: selector #I: CEL runtime error: ..." (kubernetes/
// kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/
// internal/stable/allocator_stable.go selectorsMatch). A class may carry an
// extendedResourceName (KEP-5004): pods asking that extended resource are
// served from the class's devices. Opaque driver config is not modelled.
//
// The NVIDIA classes are those of the driver's Helm chart
// (kubernetes-sigs/dra-driver-nvidia-gpu, commit 95932046,
// deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-gpu.yaml
// and deviceclass-mig.yaml; on resource.k8s.io/v1 gpu.nvidia.com maps
// nvidia.com/gpu), and per MIG profile the class of the driver's demo
// demo/specs/extended-resources/mig-1g-12gb.yaml.

#ifndef GPUSHARE_CLUSTER_DRA_DEVICE_CLASS_H_
#define GPUSHARE_CLUSTER_DRA_DEVICE_CLASS_H_

#include <string>
#include <vector>

#include "gpushare/cluster/dra/cel_selector.h"
#include "gpushare/cluster/dra/device.h"

namespace gpushare {

struct DeviceClass {
  std::string name;
  std::vector<CelSelector> selectors;
  std::string extended_resource_name;  // "" when none

  // Whether `device` of a slice of `driver` belongs to the class; on a
  // runtime error, false with `*error` (if set) as the allocator words it.
  bool Matches(const Device& device, const std::string& driver,
               std::string* error) const;
};

// The expressions of the chart's classes.
inline constexpr const char* kNvidiaGpuClassSelector =
    "device.driver == 'gpu.nvidia.com' && "
    "device.attributes['gpu.nvidia.com'].type == 'gpu'";
inline constexpr const char* kNvidiaMigClassSelector =
    "device.driver == 'gpu.nvidia.com' && "
    "device.attributes['gpu.nvidia.com'].type == 'mig'";

// gpu.nvidia.com: whole GPUs; extendedResourceName nvidia.com/gpu.
DeviceClass NvidiaGpuDeviceClass();
// mig.nvidia.com: every MIG device.
DeviceClass NvidiaMigDeviceClass();

// The class name of MIG profile `profile`: "mig-1g-12gb.gpu.nvidia.com"
// for 1g.12gb ('.' and '+' become '-').
std::string NvidiaMigProfileClassName(const std::string& profile);
// Its selector: the mig class's and profile == '<profile>'.
std::string NvidiaMigProfileSelector(const std::string& profile);
// The class itself, with extendedResourceName the device plugin's resource
// name of the profile ("nvidia.com/mig-1g.12gb"; +me becomes .me, as
// MigProfile::ResourceName() writes it).
DeviceClass NvidiaMigProfileDeviceClass(const std::string& profile);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DEVICE_CLASS_H_
