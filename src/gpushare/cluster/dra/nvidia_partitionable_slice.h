// The ResourceSlice NVIDIA's DRA driver publishes with the DynamicMIG gate
// on: partitionable devices (KEP-4815) whose MIG instances are made when a
// claim is prepared.
//
// Contract: NvidiaPartitionableResourceSlice() builds, for a node of a
// MIG-capable model (node.mig_layouts must be empty: there is no static
// layout), what the gpu-kubelet-plugin publishes (kubernetes-sigs/
// dra-driver-nvidia-gpu, commit 95932046, cmd/gpu-kubelet-plugin/
// partitions.go, nvlib.go inspectMigProfilesAndPlacements, driver.go
// generateCombinedResourceSlices):
//   - per GPU one CounterSet "gpu-<i>-counter-set" (GetSharedCounterSetName:
//     the GPU's canonical name + "-counter-set") holding one counter per
//     capacity dimension, named by camelToDNSName of the capacity
//     ("multiprocessors", "memory"), valued at the largest value any MIG
//     profile has (maxCapacities: the full-GPU profile's SMs and memory), and
//     "memory-slice-<s>" = 1 for each memory slice s (addCountersForMemSlices);
//   - the full GPU "gpu-<i>" with capacities = those maxima, consuming ALL
//     counters of its set (PartConsumesCounters), so that it is allocatable
//     only while no instance lives on the GPU and blocks every instance while
//     it is allocated — only on GPUs that toggle MIG mode without a GPU
//     reset, Hopper and newer (nvlib.go supportsMIGModeToggle: architecture
//     >= Hopper). On Ampere (A100, A30) the driver offers dynamic MIG only
//     when an administrator has enabled MIG mode beforehand (a reset), and
//     then never publishes the full GPU nor disables MIG mode
//     (isDynamicMIGCapable, and the "parentdev is intentionally NOT added"
//     branch of enumerateGpusAndMigDevices); the simulator takes MIG mode as
//     enabled on such GPUs;
//   - every placement of every catalog profile (each allowed start; profiles
//     whose memory slices outnumber their compute slices included, e.g.
//     H100 3g.40gb covers 4 memory slices) as a device
//     "gpu-<i>-mig-<profile part>-<GI profile ID>-<start>" (as static MIG,
//     nvidia_gpu_slice.h) with type="mig", the parent's attributes, the
//     capacities multiprocessors and memory (mig.go CommonCapacitiesMig: no
//     memorySlice<i> capacities in this path) and consuming its profile's
//     multiprocessors and memory and memory-slice-<s> for s in
//     [start, start + memory_slices) (MigSpec.PartConsumesCounters).
// Order: GPUs by index; within a GPU the devices sorted by name, byte-wise
// (driver.go: "Stable sort order by devicename"), so the full GPU comes
// first, then e.g. gpu-0-mig-1g10gb-19-0 ... -19-6, gpu-0-mig-1g10gbme-20-0,
// ..., gpu-0-mig-3g40gb-9-0, gpu-0-mig-3g40gb-9-4, ..., gpu-0-mig-7g80gb-0-0.
// The allocator (allocator.h) walks the devices in this order and takes the
// first whose counters fit, which decides placement: small instances go to
// the lowest free start. Deviation: upstream publishes one slice per GPU
// (Kubernetes 1.34) or a counters slice plus one per GPU (1.35+,
// generateSplitResourceSlices) with generated names, so its walk order
// across GPUs follows slice names; here one slice holds every GPU in index
// order. The copy/decoder/encoder/JPEG/OFA engine capacities and counters are
// left out (the catalog does not hold them); they only ever equal or undercut
// the full-GPU profile's, as SMs and memory do.

#ifndef GPUSHARE_CLUSTER_DRA_NVIDIA_PARTITIONABLE_SLICE_H_
#define GPUSHARE_CLUSTER_DRA_NVIDIA_PARTITIONABLE_SLICE_H_

#include <string>
#include <vector>

#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {

// One device of the partitionable slice: GPU `gpu` whole (profile -1) or
// the placement of MIG profile `profile` (catalog index) at `start`.
struct NvidiaPartition {
  int gpu = 0;
  int profile = -1;
  int start = 0;
  bool operator==(const NvidiaPartition&) const = default;
};

// Whether `model` toggles MIG mode without a GPU reset (family not
// "ampere"): its full GPU is published and MIG mode is enabled on the first
// instance and disabled after the last.
bool NvidiaMigModeToggles(const GpuModel& model);

// "gpu-<gpu>-counter-set".
std::string NvidiaCounterSetName(int gpu);
// "memory-slice-<slice>".
std::string NvidiaMemorySliceCounter(int slice);

// The node's slice; `places` (if set) gets one entry per device, in slice
// order.
ResourceSlice NvidiaPartitionableResourceSlice(
    const NvidiaGpuNode& node, std::vector<NvidiaPartition>* places = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_NVIDIA_PARTITIONABLE_SLICE_H_
