// Cluster import: node pools rebuilt from an existing cluster's node list
// (docs/scenario.md "cluster.import").
//
// Contract: ImportNodePools() reads `spec.file` — `kubectl get nodes -o
// json` (kubectl_node_list.h) or an openb node list (openb_replay.h) — and
// groups the nodes into pools (imported_nodes.h GroupNodePools) named with
// `spec.prefix`. When `spec.override_sharing` is set, every node with GPUs
// gets `spec.sharing` instead of what its labels show (checked against its
// model: InputError naming the node; a devices: dra node keeps DRA and the
// sharing must be one DRA serves). Nodes without GPUs are kept as
// CPU-only pools: CPU-only pods and system pods run there. InputErrors of the
// readers pass through.

#ifndef GPUSHARE_WORKLOAD_CLUSTER_IMPORT_H_
#define GPUSHARE_WORKLOAD_CLUSTER_IMPORT_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/gpu_model_map.h"

namespace gpushare {

enum class NodeListFormat { kKubectl, kOpenb };

struct ClusterImportSpec {
  NodeListFormat format = NodeListFormat::kKubectl;
  std::string file;  // resolved path
  std::string prefix;
  bool override_sharing = false;
  SharingConfig sharing;
  GpuModelMap model_map = GpuModelMap::Default();  // openb model names
};

// `notes` (if set) gets what the kubectl import of DRA objects skipped or
// converted (kubectl_node_list.h).
std::vector<NodePoolSpec> ImportNodePools(
    const ClusterImportSpec& spec, const Catalog& catalog,
    std::vector<std::string>* notes = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_CLUSTER_IMPORT_H_
