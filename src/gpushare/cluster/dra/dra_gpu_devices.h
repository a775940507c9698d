// DraGpuDevices: the GPUs of one node of a DRA pool, handed out through the
// kube-scheduler's DynamicResources plugin instead of a device plugin.
//
// Contract. The node publishes the NVIDIA driver's ResourceSlice
// (nvidia_gpu_slice.h: whole GPUs, or the MIG devices of a static layout) and
// no nvidia.com/gpu or nvidia.com/mig-* extended resource. The DeviceClasses
// are the driver chart's gpu.nvidia.com and, per MIG profile the node offers,
// the per-profile class (device_class.h). A pod of a DRA pool carries one
// ResourceClaim from a template per pod with one `exactly` request per class
// it needs; in the simulator's resource accounting that claim is written as
// the class's implicit extended resource name of KEP-5004,
// `deviceclass.resource.kubernetes.io/<class>` = count (DraClassResourceName),
// which the pod requests and the node counts (Capacity: the devices of each
// class; Allocatable: the healthy ones). These names are bookkeeping only:
// the node does not advertise them as a device plugin would, and the scheduler
// never lets NodeResourcesFit decide them alone — Fits() is the
// DynamicResources Filter for the pod's claim (DraClaimFor) on the node's
// slice with the devices other pods hold (and the unhealthy ones) as
// allocated; no solution is upstream's "cannot allocate all claims". It
// decides by count (below), which gives the allocator's answer without
// running it per node. Allocate() is Reserve: it runs DraAllocator, and
// its first full solution (a failure there is a checked invariant),
// turned into grants of a GPU (instance -1) or a MIG instance (its index in
// the GPU's layout), exactly as NvidiaDevicePlugin grants them under the
// exclusive and MIG schemes, so the share models run such pods unchanged.
// Release()/Reacquire() free and retake those devices. With one `exactly`
// request per class on devices that are all alike, the first-fit search
// succeeds iff each class has as many free devices as requested, so count
// arithmetic on the bookkeeping names (the scheduler's pruning, preemption
// dry runs, wake hints) agrees with the allocator. Single-threaded.
#ifndef GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_
#define GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/resource_claim.h"
#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {

// KEP-5004's implicit extended resource name of a DeviceClass
// (kDraClassResourcePrefix + the class name).
std::string DraClassResourceName(const std::string& device_class);

class DraGpuDevices : public DevicePlugin {
 public:
  // `layouts`: empty (whole GPUs) or one valid static layout per GPU.
  // Interns the class resource names in `registry`.
  DraGpuDevices(std::string node_name, const GpuModel& model, int gpus,
                std::vector<MigLayout> layouts, ResourceRegistry& registry);

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return allocatable_; }
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;

  const ResourceSlice& slice() const { return slice_; }
  const std::vector<DeviceClass>& classes() const { return classes_; }
  // The claim of a pod with `requests` ("<pod>-gpu" from the template); false
  // when it asks for a resource that names no class of this node.
  bool DraClaimFor(const ResourceList& requests, ResourceClaim* claim) const;
  // The devices held, as slice device names in slice order (tests).
  std::vector<std::string> HeldDevices() const;

 private:
  // One device of the slice, in slice order.
  struct Slot {
    int gpu = 0;
    int instance = -1;  // index in the GPU's layout; -1: the whole GPU
    int class_index = 0;
    ResourceId resource = -1;
    int64_t memory_mib = 0;
    bool held = false;
    bool healthy = true;
  };
  AllocatedDevices InUse() const;
  int SlotOf(int gpu, int instance) const;
  int ClassOfResource(ResourceId id) const;
  void Recount();

  std::string node_name_;
  const GpuModel& model_;
  int gpus_;
  std::vector<MigLayout> layouts_;
  ResourceSlice slice_;
  std::vector<DeviceClass> classes_;
  std::vector<ResourceId> class_resources_;  // per class
  std::vector<Slot> slots_;
  ResourceList capacity_;
  ResourceList allocatable_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_
