// Node-group templates: what a ready node of an autoscaled pool advertises,
// counted by hand from the pools' GPUs and sharing.

#include "gpushare/emit/node_group_template.h"

#include <gtest/gtest.h>

#include <limits>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace node_group_template_test {
namespace {

using emit_test::TestCatalog;
using Resources = std::vector<std::pair<std::string, int64_t>>;

TEST(NodeGroupTemplateTest, GoDurations) {
  EXPECT_EQ(GoDuration(0), "0s");
  EXPECT_EQ(GoDuration(10), "10s");
  EXPECT_EQ(GoDuration(600), "10m");
  EXPECT_EQ(GoDuration(90), "1m30s");
  EXPECT_EQ(GoDuration(3600 + 120 + 5), "1h2m5s");
  EXPECT_EQ(GoDuration(0.5), "500ms");
  EXPECT_EQ(GoDuration(1.5), "1500ms");
  EXPECT_THROW(GoDuration(-1), InputError);
  EXPECT_THROW(GoDuration(std::numeric_limits<double>::infinity()), InputError);
  EXPECT_THROW(GoDuration(0.0001), InputError);
}

TEST(NodeGroupTemplateTest, TimeSlicingAdvertisesReplicas) {
  const Scenario s = emit_test::PoolsScenario(
      "t",
      "    - {name: ts, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       labels: {team: a},\n"
      "       taints: [{key: gpu, value: shared, effect: NoSchedule}],\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n");
  const NodeGroupTemplate t =
      NodeGroupTemplateOf(s.pools[0], "", TestCatalog());
  // 2 GPUs x 4 replicas.
  EXPECT_EQ(t.resources, (Resources{{"nvidia.com/gpu", 8}}));
  EXPECT_TRUE(t.extender_resources.empty());
  EXPECT_EQ(t.physical_gpus, 2);
  EXPECT_FALSE(t.dra);
  EXPECT_EQ(t.labels, (Labels{{"gpushare.io/node-pool", "ts"},
                              {"nvidia.com/device-plugin.config", "ts"},
                              {"nvidia.com/gpu.deploy.device-plugin", "true"},
                              {"team", "a"}}));
  ASSERT_EQ(t.taints.size(), 1u);
  EXPECT_EQ(t.taints[0].key, "gpu");
  // An instance type with 8 of the GPUs: 32 replicas.
  EXPECT_EQ(NodeGroupTemplateOf(s.pools[0], "", TestCatalog(), 8).resources,
            (Resources{{"nvidia.com/gpu", 32}}));
}

TEST(NodeGroupTemplateTest, RenamedReplicasAndMigDevices) {
  const Scenario s = emit_test::PoolsScenario(
      "t",
      "    - {name: ts, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: time-slicing, replicas: 3,\n"
      "                 rename_by_default: true}}\n"
      "    - name: mig\n"
      "      gpu: A100-40GB\n"
      "      nodes: 1\n"
      "      gpus_per_node: 2\n"
      "      sharing:\n"
      "        scheme: mig\n"
      "        mig_strategy: mixed\n"
      "        mig_layouts: [[\"3g.20gb\", \"2g.10gb\"], [\"1g.5gb:7\"]]\n");
  EXPECT_EQ(NodeGroupTemplateOf(s.pools[0], "", TestCatalog()).resources,
            (Resources{{"nvidia.com/gpu.shared", 6}}));
  const auto mig = MigConfigsOf(s, TestCatalog());
  ASSERT_EQ(mig.count("mig"), 1u);
  const NodeGroupTemplate t =
      NodeGroupTemplateOf(s.pools[1], mig.at("mig"), TestCatalog());
  EXPECT_EQ(t.resources, (Resources{{"nvidia.com/mig-1g.5gb", 7},
                                    {"nvidia.com/mig-2g.10gb", 1},
                                    {"nvidia.com/mig-3g.20gb", 1}}));
  EXPECT_EQ(t.labels.at("nvidia.com/mig.config"), mig.at("mig"));
}

TEST(NodeGroupTemplateTest, HamiAdvertisesOnlyTheVgpuCount) {
  const Scenario s = emit_test::PoolsScenario(
      "t",
      "    - {name: v, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: hami, hami: {split_count: 5}}}\n");
  const NodeGroupTemplate t =
      NodeGroupTemplateOf(s.pools[0], "", TestCatalog());
  EXPECT_EQ(t.resources, (Resources{{"nvidia.com/gpu", 10}}));
  // gpumem and gpucores are the extender's, not kubelet's.
  std::map<std::string, int64_t> ext(t.extender_resources.begin(),
                                     t.extender_resources.end());
  EXPECT_EQ(ext.count("nvidia.com/gpu"), 0u);
  EXPECT_EQ(ext.count("nvidia.com/gpumem"), 1u);
  EXPECT_EQ(t.labels.at("gpu"), "on");
}

TEST(NodeGroupTemplateTest, AutoscaledPoolsByProvider) {
  Scenario s = emit_test::PoolsScenario(
      "t",
      "    - {name: a, gpu: L4, nodes: 1, gpus_per_node: 1}\n"
      "    - {name: b, gpu: L4, nodes: 1, gpus_per_node: 1}\n"
      "    - {name: c, nodes: 1, gpus_per_node: 0}\n");
  s.pools[1].autoscaling.provider = AutoscalerProvider::kKarpenter;
  s.pools[2].autoscaling.provider = AutoscalerProvider::kKarpenter;
  const auto k = AutoscaledPools(s, AutoscalerProvider::kKarpenter);
  ASSERT_EQ(k.size(), 1u);  // c has no GPUs
  EXPECT_EQ(k[0]->name, "b");
  EXPECT_TRUE(
      AutoscaledPools(s, AutoscalerProvider::kClusterAutoscaler).empty());
}

}  // namespace
}  // namespace node_group_template_test
}  // namespace gpushare
