// The ResourceSlice a node publishes through NVIDIA's DRA driver for GPUs.
//
// Contract: NvidiaGpuResourceSlice() builds, from the catalog's GpuModel, the
// one slice the driver's gpu-kubelet-plugin publishes for a node when the
// DynamicMIG gate is off (kubernetes-sigs/dra-driver-nvidia-gpu, commit
// 95932046, cmd/gpu-kubelet-plugin/driver.go publishResources): driver
// "gpu.nvidia.com", pool = node name, and per GPU either
//   - MIG disabled (an empty layout): one device "gpu-<index>" with the
//     attributes type="gpu", uuid, productName, brand, architecture (strings)
//     and cudaComputeCapability, driverVersion, cudaDriverVersion (versions),
//     and the capacity memory in bytes (deviceinfo.go GpuInfo.Attributes,
//     partitions.go fullGpuCapacity); or
//   - MIG enabled with a static layout (nvlib.go: the parent GPU is then not
//     published): one device per GPU instance, named
//     "gpu-<index>-mig-<profile>-<GI profile ID>-<start>" where <profile> is
//     the profile name without dots, lower-cased, other characters outside
//     [a-z0-9-] made '-' (mig.go ToCanonicalName, toRFC1123Compliant), with
//     type="mig", parentUUID, profile, uuid and the parent's productName,
//     brand, architecture and versions (mig.go CommonAttributesMig), and the
//     capacities multiprocessors, memory (bytes) and memorySlice<i> = 1 for
//     each memory slice it occupies (mig.go CommonCapacitiesMig,
//     deviceinfo.go MigDeviceInfo.GetDevice).
// The driver stopped publishing the "index" and "minor" attributes in 2025
// (NVIDIA/k8s-dra-driver-gpu commits 36fc80ab, "Remove GPU index for CDI spec
// generation / attribute advertisement", and 50d90da0, "Remove minor number
// from advertised GPU attributes"); the index lives only in the device name.
// Left out because the catalog does not hold them: the MIG capacities
// copyEngines, decoders, encoders, jpegEngines and ofaEngines, and the
// optional attributes resource.kubernetes.io/pciBusID, pcieRoot, numaNode
// and addressingMode. UUIDs are fake but stable ("GPU-" or "MIG-" and a hash
// of node, index and, for MIG, the placement; the GPU's is the same as
// metrics/gpu_uuid.h gives). Devices are ordered by GPU index, and within a
// GPU by name, as the DynamicMIG path sorts them (driver.go
// generateCombinedResourceSlices; the static path walks Go maps, whose order
// is unspecified).
// With consumable shares on (NvidiaGpuNode::consumable, the kubelet plugin's
// --consumable-shares; cmd/gpu-kubelet-plugin/consumable_shares.go
// applyConsumableShares, called for whole GPUs and static MIG devices in
// allocatable.go GetDevice), every device is published with
// allowMultipleAllocations: true, its `memory` capacity rounded down to a
// multiple of 1Mi and given a requestPolicy with step 1Mi and max = that
// value: default 0 and min 0 for `unlimited` and for N; default = max and
// min 1Mi for `memory`; for N also a capacity `shares` = N with policy
// default 1, min 1, max N, step 1.

#ifndef GPUSHARE_CLUSTER_DRA_NVIDIA_GPU_SLICE_H_
#define GPUSHARE_CLUSTER_DRA_NVIDIA_GPU_SLICE_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/cluster/dra/resource_slice.h"
#include "gpushare/cluster/dra/semver.h"

namespace gpushare {

// The driver's name, its attribute domain and the DeviceClass of whole GPUs
// (cmd/gpu-kubelet-plugin/main.go DriverName).
inline constexpr const char* kNvidiaGpuDriver = "gpu.nvidia.com";

// The software versions a node's GPUs report. The defaults are those of
// the driver's attribute reference page (site/content/docs/reference/
// resourceslice-attributes.md), an example, not a recommendation.
struct NvidiaDriverVersions {
  Semver driver_version{580, 126, 20};
  Semver cuda_driver_version{13, 0, 0};
};

// What a node of a DRA pool holds: `gpu_count` GPUs of `model`;
// `mig_layouts` is empty (no MIG) or has one layout per GPU, where an empty
// layout means MIG is disabled on that GPU. Every layout must be valid on
// `model` (FindMigLayoutProblem), a nonempty one needs a MIG-capable model.
struct NvidiaGpuNode {
  std::string node_name;
  const GpuModel* model = nullptr;
  int gpu_count = 0;
  std::vector<MigLayout> mig_layouts;
  NvidiaDriverVersions versions;
  // The driver's --consumable-shares (kDisabled: off).
  DraPoolSettings consumable;
};

// applyConsumableShares: what --consumable-shares does to one published
// device (nothing when it is off; a device without `memory` only gets
// allowMultipleAllocations).
void ApplyNvidiaConsumableShares(const DraPoolSettings& consumable,
                                 Device* device);

// Where a device of the slice is: its GPU's index and, for a MIG device, its
// instance's index in that GPU's layout (-1: the whole GPU).
struct NvidiaDevicePlace {
  int gpu = 0;
  int instance = -1;
};

// A node's slice of the driver without devices: named
// "<node>-gpu.nvidia.com", its pool the node.
ResourceSlice EmptyNvidiaNodeSlice(const std::string& node_name);

// The node's slice; `places` (if set) gets one entry per device, in slice
// order.
ResourceSlice NvidiaGpuResourceSlice(
    const NvidiaGpuNode& node, std::vector<NvidiaDevicePlace>* places = nullptr);

// The whole GPU `gpu` of `node` as the static path publishes it (no
// consumable shares applied), and one MIG device of it at `instance`, with
// capacities multiprocessors, memory and memorySlice<i> (mig.go).
Device NvidiaFullGpuDevice(const NvidiaGpuNode& node, int gpu,
                           const std::string& uuid);
Device NvidiaMigDevice(const NvidiaGpuNode& node, int gpu,
                       const std::string& parent_uuid,
                       const MigInstance& instance);

// NVML's GPU-instance profile ID of `profile` on `model` (the ID column of
// `nvidia-smi mig -lgip`, which the driver puts in MIG device names): on
// GPUs with 8 memory slices 7g 0, 4g 5, 3g 9, 2g 14, 1g on two memory
// slices 15, 1g 19, 1g+me 20; on A30 (4 slices) 4g 0, 2g 5, 2g+me 6, 1g 14,
// 1g+me 21. A shape outside these gets 100 + its index in the catalog.
int NvidiaMigProfileId(const GpuModel& model, int profile);

// The driver's product name: the catalog's NVIDIA- or Tesla- alias with its
// first '-' a space ("NVIDIA A100-SXM4-80GB"), else "NVIDIA <model name>".
std::string NvidiaProductName(const GpuModel& model);

// NVML's brand: "Tesla" for a model with a Tesla- alias, else "Nvidia" (the
// driver's attribute reference shows "Nvidia" for an A100).
std::string NvidiaBrand(const GpuModel& model);

// The driver's architecture string from the catalog family: "ampere" ->
// "Ampere", "ada-lovelace" -> "Ada Lovelace".
std::string NvidiaArchitecture(const GpuModel& model);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_NVIDIA_GPU_SLICE_H_
