// DevicePlugin: what one node's GPU device plugin advertises and allocates.
//
// Contract: created once per node from its GPU model, GPU count and sharing
// configuration. Capacity() is the extended resources the plugin registers
// with kubelet; Allocatable() is Capacity() less the devices its ListAndWatch
// reports Unhealthy (SetHealthy: after an Xid fault, until recovery), as
// kubelet's node allocatable follows the healthy device count. Unhealthy
// devices never fit and are never allocated; pods already holding them keep
// their grants until released. Fits() is the device-level Filter: it answers
// whether the pod's requests can be served by specific free devices now, with
// a kube-style reason when not. Allocate() is Reserve: it picks the exact
// devices (GPU index, MIG instance, replica, vGPU share) and must only be
// called after Fits() returned true. Release() returns them; Reacquire()
// takes back exactly the devices of an allocation Release() returned (the
// scheduler's preemption dry run: a victim put back). Single-threaded.

#ifndef GPUSHARE_CLUSTER_DEVICE_PLUGIN_H_
#define GPUSHARE_CLUSTER_DEVICE_PLUGIN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {

class DraDynamicMigDevices;
class HamiDevicePlugin;
class NvidiaDevicePlugin;
class OpenGpuShareDevicePlugin;

// One device handed to a pod.
struct DeviceGrant {
  int gpu = -1;            // GPU index on the node
  int instance = -1;       // MIG instance index in the GPU's layout; -1: whole GPU
  int replica = -1;        // time-slicing/MPS replica; -1: not replicated
  ResourceId resource = -1;  // the extended resource it was granted for
  int64_t memory_mib = 0;  // memory the pod may use there (limit or size)
  int cores_percent = 100; // HAMi gpucores / MPS active-thread % / 100
  int64_t gpu_milli = 0;   // Open-Gpu-Share: thousandths of the GPU taken
  // DRA consumable shares, memory mode: the MiB this pick took of the
  // device's `memory` capacity (cluster/dra/dra_gpu_devices.h); 0 otherwise.
  int64_t claim_memory_mib = 0;
  bool operator==(const DeviceGrant&) const = default;
};

struct DeviceAllocation {
  std::vector<DeviceGrant> grants;
};

// A pod's requests prepared once per scheduling cycle for device-level fit
// (as kube-scheduler keeps per-pod state in CycleState): the list, and HAMi's
// four resources read out of it.
struct DeviceRequest {
  const ResourceList* requests = nullptr;
  int64_t gpu = 0;                // nvidia.com/gpu
  int64_t gpumem = 0;             // nvidia.com/gpumem
  int64_t gpumem_percentage = 0;  // nvidia.com/gpumem-percentage
  int64_t gpucores = 0;           // nvidia.com/gpucores
  bool other = false;             // any other extended resource

  static DeviceRequest Of(const ResourceList& requests,
                          const ResourceRegistry& registry);
};

class DevicePlugin {
 public:
  virtual ~DevicePlugin() = default;

  virtual const ResourceList& Capacity() const = 0;
  // Capacity() less the unhealthy devices.
  virtual const ResourceList& Allocatable() const = 0;
  // Marks the devices of GPU `gpu` — only MIG instance `instance` of it when
  // `instance` >= 0, else every device of the GPU (the whole GPU, all its
  // replicas, all its MIG instances) — unhealthy, or healthy again.
  virtual void SetHealthy(int gpu, int instance, bool healthy) = 0;
  // Adds the labels gpu-feature-discovery (or HAMi's chart) sets on the node.
  virtual void AddNodeLabels(Labels* labels) const = 0;
  // Device-level fit of the pod's requests (cpu and memory are ignored).
  virtual bool Fits(const ResourceList& requests,
                    std::string_view* reason) const = 0;
  // Fits() for a prepared request; plugins may override it to skip parsing.
  virtual bool FitsRequest(const DeviceRequest& request,
                           std::string_view* reason) const {
    return Fits(*request.requests, reason);
  }
  // kubelet's admission after Bind: "" or the UnexpectedAdmissionError text.
  virtual std::string AdmissionError(const ResourceList& requests) const;
  virtual DeviceAllocation Allocate(const ResourceList& requests) = 0;
  // Allocate() for a pod the cluster recorded on `devices` (their names as
  // the node publishes them; an imported pod already running): the grants on
  // those devices when each still has room for its pick, else Allocate().
  // The default has no device names and is Allocate().
  virtual DeviceAllocation AllocateRecorded(
      const ResourceList& requests, const std::vector<std::string>& devices);
  virtual void Release(const DeviceAllocation& allocation) = 0;
  // Undoes Release(allocation): the same devices are held again.
  virtual void Reacquire(const DeviceAllocation& allocation) = 0;
  // Aborts (GS_CHECK) when the device bookkeeping is inconsistent: nothing
  // over-allocated, replicas <= R, HAMi slots <= split count, MIG legal.
  virtual void CheckInvariants() const = 0;

  // Downcasts without RTTI in hot paths; null when not that kind.
  virtual const HamiDevicePlugin* AsHami() const { return nullptr; }
  virtual const NvidiaDevicePlugin* AsNvidia() const { return nullptr; }
  virtual const OpenGpuShareDevicePlugin* AsOpenGpuShare() const {
    return nullptr;
  }
  virtual const DraDynamicMigDevices* AsDynamicMig() const { return nullptr; }
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DEVICE_PLUGIN_H_
