// Imported nodes: an existing cluster's nodes (kubectl, a trace's node list)
// turned into the simulator's node pools.
//
// Contract: an ImportedNode is what the simulated cluster needs of one real
// node — name, labels, taints, allocatable cpu/memory/pods, its physical GPU
// count and catalog model, and the sharing configuration its labels and
// resources show. GroupNodePools() puts nodes that are identical in all but
// name, labels and taints (same model, GPU count, cpu, memory, max pods and
// sharing) into one pool, in order of first appearance, each node keeping
// its identity (cluster/cluster.h NodeIdentity). Pools are named
// `<prefix><model>-x<gpus>[-<scheme>]` in lowercase (`cpu` for nodes
// without GPUs), with `-2`, `-3`, ... when two groups would share a name.
// Deterministic: the same nodes give the same pools. IsNodeName() is the
// rule the API server holds node names to (a DNS-1123 subdomain: at most 253
// characters, dot-separated labels of lowercase letters, digits and '-' that
// start and end with a letter or digit; k8s.io/apimachinery
// pkg/util/validation IsDNS1123Subdomain, through ValidateNodeName): the node
// readers refuse other names, which the emitted files could not address.

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
};

bool IsNodeName(std::string_view name);

// The message of a refused node name: what the rule is.
std::string NodeNameRule();

std::vector<NodePoolSpec> GroupNodePools(const std::vector<ImportedNode>& nodes,
                                         const std::string& prefix);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_IMPORTED_NODES_H_
