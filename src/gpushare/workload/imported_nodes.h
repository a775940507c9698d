// Imported nodes: an existing cluster's nodes (kubectl, a trace's node list)
// turned into the simulator's node pools.
//
// Contract: an ImportedNode is what the simulated cluster needs of one real
// node — name, labels, taints, allocatable cpu/memory/pods, its physical GPU
// count and catalog model, and the sharing configuration its labels and
// resources show.
//
// GroupNodePools() forms the node groups clouds and autoscalers define: each
// node belongs to the group of the first label of NodeGroupLabelKeys() it
// carries with a non-empty value (key and value), or to no group when it
// carries none. Within a group, nodes identical in all but name, labels and
// taints (same model, GPU count, cpu, memory, max pods, sharing, devices and
// DRA settings) form one
// pool — a pool is homogeneous — so a group of several shapes splits into
// several pools. Pools come in order of their first node; each node keeps
// its identity (cluster/cluster.h NodeIdentity) in node order. Names:
//   - no group label, or grouped by `nvidia.com/gpu.product` (the product
//     is the model the name already says): `<prefix><model>-x<gpus>
//     [-<scheme>]` in lowercase (`cpu` for nodes without GPUs);
//   - grouped by a node-group or instance-type label: `<prefix><value>`,
//     the value lowercased with every run of other characters than letters
//     and digits turned into one '-'; `<prefix><value>-<model>-x<gpus>
//     [-<scheme>][-dra]` when the group splits into several pools;
// at most 34 characters, with `-2`, `-3`, ... when two pools would share a
// name. Each pool records its group label (NodePoolSpec
// node_group_label_key and node_group_label_value; both empty without one)
// and the labels and taints all its members share (new_node_labels and
// new_node_taints: the members' common labels but kubernetes.io/hostname
// and gpushare.io/node-pool, their common taints but the node lifecycle's
// node.kubernetes.io/* ones), which nodes added when the pool grows get.
// Deterministic: the same nodes give the same pools.
//
// IsNodeName() is the rule the API server holds node names to (a DNS-1123
// subdomain: at most 253 characters, dot-separated labels of lowercase
// letters, digits and '-' that start and end with a letter or digit;
// k8s.io/apimachinery pkg/util/validation IsDNS1123Subdomain, through
// ValidateNodeName): the node readers refuse other names, which the emitted
// files could not address.

#ifndef GPUSHARE_WORKLOAD_IMPORTED_NODES_H_
#define GPUSHARE_WORKLOAD_IMPORTED_NODES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/cluster.h"

namespace gpushare {

struct ImportedNode {
  std::string name;
  Labels labels;
  std::vector<Taint> taints;
  std::string gpu_model;   // catalog canonical name; "" without GPUs
  int gpus = 0;            // physical GPUs
  int64_t cpu_milli = 0;   // allocatable
  int64_t memory_mib = 0;  // allocatable
  int max_pods = kDefaultMaxPods;
  SharingConfig sharing;
  // How the GPUs are handed out: the device plugin, or NVIDIA's DRA driver
  // (a node with a gpu.nvidia.com ResourceSlice) with its settings.
  PoolDevices devices = PoolDevices::kDevicePlugin;
  DraPoolSettings dra;
};

// The node-group labels, first match wins: Karpenter's NodePool
// (`karpenter.sh/nodepool`), GKE's node pool
// (`cloud.google.com/gke-nodepool`), an EKS managed node group
// (`eks.amazonaws.com/nodegroup`), an AKS agent pool
// (`kubernetes.azure.com/agentpool`), the cloud's machine type
// (`node.kubernetes.io/instance-type`), then GPU Feature Discovery's
// product (`nvidia.com/gpu.product`). docs/scenario.md "cluster.import"
// says why in this order.
const std::vector<std::string>& NodeGroupLabelKeys();

bool IsNodeName(std::string_view name);

// The message of a refused node name: what the rule is.
std::string NodeNameRule();

std::vector<NodePoolSpec> GroupNodePools(const std::vector<ImportedNode>& nodes,
                                         const std::string& prefix);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_IMPORTED_NODES_H_
