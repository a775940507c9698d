// GroupNodePools: node groups by the first node-group label in
// NodeGroupLabelKeys()' order, split by shape within a group, their names,
// group labels and the labels and taints their members share.

#include "gpushare/workload/imported_nodes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpushare {
namespace imported_nodes_test {
namespace {

ImportedNode GpuNode(const std::string& name, const std::string& model,
                     int gpus, Labels labels = {}) {
  ImportedNode n;
  n.name = name;
  n.labels = std::move(labels);
  n.labels["kubernetes.io/hostname"] = name;
  n.gpu_model = model;
  n.gpus = gpus;
  n.cpu_milli = 32000;
  n.memory_mib = 256 * 1024;
  return n;
}

std::vector<std::string> PoolNames(const std::vector<NodePoolSpec>& pools) {
  std::vector<std::string> names;
  for (const NodePoolSpec& p : pools) names.push_back(p.name);
  return names;
}

TEST(GroupNodePoolsTest, TheLabelsAreTriedInTheDocumentedOrder) {
  const std::vector<std::string> order = {"karpenter.sh/nodepool",
                                          "cloud.google.com/gke-nodepool",
                                          "eks.amazonaws.com/nodegroup",
                                          "kubernetes.azure.com/agentpool",
                                          "node.kubernetes.io/instance-type",
                                          "nvidia.com/gpu.product"};
  EXPECT_EQ(NodeGroupLabelKeys(), order);
  // A node carrying labels i..5 is grouped by label i, whatever the rest.
  for (size_t i = 0; i < order.size(); ++i) {
    Labels labels;
    for (size_t j = i; j < order.size(); ++j) {
      labels[order[j]] = "Value-" + std::to_string(j);
    }
    const std::vector<NodePoolSpec> pools =
        GroupNodePools({GpuNode("n-0", "L4", 1, labels)}, "");
    ASSERT_EQ(pools.size(), 1u) << order[i];
    EXPECT_EQ(pools[0].node_group_label_key, order[i]);
    EXPECT_EQ(pools[0].node_group_label_value, "Value-" + std::to_string(i));
    // The product names no pool: the shape says the model already.
    EXPECT_EQ(pools[0].name,
              i + 1 == order.size() ? "l4-x1" : "value-" + std::to_string(i))
        << order[i];
  }
}

TEST(GroupNodePoolsTest, NodesOfOneShapeSplitByTheirGroupLabel) {
  const std::string gke = "cloud.google.com/gke-nodepool";
  std::vector<ImportedNode> nodes = {
      GpuNode("a-0", "L4", 1, {{gke, "serve-pool"}}),
      GpuNode("b-0", "L4", 1, {{gke, "batch_pool"}}),
      GpuNode("a-1", "L4", 1, {{gke, "serve-pool"}}),
      GpuNode("c-0", "L4", 1),
      GpuNode("c-1", "L4", 1, {{gke, ""}}),  // an empty value: no group
  };
  const std::vector<NodePoolSpec> pools = GroupNodePools(nodes, "live-");
  EXPECT_EQ(PoolNames(pools),
            (std::vector<std::string>{"live-serve-pool", "live-batch-pool",
                                      "live-l4-x1"}));
  EXPECT_EQ(pools[0].nodes, 2);
  ASSERT_EQ(pools[0].members.size(), 2u);
  EXPECT_EQ(pools[0].members[1].name, "a-1");
  EXPECT_EQ(pools[1].node_group_label_value, "batch_pool");
  EXPECT_EQ(pools[2].nodes, 2);
  EXPECT_EQ(pools[2].node_group_label_key, "");
  EXPECT_EQ(pools[2].node_group_label_value, "");
}

TEST(GroupNodePoolsTest, AGroupOfSeveralShapesSplitsIntoHomogeneousPools) {
  const std::string karpenter = "karpenter.sh/nodepool";
  ImportedNode shared = GpuNode("g-2", "A10", 1, {{karpenter, "gpu"}});
  shared.sharing = TimeSlicingSharing(4);
  ImportedNode big = GpuNode("g-3", "A10", 4, {{karpenter, "gpu"}});
  big.cpu_milli = 48000;
  const std::vector<NodePoolSpec> pools =
      GroupNodePools({GpuNode("g-0", "A10", 1, {{karpenter, "gpu"}}), shared,
                      big, GpuNode("g-1", "A10", 1, {{karpenter, "gpu"}})},
                     "");
  EXPECT_EQ(PoolNames(pools),
            (std::vector<std::string>{"gpu-a10-x1", "gpu-a10-x1-time-slicing",
                                      "gpu-a10-x4"}));
  EXPECT_EQ(pools[0].nodes, 2);
  EXPECT_EQ(pools[1].sharing.scheme(), SharingScheme::kTimeSlicing);
  EXPECT_EQ(pools[2].cpu_milli, 48000);
  for (const NodePoolSpec& p : pools) {
    EXPECT_EQ(p.node_group_label_key, karpenter);
    EXPECT_EQ(p.node_group_label_value, "gpu");
  }
}

TEST(GroupNodePoolsTest, NamesAreShortDnsLabelsAndUnique) {
  const std::string eks = "eks.amazonaws.com/nodegroup";
  const std::string long_value(60, 'x');
  const std::vector<NodePoolSpec> pools =
      GroupNodePools({GpuNode("a", "H100-80GB", 8, {{eks, "GPU.Nodes"}}),
                      GpuNode("b", "H100-80GB", 8, {{eks, "gpu-nodes"}}),
                      GpuNode("c", "H100-80GB", 8, {{eks, "--GPU nodes--"}}),
                      GpuNode("d", "H100-80GB", 8, {{eks, long_value}}),
                      GpuNode("e", "H100-80GB", 8, {{eks, "..."}})},
                     "");
  EXPECT_EQ(PoolNames(pools),
            (std::vector<std::string>{"gpu-nodes", "gpu-nodes-2", "gpu-nodes-3",
                                      std::string(34, 'x'), "imported"}));
}

TEST(GroupNodePoolsTest, NewNodesGetWhatEveryMemberShares) {
  const std::string aks = "kubernetes.azure.com/agentpool";
  ImportedNode a = GpuNode("aks-gpu-0", "A100-80GB", 1,
                           {{aks, "gpu"}, {"zone", "1"}, {"team", "ml"}});
  ImportedNode b = GpuNode("aks-gpu-1", "A100-80GB", 1,
                           {{aks, "gpu"}, {"zone", "2"}, {"team", "ml"}});
  const Taint gpu{"sku", "gpu", TaintEffect::kNoSchedule};
  const Taint own{"dedicated", "x", TaintEffect::kNoSchedule};
  const Taint cordoned{"node.kubernetes.io/unschedulable", "",
                       TaintEffect::kNoSchedule};
  a.taints = {cordoned, gpu, own};
  b.taints = {gpu};
  std::vector<NodePoolSpec> pools = GroupNodePools({a, b}, "");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].new_node_labels, (Labels{{aks, "gpu"}, {"team", "ml"}}));
  EXPECT_EQ(pools[0].new_node_taints, std::vector<Taint>{gpu});
  // One member: its own labels but its host name; not its cordon.
  pools = GroupNodePools({a}, "");
  EXPECT_EQ(pools[0].new_node_labels,
            (Labels{{aks, "gpu"}, {"team", "ml"}, {"zone", "1"}}));
  EXPECT_EQ(pools[0].new_node_taints, (std::vector<Taint>{gpu, own}));
}

TEST(GroupNodePoolsTest, NodesWithoutAGroupLabelKeepTheShapeNames) {
  ImportedNode mig = GpuNode("m", "A100-80GB", 2);
  mig.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  ImportedNode cpu = GpuNode("c", "", 0);
  const std::vector<NodePoolSpec> pools = GroupNodePools(
      {mig, GpuNode("x", "A100-80GB", 2), cpu, GpuNode("y", "A100-80GB", 2)},
      "");
  EXPECT_EQ(PoolNames(pools), (std::vector<std::string>{
                                  "a100-80gb-x2-mig", "a100-80gb-x2", "cpu"}));
  EXPECT_EQ(pools[1].nodes, 2);
  // Same input, same pools.
  EXPECT_EQ(PoolNames(GroupNodePools({mig, GpuNode("x", "A100-80GB", 2), cpu,
                                      GpuNode("y", "A100-80GB", 2)},
                                     "")),
            PoolNames(pools));
}

}  // namespace
}  // namespace imported_nodes_test
}  // namespace gpushare
