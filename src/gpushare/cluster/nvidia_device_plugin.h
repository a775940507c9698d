// NvidiaDevicePlugin: NVIDIA's k8s-device-plugin (with gpu-feature-discovery)
// on one node: whole GPUs, time-slicing or MPS replicas, MIG instances under
// the single or mixed strategy, and time-slicing of MIG instances.
//
// Contract (NVIDIA/k8s-device-plugin README, MIG strategies and "Shared Access
// to GPUs"; docs/gpu-feature-discovery/README.md; internal/rm/allocate.go): a
// *device* is a whole GPU, or a MIG instance when MIG is on. Each device
// advertises one resource: nvidia.com/gpu (whole GPUs; MIG instances under
// `single`), or nvidia.com/mig-<profile> under `mixed` ('+' → '.'); with
// renameByDefault a shared resource gets the `.shared` suffix. With
// time-slicing or MPS each device counts `replicas` times. Allocation:
// unreplicated devices go lowest (GPU, start) first; replicas follow
// sharedDevicesAllocationPolicy — `distributed` takes the device with the
// fewest allocated replicas, `packed` the most (ties: fewest already picked for
// this request, then the lowest index). MPS grants carry memory = GPU memory /
// replicas and active threads = 100 / replicas %. failRequestsGreaterThanOne
// turns a request for more than one shared replica into kubelet's
// UnexpectedAdmissionError. Health (the plugin's NVML Xid watch): an unhealthy
// device takes all its replicas out of Allocatable(); a fault contained to a
// MIG instance (SetHealthy with its instance) marks only that instance's
// device.

#ifndef GPUSHARE_CLUSTER_NVIDIA_DEVICE_PLUGIN_H_
#define GPUSHARE_CLUSTER_NVIDIA_DEVICE_PLUGIN_H_

#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

class NvidiaDevicePlugin : public DevicePlugin {
 public:
  // `layouts` (one per GPU) must come from config.Validate(); empty when MIG
  // is off. Interns the advertised resource names in `registry`.
  NvidiaDevicePlugin(const GpuModel& model, int gpus, SharingConfig config,
                     std::vector<MigLayout> layouts,
                     ResourceRegistry& registry);

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return allocatable_; }
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  std::string AdmissionError(const ResourceList& requests) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;
  const NvidiaDevicePlugin* AsNvidia() const override { return this; }

  // One schedulable device.
  struct Device {
    int gpu = 0;
    int instance = -1;          // index in layouts()[gpu]; -1: whole GPU
    ResourceId resource = -1;
    int replicas = 1;
    int used = 0;               // allocated replicas
    std::vector<bool> replica_used;
    int64_t memory_mib = 0;     // of the GPU or instance
    int sms = 0;
    bool healthy = true;
  };
  const std::vector<Device>& devices() const { return devices_; }
  // Fits() is exactly: for each extended resource requested (none ignored
  // by the scheduler), FreeDevices(resource) >= the quantity. FreeDevices:
  // the free replicas of the resource's healthy devices (-1: not served);
  // HealthyGrants: the grants of `allocation` for `resource` on healthy
  // devices, i.e. what Release(allocation) adds to FreeDevices(resource).
  int64_t FreeDevices(ResourceId resource) const;
  // Whether every device is healthy: then an allocation's grants for a
  // resource are as many as its request of it (Allocate grants one device
  // per unit), and HealthyGrants() is that request.
  bool AllHealthy() const { return unhealthy_devices_ == 0; }
  int64_t HealthyGrants(const DeviceAllocation& allocation,
                        ResourceId resource) const;
  const std::vector<MigLayout>& layouts() const { return layouts_; }
  const GpuModel& model() const { return model_; }

 private:
  int PickDevice(const std::vector<int>& candidates,
                 const std::vector<int>& picked) const;

  const GpuModel& model_;
  int gpus_;
  SharingConfig config_;
  std::vector<MigLayout> layouts_;
  std::vector<Device> devices_;
  int unhealthy_devices_ = 0;
  // The devices advertising one resource, and the free replicas of the
  // healthy ones.
  struct ResourceDevices {
    ResourceId resource;
    std::vector<int> devices;
    int64_t free = 0;
  };
  ResourceDevices* EntryOf(ResourceId resource);
  const ResourceDevices* EntryOf(ResourceId resource) const;
  std::vector<ResourceDevices> by_resource_;
  ResourceList capacity_;
  ResourceList allocatable_;
  const ResourceRegistry& registry_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_NVIDIA_DEVICE_PLUGIN_H_
