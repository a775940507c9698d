// `kubectl get resourceslices -o json`: what NVIDIA's DRA driver publishes
// for each node, read back into the node import (kubectl_node_list.h).
//
// Contract: ReadNvidiaResourceSlices() reads the ResourceSlices of driver
// gpu.nvidia.com (kubernetes-sigs/dra-driver-nvidia-gpu, commit 95932046;
// docs/dra.md "ResourceSlice of a node" for the names and attributes) and
// keeps, per node — spec.nodeName, else spec.pool.name, which the driver
// sets to the node's name — the devices of the pool's newest
// spec.pool.generation:
//   - whole GPUs: devices `gpu-<i>` (attribute type "gpu"); the GPU count is
//     the number of distinct indexes;
//   - static MIG: devices `gpu-<i>-mig-<profile>-<id>-<start>` (type "mig",
//     attribute profile): per GPU i, the layout "<profile>@<start>", in
//     start order (nvidia_device_name.h reads the names);
//   - the model: the devices' productName attribute, resolved as the node
//     import resolves GFD's product label (spaces as '-', then the catalog's
//     names and aliases);
//   - consumable shares (devices with allowMultipleAllocations, the driver's
//     --consumable-shares, cmd/gpu-kubelet-plugin/consumable_shares.go): a
//     `shares` capacity of N is DraConsumableShares::kCount N (N = 1: every
//     claim takes the one share, exclusive; kDisabled); without it, a
//     `memory` requestPolicy whose default is the whole memory is
//     kMemoryShares, one whose default is 0 kUnlimited.
// Attribute and capacity keys are read unqualified or qualified with the
// driver's domain ("productName", "gpu.nvidia.com/productName"). Counted and
// otherwise ignored: slices of other drivers, gpu.nvidia.com slices of no
// node (allNodes, nodeSelector), slices of an older pool generation, and
// devices that are neither a whole GPU nor a MIG device. InputErrors at
// FILE:LINE:COL and the JSON path: a malformed slice or device, a node with
// both whole GPUs and MIG devices, devices of several products, an unknown
// product or MIG profile, a MIG layout the model cannot hold, devices of one
// node that disagree on consumable shares.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_SLICES_H_
#define GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_SLICES_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/io/json_value.h"

namespace gpushare {

// What one node's gpu.nvidia.com slices publish.
struct NvidiaSliceNode {
  std::optional<JsonValue> at;  // the node's first slice, for errors
  // Whether the slice named its node in spec.nodeName (else in pool.name).
  bool by_node_name = true;
  std::string gpu_model;  // catalog name
  int gpus = 0;
  // Empty: whole GPUs; else one layout per GPU in index order (items as
  // `mig_layouts` takes them: "3g.40gb@4").
  std::vector<std::vector<std::string>> mig_layouts;
  DraPoolSettings dra;
};

struct NvidiaSliceImport {
  std::map<std::string, NvidiaSliceNode> nodes;  // by node name
  int other_driver_slices = 0;
  int nodeless_slices = 0;   // gpu.nvidia.com, no node (allNodes, selector)
  int outdated_slices = 0;   // of an older pool generation
  int other_devices = 0;     // neither a whole GPU nor a MIG device
};

NvidiaSliceImport ReadNvidiaResourceSlices(
    const std::vector<JsonValue>& slices, const Catalog& catalog);

// The replicas of the time-slicing section an imported consumable-shares
// node gets: the share count N, or for `memory` and `unlimited` (no count)
// kDraImportReplicasWithoutCount, the least a time-slicing section takes
// (docs/scenario.md "kubectl resourceslices").
inline constexpr int kDraImportReplicasWithoutCount = 2;

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_SLICES_H_
