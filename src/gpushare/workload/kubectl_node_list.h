// `kubectl get nodes -o json`: an existing cluster's nodes, read into
// ImportedNodes (workload/imported_nodes.h).
//
// Contract: per Node object — metadata.name (unique, and a Kubernetes node
// name: imported_nodes.h IsNodeName), metadata.labels, spec.taints and
// spec.unschedulable (which becomes the taint
// node.kubernetes.io/unschedulable:NoSchedule, as the node controller sets
// it), status.allocatable (status.capacity where allocatable lacks a
// resource): cpu, memory, pods and the GPU resources. The GPU model comes
// from the label nvidia.com/gpu.product (GFD; `-SHARED` and `-MIG-<profile>`
// suffixes dropped) or HAMi's registration annotation, resolved with
// catalog.Find (names and aliases). The sharing configuration is read from
// the signals the NVIDIA and HAMi components leave (NVIDIA/k8s-device-plugin
// docs/gpu-feature-discovery/README.md; Project-HAMi/HAMi
// docs/develop/protocol.md):
//   HAMi      annotation hami.io/node-nvidia-register: GPUs, split count,
//             memory and core scaling; or, before HAMi registers, the label
//             gpu=on with nvidia.com/gpu.count below the advertised
//             nvidia.com/gpu: split = advertised / count, scalings 1
//   MIG mixed nvidia.com/mig-<profile> resources: the layout named by the
//             label nvidia.com/mig.config when it matches the counts, else
//             the counts spread evenly over nvidia.com/gpu.count GPUs
//   MIG single nvidia.com/mig.strategy=single with a -MIG-<profile> product:
//             all-<profile> on every GPU
//   replicas  nvidia.com/gpu.replicas > 1: time-slicing, or MPS when
//             nvidia.com/gpu.sharing-strategy=mps; renamed when the node has
//             nvidia.com/gpu.shared
//   otherwise exclusive: nvidia.com/gpu GPUs.
// More devices than physical GPUs without a label that says why, or more
// than 16 without nvidia.com/gpu.count, is an error naming the label that
// would settle it. A node without any GPU resource is CPU-only. Every problem (bad JSON, a
// wrong type, a bad quantity, an unknown product, counts that no layout
// explains, a configuration the model rejects) is an InputError at
// FILE:LINE:COL naming the JSON path.
//
// Dynamic Resource Allocation: the List may also hold ResourceSlices (and
// DeviceClasses, ResourceClaims, ResourceClaimTemplates and Pods, which the
// node import skips; kubectl_mixed_list.h). A node with a gpu.nvidia.com
// slice (kubectl_resource_slices.h) gets its GPU model, count, MIG layout
// and consumable shares from the slice, whatever its labels and
// allocatable say, and hands them out through DRA (PoolDevices::kDra;
// sharing time-slicing with the share count as replicas where the driver
// shares devices); a slice naming in spec.nodeName a node the list lacks is
// an InputError.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_NODE_LIST_H_
#define GPUSHARE_WORKLOAD_KUBECTL_NODE_LIST_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/imported_nodes.h"

namespace gpushare {

// `notes` (if set) gets what the import of DRA objects skipped or
// converted, one sentence each.
std::vector<ImportedNode> ParseKubectlNodes(
    const std::string& file, const std::string& text, const Catalog& catalog,
    std::vector<std::string>* notes = nullptr);
std::vector<ImportedNode> ReadKubectlNodes(
    const std::string& path, const Catalog& catalog,
    std::vector<std::string>* notes = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_NODE_LIST_H_
