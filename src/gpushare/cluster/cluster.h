// Cluster: node pools and their nodes, with their device plugins.
//
// Contract: AddPool() validates a pool (InputError "node pool 'NAME': ...")
// and creates its nodes, each with its device plugin (NVIDIA's for
// exclusive, time-slicing, MPS and MIG pools; HAMi's for vGPU pools) and
// labels. A written pool's nodes are named NAME-<i>, i zero-padded so that
// name order is creation order. An imported pool (members given, at most
// `nodes` of them) has its members first, under their own names, then —
// when the pool was grown (ResizePool) — its new nodes, the nodes the user
// would provision: NAME-new-<j>, j = 0, 1, ... zero-padded the same way,
// with the labels and taints the members share (new_node_labels,
// new_node_taints). Node names must be unique in the cluster. ResizePool()
// sets a pool's node count: an imported pool shrinks by dropping its last
// members in node order, so the removed nodes are the original pool's
// members past the resized pool's. The cluster owns a copy of the catalog,
// so GpuModel pointers stay valid for its lifetime. An autoscaled pool
// (NodePoolSpec::autoscaling) gets a node slot per node it may grow to,
// max(nodes, autoscaling.max_nodes), named as a written pool's; the slots
// past `nodes` do not exist at the start (Node::exists()), and the
// simulation adds and removes nodes by setting it. Not copyable.

#ifndef GPUSHARE_CLUSTER_CLUSTER_H_
#define GPUSHARE_CLUSTER_CLUSTER_H_

#include <set>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/node.h"
#include "gpushare/cluster/node_group_autoscaling.h"
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

// How a pool's nodes hand out their GPUs: NVIDIA's device plugin
// (extended resources), or Dynamic Resource Allocation through NVIDIA's DRA
// driver (ResourceSlices and claims; cluster/dra/dra_gpu_devices.h), which
// serves the exclusive, time-slicing (consumable shares) and MIG schemes.
enum class PoolDevices { kDevicePlugin, kDra };

// "" when a pool may hand out GPUs shared by `scheme` through `devices`, else
// why not: DRA serves sharing `exclusive`, `time-slicing` (the driver's
// consumable shares, cluster/dra/dra_pool_settings.h) and `mig`; not `mps`
// (the driver refuses MPS with consumable shares; MPS through one claim
// shared by several pods is not modelled yet) nor `hami`.
std::string PoolDevicesProblem(PoolDevices devices, SharingScheme scheme);

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
  PoolDevices devices = PoolDevices::kDevicePlugin;
  // The DRA driver's settings (scenario key `dra:`); only with kDra.
  DraPoolSettings dra;
  // How the pool scales (scenario key `autoscaling:`); provider kNone: a
  // fixed `nodes`. Otherwise `nodes` is the count at the start.
  NodeGroupAutoscaling autoscaling;
  // The labels that select the pool's nodes in the real cluster (a
  // LabelSelector's matchLabels), which the emitted scripts address with
  // `kubectl ... -l SELECTOR` (emit/pool_node_set.h). Empty: the pool
  // label gpushare.io/node-pool=<name>. The simulation does not read it.
  Labels match_labels;
  // Imported pools: one identity per real node (at most `nodes` of them),
  // in node order. Node i is named members[i].name instead of NAME-<i>; it
  // carries the pool's labels, then its own (which win over those the
  // device plugin sets), and the pool's taints followed by its own. Nodes
  // past the members are new (a grown pool): named NAME-new-<j>, with
  // new_node_labels and new_node_taints in place of a member's own. Empty:
  // a written pool, every node generated.
  std::vector<NodeIdentity> members;
  // Imported pools: the node label that selects the pool's real nodes
  // (`kubectl get nodes -l KEY=VALUE`) — the first of
  // workload/imported_nodes.h NodeGroupLabelKeys() its nodes carry, e.g.
  // `cloud.google.com/gke-nodepool` = `l4-pool`. Where the group has nodes of
  // several shapes, it splits into several pools that share this label (the
  // labels in new_node_labels tell them apart). For `nvidia.com/gpu.product`
  // the value is what GFD shows today (a `-SHARED` or `-MIG-...` suffix
  // included), which GFD rewrites when the pool's sharing changes. Both
  // empty for a pool grouped by shape alone (no node carries such a label)
  // and for written pools.
  std::string node_group_label_key;
  std::string node_group_label_value;
  // Imported pools: the labels every member carries with the same value
  // (the group label among them; never kubernetes.io/hostname or
  // gpushare.io/node-pool) and the taints every member carries (never the
  // node lifecycle's node.kubernetes.io/* ones): what a new node gets.
  Labels new_node_labels;
  std::vector<Taint> new_node_taints;
};

// How reports name the pool's sharing: SharingLabel for device-plugin pools;
// for DRA pools DraPoolSharingLabel ("exclusive (DRA)", "DRA time-slicing
// x4", "DRA shared capacity (memory)").
std::string PoolSharingLabel(const NodePoolSpec& spec, const GpuModel* model);

// Sets `pool`'s node count to `nodes`; an imported pool with more members
// keeps the first `nodes` of them (node order), so the nodes it drops are
// the last. Growing an imported pool adds new nodes (see AddPool).
void ResizePool(NodePoolSpec* pool, int nodes);

struct NodePool {
  NodePoolSpec spec;
  const GpuModel* model = nullptr;   // null when gpus_per_node == 0
  std::vector<MigLayout> mig_layouts;  // per GPU index; empty if MIG off
  // Dynamic MIG (spec.sharing.mig.dynamic, a DRA pool): the profile of each
  // execution domain of a GPU, as DynamicMigGpuDomains() (cluster/dra/
  // dra_dynamic_mig_devices.h): [0] -1 (the whole GPU), then the profile of
  // each MIG placement. Empty otherwise.
  std::vector<int> dynamic_mig_domains;
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
