// Cluster: node pools and their nodes, with their device plugins.
//
// Contract: AddPool() validates a pool (InputError "node pool 'NAME': ...")
// and creates its nodes, named NAME-<i> with i zero-padded so that name order
// is creation order (or as the pool's imported members are named; node names
// must be unique in the cluster), each with its device plugin (NVIDIA's for
// exclusive, time-slicing, MPS and MIG pools; HAMi's for vGPU pools) and
// labels. The cluster owns a copy of the catalog, so GpuModel pointers stay
// valid for its lifetime. Not copyable.

#ifndef GPUSHARE_CLUSTER_CLUSTER_H_
#define GPUSHARE_CLUSTER_CLUSTER_H_

#include <set>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/node.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

// One node of a pool rebuilt from an existing cluster (kubectl import, a
// trace's node list): its own name, labels and taints.
struct NodeIdentity {
  std::string name;
  Labels labels;
  std::vector<Taint> taints;
};

// The largest pool AddPool() accepts, and the most GPUs a node has.
inline constexpr int kMaxNodesPerPool = 1000000;
inline constexpr int kMaxGpusPerNode = 16;

// What a user writes for one node pool.
struct NodePoolSpec {
  std::string name;
  std::string gpu_model;   // catalog name or alias; empty when gpus == 0
  int nodes = 1;
  int gpus_per_node = 8;
  int64_t cpu_milli = 96000;
  int64_t memory_mib = 1024 * 1024;
  int max_pods = kDefaultMaxPods;
  // Software licence per GPU-hour on top of the GPU's price (e.g. NVIDIA AI
  // Enterprise for vGPU); 0: none.
  double licence_per_gpu_hour = 0;
  Labels labels;
  std::vector<Taint> taints;
  SharingConfig sharing;
  // The labels that select the pool's nodes in the real cluster (a
  // LabelSelector's matchLabels), which the emitted scripts address with
  // `kubectl ... -l SELECTOR` (emit/pool_node_set.h). Empty: the pool
  // label gpushare.io/node-pool=<name>. The simulation does not read it.
  Labels match_labels;
  // Imported pools: one identity per node (`nodes` of them), in node order.
  // Node i is named members[i].name instead of NAME-<i>; it carries the
  // pool's labels, then its own (which win over those the device plugin
  // sets), and the pool's taints followed by its own. Empty: generated.
  std::vector<NodeIdentity> members;
};

struct NodePool {
  NodePoolSpec spec;
  const GpuModel* model = nullptr;   // null when gpus_per_node == 0
  std::vector<MigLayout> mig_layouts;  // per GPU index; empty if MIG off
  int first_node = 0;
  int node_count = 0;
};

// The label every node carries with its pool's name.
inline constexpr const char* kNodePoolLabel = "gpushare.io/node-pool";

class Cluster {
 public:
  explicit Cluster(Catalog catalog);
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Adds a pool and its nodes; returns the pool index.
  int AddPool(const NodePoolSpec& spec);

  const std::vector<NodePool>& pools() const { return pools_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& nodes() { return nodes_; }
  ResourceRegistry& resources() { return resources_; }
  const ResourceRegistry& resources() const { return resources_; }
  const Catalog& catalog() const { return catalog_; }

 private:
  Catalog catalog_;
  ResourceRegistry resources_;
  std::vector<NodePool> pools_;
  std::vector<Node> nodes_;
  std::set<std::string, std::less<>> node_names_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_CLUSTER_H_
