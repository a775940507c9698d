// DraDynamicMigDevices: the GPUs of one node of a DRA pool with dynamic MIG
// (`sharing: mig`, `dra: {dynamic_mig: true}`): NVIDIA's DRA driver with
// the DynamicMIG gate publishes partitionable devices (KEP-4815) and makes
// a MIG instance when a claim is allocated (docs/model.md §11.2).
//
// Contract. The node's devices are NvidiaPartitionableResourceSlice()'s:
// per GPU the whole GPU (Hopper and newer) and every placement of every
// catalog profile, consuming the GPU's counters (DynamicMigGpus). The
// DeviceClasses are the chart's gpu.nvidia.com and one per catalog profile
// (mig-1g.10gb.gpu.nvidia.com); a pod asks one class, count k, under the
// class's KEP-5004 implicit name (DraClassResourceName), as on a static MIG
// DRA pool. Fits() is the DynamicResources Filter: DynamicMigGpus::
// FirstFitCount(profile, k) is non-empty (the allocator's first fit over
// the slice; proof in dynamic_mig_gpus.h); a claim of several classes is
// not decided (false: a pod of a scenario asks one). Allocate() is Reserve:
// those placements, held. Bookkeeping counts, a NECESSARY condition of a
// fit (the scheduler prunes nodes by them): per profile class gpus x the
// profile's placements per GPU (no GPU holds more live instances of a
// profile than it has placements), gpu.nvidia.com gpus on GPUs that publish
// the whole GPU (0 on Ampere); a pod's count of its class is at most the
// class's free placements, and the counts do not depend on the other
// classes, so a fit the Filter accepts is never pruned.
// Grants: the whole GPU has instance -1; the placement at index j of the
// GPU's DynamicMigGpuDomains() has instance j (>= 1), memory_mib the
// profile's memory — the execution domains of the GPU are those places
// (sim/simulation_faults.cc BuildDomains), so the MIG share model runs
// a granted instance as a static one.
// Health: GPU faults are not modelled on dynamic MIG pools (refused at
// load); SetHealthy() aborts. Single-threaded.

#ifndef GPUSHARE_CLUSTER_DRA_DRA_DYNAMIC_MIG_DEVICES_H_
#define GPUSHARE_CLUSTER_DRA_DRA_DYNAMIC_MIG_DEVICES_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/dra/dynamic_mig_gpus.h"

namespace gpushare {

// The execution domains of one GPU of a dynamic-MIG pool, by the `instance`
// of a grant (-1 counts as 0): [0] the whole GPU (profile -1; it also
// stands for the unpartitioned rest of the GPU in utilisation), then every
// MIG placement of the GPU in slice order (profile and start).
std::vector<NvidiaPartition> DynamicMigGpuDomains(const GpuModel& model);

class DraDynamicMigDevices : public DevicePlugin {
 public:
  // `model` must be MIG-capable and outlive this object; interns the class
  // resource names in `registry`.
  DraDynamicMigDevices(const GpuModel& model, int gpus,
                       ResourceRegistry& registry);

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return capacity_; }
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;
  const DraDynamicMigDevices* AsDynamicMig() const override { return this; }

  const DynamicMigGpus& partitions() const { return parts_; }
  // The catalog profile a pod with `requests` asks (-1: the whole GPU, -2:
  // none of this node's classes, or several).
  int ProfileOf(const ResourceList& requests, int64_t* count) const;
  // Whether `profile` is stranded on some GPU (DynamicMigGpus::Stranded).
  bool StrandedAnywhere(int profile) const;

 private:
  // The partition of a grant, and a grant's instance of a partition.
  int PartitionOf(const DeviceGrant& grant) const;
  int InstanceOf(int partition) const;

  const GpuModel& model_;
  DynamicMigGpus parts_;
  int per_gpu_ = 0;       // partitions per GPU
  int first_mig_ = 0;     // 1 when the slice has the whole GPU, else 0
  std::vector<ResourceId> class_resources_;  // [0] whole GPU, [1 + p]
  ResourceList capacity_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DRA_DYNAMIC_MIG_DEVICES_H_
