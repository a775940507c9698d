// Cluster::AddPool (node naming, labels, validation) and Node's request
// bookkeeping (kube-scheduler's NonZeroRequested defaults).

#include "gpushare/cluster/cluster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace cluster_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

NodePoolSpec GpuPool(const std::string& name, int nodes) {
  NodePoolSpec spec;
  spec.name = name;
  spec.gpu_model = "A100-40GB";
  spec.nodes = nodes;
  spec.gpus_per_node = 2;
  return spec;
}

NodePoolSpec CpuPool(const std::string& name, int nodes) {
  NodePoolSpec spec;
  spec.name = name;
  spec.nodes = nodes;
  spec.gpus_per_node = 0;
  return spec;
}

// The message of the InputError AddPool throws, or "" if none.
std::string AddProblem(Cluster& cluster, const NodePoolSpec& spec) {
  try {
    cluster.AddPool(spec);
  } catch (const InputError& e) {
    return e.message();
  }
  return "";
}

std::vector<std::string> Names(const Cluster& cluster) {
  std::vector<std::string> names;
  for (const Node& n : cluster.nodes()) names.push_back(n.name());
  return names;
}

// Names are zero-padded so that name order is creation order.
TEST(ClusterTest, NodeNamesArePaddedToTheLargestIndex) {
  Cluster cluster(Catalog::Builtin());
  EXPECT_EQ(cluster.AddPool(CpuPool("dev", 12)), 0);
  const std::vector<std::string> names = Names(cluster);
  ASSERT_EQ(names.size(), 12u);
  EXPECT_EQ(names.front(), "dev-00");
  EXPECT_EQ(names[9], "dev-09");
  EXPECT_EQ(names.back(), "dev-11");
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));

  EXPECT_EQ(cluster.AddPool(CpuPool("one", 1)), 1);
  EXPECT_EQ(cluster.nodes().back().name(), "one-0");

  // 10 nodes: indexes 0..9 need one digit.
  cluster.AddPool(CpuPool("ten", 10));
  EXPECT_EQ(cluster.nodes().back().name(), "ten-9");
  // 101 nodes: 0..100 need three.
  cluster.AddPool(CpuPool("big", 101));
  EXPECT_EQ(cluster.nodes()[cluster.pools().back().first_node].name(),
            "big-000");
  EXPECT_EQ(cluster.nodes().back().name(), "big-100");
}

TEST(ClusterTest, PoolsRecordTheirNodes) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("a", 3));
  cluster.AddPool(GpuPool("b", 2));
  ASSERT_EQ(cluster.pools().size(), 2u);
  EXPECT_EQ(cluster.pools()[0].first_node, 0);
  EXPECT_EQ(cluster.pools()[0].node_count, 3);
  EXPECT_EQ(cluster.pools()[1].first_node, 3);
  EXPECT_EQ(cluster.pools()[1].node_count, 2);
  EXPECT_EQ(cluster.nodes()[3].pool(), 1);
  EXPECT_EQ(cluster.nodes()[2].pool(), 0);
  EXPECT_EQ(cluster.pools()[1].model, &cluster.catalog().Get("A100-40GB"));
}

TEST(ClusterTest, StandardLabels) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec = GpuPool("gpu", 2);
  spec.labels["team"] = "ml";
  cluster.AddPool(spec);
  const Node& node = cluster.nodes()[1];
  EXPECT_EQ(node.labels().at("kubernetes.io/hostname"), "gpu-1");
  EXPECT_EQ(node.labels().at("gpushare.io/node-pool"), "gpu");
  EXPECT_EQ(node.labels().at(kNodePoolLabel), "gpu");
  EXPECT_EQ(node.labels().at("team"), "ml");
  // GFD labels from the device plugin (NVIDIA/k8s-device-plugin
  // docs/gpu-feature-discovery/README.md).
  EXPECT_EQ(node.labels().at("nvidia.com/gpu.product"),
            "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(node.labels().at("nvidia.com/gpu.count"), "2");
}

TEST(ClusterTest, PoolTaintsReachEveryNode) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec = GpuPool("gpu", 2);
  spec.taints = {{"nvidia.com/gpu", "present", TaintEffect::kNoSchedule}};
  cluster.AddPool(spec);
  for (const Node& n : cluster.nodes()) EXPECT_EQ(n.taints(), spec.taints);
}

// An imported pool: members under their own names, then (grown) new nodes
// named NAME-new-<j> with the labels and taints the members share; shrunk,
// its last members dropped.
NodePoolSpec ImportedPool() {
  NodePoolSpec spec = GpuPool("l4", 2);
  spec.gpu_model = "L4";
  const Taint gpu{"nvidia.com/gpu", "present", TaintEffect::kNoSchedule};
  const std::string group = "cloud.google.com/gke-nodepool";
  spec.members = {{"gke-a", {{group, "l4"}, {"zone", "a"}}, {gpu}},
                  {"gke-b", {{group, "l4"}, {"zone", "b"}}, {gpu}}};
  spec.node_group_label_key = "cloud.google.com/gke-nodepool";
  spec.node_group_label_value = "l4";
  spec.new_node_labels = {{"cloud.google.com/gke-nodepool", "l4"}};
  spec.new_node_taints = {gpu};
  return spec;
}

TEST(ClusterTest, AGrownImportedPoolAddsNewNodesAfterItsMembers) {
  NodePoolSpec spec = ImportedPool();
  ResizePool(&spec, 13);
  EXPECT_EQ(spec.members.size(), 2u);
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(spec);
  const std::vector<std::string> names = Names(cluster);
  ASSERT_EQ(names.size(), 13u);
  EXPECT_EQ(names[0], "gke-a");
  EXPECT_EQ(names[1], "gke-b");
  EXPECT_EQ(names[2], "l4-new-00");  // 11 new nodes: two digits
  EXPECT_EQ(names[12], "l4-new-10");
  const Node& added = cluster.nodes()[12];
  EXPECT_EQ(added.labels().at("cloud.google.com/gke-nodepool"), "l4");
  EXPECT_EQ(added.labels().count("zone"), 0u);
  EXPECT_EQ(added.labels().at("kubernetes.io/hostname"), "l4-new-10");
  EXPECT_EQ(added.labels().at(kNodePoolLabel), "l4");
  EXPECT_EQ(added.labels().at("nvidia.com/gpu.product"), "NVIDIA-L4");
  EXPECT_EQ(added.taints(), spec.new_node_taints);
  EXPECT_EQ(cluster.nodes()[1].labels().at("zone"), "b");
  EXPECT_EQ(cluster.pools()[0].node_count, 13);
}

TEST(ClusterTest, AShrunkImportedPoolDropsItsLastMembers) {
  NodePoolSpec spec = ImportedPool();
  ResizePool(&spec, 1);
  EXPECT_EQ(spec.nodes, 1);
  ASSERT_EQ(spec.members.size(), 1u);
  EXPECT_EQ(spec.members[0].name, "gke-a");
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(spec);
  EXPECT_EQ(Names(cluster), std::vector<std::string>{"gke-a"});
  // A written pool has no members to drop.
  NodePoolSpec written = GpuPool("w", 3);
  ResizePool(&written, 2);
  EXPECT_EQ(written.nodes, 2);
  EXPECT_TRUE(written.members.empty());
}

TEST(ClusterTest, MoreMembersThanNodesIsRefused) {
  NodePoolSpec spec = ImportedPool();
  spec.nodes = 1;
  Cluster cluster(Catalog::Builtin());
  EXPECT_THAT(AddProblem(cluster, spec),
              HasSubstr("node pool 'l4': 2 imported nodes for 1 nodes"));
}

TEST(ClusterTest, ANewNodeNamedAsARealOneIsRefused) {
  NodePoolSpec spec = ImportedPool();
  spec.members[1].name = "l4-new-0";
  ResizePool(&spec, 3);
  Cluster cluster(Catalog::Builtin());
  EXPECT_THAT(AddProblem(cluster, spec),
              HasSubstr("node 'l4-new-0' is defined twice"));
}

TEST(ClusterTest, DevicePluginPerScheme) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec ts = GpuPool("ts", 1);
  ts.sharing = TimeSlicingSharing(4);
  NodePoolSpec hami = GpuPool("hami", 1);
  hami.sharing = HamiSharing();
  NodePoolSpec mig = GpuPool("mig", 1);
  mig.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  cluster.AddPool(ts);
  cluster.AddPool(hami);
  cluster.AddPool(mig);
  const ResourceRegistry& r = cluster.resources();
  const Node& ts_node = cluster.nodes()[0];
  ASSERT_NE(ts_node.devices()->AsNvidia(), nullptr);
  EXPECT_EQ(ts_node.Allocatable(r.Find("nvidia.com/gpu")), 8);  // 2 x 4
  const Node& hami_node = cluster.nodes()[1];
  ASSERT_NE(hami_node.devices()->AsHami(), nullptr);
  EXPECT_EQ(hami_node.labels().at("gpu"), "on");
  EXPECT_EQ(hami_node.Allocatable(r.Find("nvidia.com/gpumem")), 81920);
  const Node& mig_node = cluster.nodes()[2];
  EXPECT_EQ(mig_node.Allocatable(r.Find("nvidia.com/mig-1g.5gb")), 4);
  EXPECT_EQ(mig_node.Allocatable(r.Find("nvidia.com/gpu")), 0);
  EXPECT_EQ(cluster.pools()[2].mig_layouts.size(), 2u);
  EXPECT_EQ(mig_node.gpus(), 2);
  EXPECT_EQ(mig_node.model()->name, "A100-40GB");
}

TEST(ClusterTest, BadPoolNamesAreRejected) {
  Cluster cluster(Catalog::Builtin());
  for (const char* name : {"Dev", "-dev", "dev-", "", "dev_1", "dev.1"}) {
    EXPECT_THAT(AddProblem(cluster, CpuPool(name, 1)),
                StartsWith("node pool name '" + std::string(name) +
                           "' must be lowercase"))
        << name;
  }
  EXPECT_NE(AddProblem(cluster, CpuPool(std::string(41, 'a'), 1)), "");
  EXPECT_EQ(AddProblem(cluster, CpuPool(std::string(40, 'a'), 1)), "");
  EXPECT_EQ(AddProblem(cluster, CpuPool("a", 1)), "");
  EXPECT_EQ(AddProblem(cluster, CpuPool("a-1-b", 1)), "");
}

TEST(ClusterTest, DuplicatePoolIsRejected) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("dev", 1));
  EXPECT_EQ(AddProblem(cluster, GpuPool("dev", 1)),
            "node pool 'dev' is defined twice");
  EXPECT_EQ(cluster.nodes().size(), 1u);  // nothing added
}

TEST(ClusterTest, OutOfRangeCountsAreRejected) {
  Cluster cluster(Catalog::Builtin());
  EXPECT_EQ(AddProblem(cluster, CpuPool("x", 0)),
            "node pool 'x': nodes must be 1..1000000, got 0");
  NodePoolSpec gpus = GpuPool("x", 1);
  gpus.gpus_per_node = 17;
  EXPECT_EQ(AddProblem(cluster, gpus),
            "node pool 'x': gpus_per_node must be 0..16, got 17");
  gpus.gpus_per_node = 16;
  EXPECT_EQ(AddProblem(cluster, gpus), "");
  NodePoolSpec cpu = CpuPool("c", 1);
  cpu.cpu_milli = 0;
  EXPECT_THAT(AddProblem(cluster, cpu), HasSubstr("cpu must be positive"));
  NodePoolSpec pods = CpuPool("p", 1);
  pods.max_pods = 0;
  EXPECT_THAT(AddProblem(cluster, pods), HasSubstr("max_pods"));
  EXPECT_EQ(cluster.nodes().size(), 1u);  // only pool x
}

TEST(ClusterTest, UnknownGpuModelNamesTheClosest) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec = GpuPool("x", 1);
  spec.gpu_model = "A100-40G";
  const std::string p = AddProblem(cluster, spec);
  EXPECT_THAT(p, StartsWith("node pool 'x': unknown GPU model 'A100-40G'"));
  EXPECT_THAT(p, HasSubstr("closest known: A100-40GB"));
  // Aliases are matched case-insensitively.
  spec.gpu_model = "nvidia-a100-sxm4-40gb";
  EXPECT_EQ(AddProblem(cluster, spec), "");
}

TEST(ClusterTest, InvalidSharingIsRejectedWithThePoolName) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec = GpuPool("x", 1);
  spec.sharing = MigSharing(MigStrategy::kMixed, "all-balance");
  EXPECT_THAT(AddProblem(cluster, spec),
              StartsWith("node pool 'x': unknown MIG config 'all-balance'"));
  spec.sharing = MigSharing(MigStrategy::kSingle, "all-balanced");
  EXPECT_THAT(AddProblem(cluster, spec), StartsWith("node pool 'x': "));
  EXPECT_THAT(AddProblem(cluster, spec), HasSubstr("MIG-INVALID"));
  spec.gpu_model = "L4";
  spec.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  EXPECT_EQ(AddProblem(cluster, spec),
            "node pool 'x': L4 does not support MIG");
  spec.sharing = TimeSlicingSharing(1);
  EXPECT_THAT(AddProblem(cluster, spec), HasSubstr("at least 2"));
  EXPECT_TRUE(cluster.pools().empty());
}

TEST(ClusterTest, CpuOnlyPool) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec = CpuPool("cpu", 2);
  spec.cpu_milli = 32000;
  spec.memory_mib = 131072;
  cluster.AddPool(spec);
  const Node& node = cluster.nodes()[0];
  EXPECT_EQ(node.model(), nullptr);
  EXPECT_EQ(node.devices(), nullptr);
  EXPECT_EQ(node.gpus(), 0);
  EXPECT_TRUE(node.extended().empty());
  EXPECT_EQ(node.Allocatable(ResourceRegistry::kCpuId), 32000);
  EXPECT_EQ(node.Allocatable(ResourceRegistry::kMemoryId), 131072);
  EXPECT_EQ(node.max_pods(), kDefaultMaxPods);
  EXPECT_EQ(node.labels().count("nvidia.com/gpu.present"), 0u);
  EXPECT_EQ(node.labels().at("gpushare.io/node-pool"), "cpu");
  EXPECT_EQ(cluster.pools()[0].model, nullptr);

  // A pool without GPUs cannot share them.
  NodePoolSpec shared = CpuPool("shared", 1);
  shared.sharing = TimeSlicingSharing(4);
  EXPECT_EQ(AddProblem(cluster, shared),
            "node pool 'shared': a pool without GPUs cannot share GPUs");
}

// kube-scheduler's NonZeroRequested: a pod without a cpu or memory request
// counts 100m and 200 MiB (pkg/scheduler/util DefaultMilliCPURequest,
// DefaultMemoryRequest).
TEST(NodeTest, ReserveAndUnreserve) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(GpuPool("gpu", 1));
  Node& node = cluster.nodes()[0];
  ResourceRegistry& r = cluster.resources();
  const ResourceId gpu = r.Find("nvidia.com/gpu");
  EXPECT_EQ(node.Allocatable(gpu), 2);

  ResourceList a;
  a.Set(ResourceRegistry::kCpuId, 500);
  a.Set(gpu, 1);
  ResourceList b;  // no requests at all
  ResourceList c;
  c.Set(ResourceRegistry::kMemoryId, 4096);

  node.Reserve(a);
  EXPECT_EQ(node.Requested(ResourceRegistry::kCpuId), 500);
  EXPECT_EQ(node.Requested(ResourceRegistry::kMemoryId), 0);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kCpuId), 500);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kMemoryId), 200);
  EXPECT_EQ(node.Requested(gpu), 1);
  node.Reserve(b);
  EXPECT_EQ(node.Requested(ResourceRegistry::kCpuId), 500);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kCpuId), 600);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kMemoryId), 400);
  node.Reserve(c);
  EXPECT_EQ(node.Requested(ResourceRegistry::kMemoryId), 4096);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kCpuId), 700);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kMemoryId), 4496);
  EXPECT_EQ(node.pod_count(), 3);

  node.Unreserve(a);
  EXPECT_EQ(node.Requested(ResourceRegistry::kCpuId), 0);
  EXPECT_EQ(node.Requested(gpu), 0);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kCpuId), 200);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kMemoryId), 4296);
  node.Unreserve(b);
  node.Unreserve(c);
  EXPECT_EQ(node.pod_count(), 0);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kCpuId), 0);
  EXPECT_EQ(node.NonZeroRequested(ResourceRegistry::kMemoryId), 0);
  EXPECT_EQ(node.Requested(ResourceRegistry::kMemoryId), 0);
}

// A resource the node never advertised reads as 0 and can still be
// reserved (NodeResourcesFit is what keeps pods off such nodes).
TEST(NodeTest, UnknownResourceReadsZero) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 1));
  Node& node = cluster.nodes()[0];
  const ResourceId mig = cluster.resources().Intern("nvidia.com/mig-1g.5gb");
  EXPECT_EQ(node.Allocatable(mig), 0);
  EXPECT_EQ(node.Requested(mig), 0);
  ResourceList r;
  r.Set(mig, 1);
  node.Reserve(r);
  EXPECT_EQ(node.Requested(mig), 1);
  node.Unreserve(r);
  EXPECT_EQ(node.Requested(mig), 0);
}

}  // namespace
}  // namespace cluster_test
}  // namespace gpushare
