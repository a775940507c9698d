// Karpenter NodePools and NodeOverlays for hand-made pools, and what the
// CRD would refuse, refused here first.

#include "gpushare/emit/karpenter_node_pools.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <limits>

#include "gpushare/emit/autoscaler_test_scenario.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace karpenter_node_pools_test {
namespace {

using emit_test::TestCatalog;
using emit_test::WithoutComments;

// Pool kt: L4 time-sliced x4, label team=b; Karpenter 0..5 on g6.xlarge
// (1 GPU) or g6.12xlarge (4 GPUs), spot, at most 16 nvidia.com/gpu,
// consolidation after 30 s.
Scenario KarpenterScenario() {
  Scenario s = emit_test::PoolsScenario(
      "k",
      "    - {name: kt, gpu: L4, nodes: 1, gpus_per_node: 4,\n"
      "       labels: {team: b},\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n");
  NodeGroupAutoscaling& a = s.pools[0].autoscaling;
  a.provider = AutoscalerProvider::kKarpenter;
  a.min_nodes = 0;
  a.max_nodes = 5;
  a.karpenter.instance_types = {{"g6.xlarge", 1, 0.8, 0.3},
                                {"g6.12xlarge", 4, 4.6, 1.7}};
  a.karpenter.spot = true;
  // cpu in millicores and memory in MiB, as the scenario reader holds them.
  a.karpenter.limits = {
      {"cpu", 1500}, {"memory", 2048}, {"nvidia.com/gpu", 16}};
  a.karpenter.consolidate_after_s = 30;
  return s;
}

TEST(KarpenterNodePoolsTest, NodePoolByHand) {
  const std::string text =
      KarpenterNodePoolsYaml(KarpenterScenario(), TestCatalog(), {});
  EXPECT_EQ(WithoutComments(text),
            "---\n"
            "apiVersion: karpenter.sh/v1\n"
            "kind: NodePool\n"
            "metadata:\n"
            "  name: kt\n"
            "spec:\n"
            "  template:\n"
            "    metadata:\n"
            "      labels:\n"
            "        gpushare.io/node-pool: \"kt\"\n"
            "        nvidia.com/device-plugin.config: \"kt\"\n"
            "        nvidia.com/gpu.deploy.device-plugin: \"true\"\n"
            "        team: \"b\"\n"
            "    spec:\n"
            "      requirements:\n"
            "        - key: node.kubernetes.io/instance-type\n"
            "          operator: In\n"
            "          values: [\"g6.xlarge\", \"g6.12xlarge\"]\n"
            "        - key: karpenter.sh/capacity-type\n"
            "          operator: In\n"
            "          values: [\"spot\", \"on-demand\"]\n"
            "      nodeClassRef:\n"
            "        group: karpenter.k8s.aws\n"
            "        kind: EC2NodeClass\n"
            "        name: default\n"
            "  limits:\n"
            "    nodes: \"5\"\n"
            "    cpu: \"1500m\"\n"
            "    memory: \"2048Mi\"\n"
            "    nvidia.com/gpu: \"16\"\n"
            "  disruption:\n"
            "    consolidationPolicy: WhenEmptyOrUnderutilized\n"
            "    consolidateAfter: 30s\n"
            "    budgets:\n"
            "      - nodes: \"10%\"\n");
  EXPECT_NE(emit_test::CommentsJoined(text).find("issues 729 and 2140"),
            std::string::npos);
  const YAML::Node pool = YAML::Load(WithoutComments(text).substr(4));
  EXPECT_EQ(pool["spec"]["limits"]["nodes"].as<std::string>(), "5");
}

TEST(KarpenterNodePoolsTest, OwnShapeOnAwsAndOnDemand) {
  Scenario s = KarpenterScenario();
  KarpenterSettings& k = s.pools[0].autoscaling.karpenter;
  k.instance_types.clear();
  k.spot = false;
  k.limits.clear();
  k.consolidate_when_underutilized = false;
  k.consolidate_after_s = std::numeric_limits<double>::infinity();
  k.disruption_budget_fraction = 0.25;
  s.pools[0].autoscaling.min_nodes = 2;
  const std::string text =
      WithoutComments(KarpenterNodePoolsYaml(s, TestCatalog(), {}));
  EXPECT_NE(text.find("        - key: karpenter.k8s.aws/instance-gpu-count\n"
                      "          operator: In\n"
                      "          values: [\"4\"]\n"
                      "        - key: karpenter.sh/capacity-type\n"
                      "          operator: In\n"
                      "          values: [\"on-demand\"]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  limits:\n    nodes: \"5\"\n  disruption:\n"
                      "    consolidationPolicy: WhenEmpty\n"
                      "    consolidateAfter: Never\n"
                      "    budgets:\n      - nodes: \"25%\"\n"),
            std::string::npos)
      << text;
  // Another cloud's node class: no AWS label.
  KarpenterNodeClassRef gcp{"karpenter.k8s.gcp", "GCENodeClass", "gpu"};
  const std::string other = KarpenterNodePoolsYaml(s, TestCatalog(), gcp);
  EXPECT_EQ(other.find("instance-gpu-count"), std::string::npos);
  EXPECT_NE(other.find("        group: karpenter.k8s.gcp\n"
                       "        kind: GCENodeClass\n        name: gpu\n"),
            std::string::npos);
  EXPECT_NE(emit_test::CommentsJoined(other).find("keeps no minimum"),
            std::string::npos);
}

TEST(KarpenterNodePoolsTest, OverlaysPerInstanceType) {
  const std::string text =
      KarpenterNodeOverlaysYaml(KarpenterScenario(), TestCatalog());
  // 1 GPU x 4 replicas and 4 GPUs x 4 replicas.
  auto overlay = [](const std::string& type, int gpus) {
    return "---\napiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\n"
           "metadata:\n  name: kt-" +
           type +
           "\nspec:\n  requirements:\n"
           "    - key: karpenter.sh/nodepool\n      operator: In\n"
           "      values: [\"kt\"]\n"
           "    - key: node.kubernetes.io/instance-type\n      operator: In\n"
           "      values: [\"" +
           type +
           "\"]\n"
           "  capacity:\n    nvidia.com/gpu: \"" +
           std::to_string(gpus) + "\"\n";
  };
  EXPECT_EQ(WithoutComments(text),
            overlay("g6.xlarge", 4) + overlay("g6.12xlarge", 16));
  EXPECT_NE(emit_test::CommentsJoined(text).find("NodeOverlay=true"),
            std::string::npos);
  // Whole GPUs need none.
  Scenario whole = KarpenterScenario();
  whole.pools[0].sharing = ExclusiveSharing();
  EXPECT_EQ(KarpenterNodeOverlaysYaml(whole, TestCatalog()), "");
}

TEST(KarpenterNodePoolsTest, HamiOverlayDeclaresTheExtenderResources) {
  Scenario s = emit_test::PoolsScenario(
      "h",
      "    - {name: v, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: hami, hami: {split_count: 5}}}\n");
  s.pools[0].autoscaling.provider = AutoscalerProvider::kKarpenter;
  s.pools[0].autoscaling.max_nodes = 2;
  const YAML::Node overlay = YAML::Load(
      WithoutComments(KarpenterNodeOverlaysYaml(s, TestCatalog())).substr(4));
  EXPECT_EQ(overlay["metadata"]["name"].as<std::string>(), "v-gpus");
  EXPECT_EQ(overlay["spec"]["capacity"]["nvidia.com/gpu"].as<std::string>(),
            "10");
  EXPECT_TRUE(overlay["spec"]["capacity"]["nvidia.com/gpumem"].IsDefined());
}

TEST(KarpenterNodePoolsTest, Refusals) {
  const Catalog& c = TestCatalog();
  Scenario s = KarpenterScenario();
  s.pools[0].autoscaling.karpenter.disruption_budget_fraction = 0.125;
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
  s = KarpenterScenario();
  s.pools[0].autoscaling.karpenter.consolidate_after_s = 1.5;
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
  s = KarpenterScenario();
  s.pools[0].autoscaling.karpenter.limits["nodes"] = 3;
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
  s = KarpenterScenario();
  s.pools[0].labels["karpenter.sh/custom"] = "x";
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
  s = KarpenterScenario();
  s.pools[0].autoscaling.karpenter.instance_types[0].name = "bad type";
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
  s = KarpenterScenario();
  EXPECT_THROW(KarpenterNodePoolsYaml(
                   s, c, {"karpenter.k8s.aws", "EC2NodeClass", "Bad_Name"}),
               InputError);
  EXPECT_THROW(KarpenterNodePoolsYaml(
                   s, c, {"karpenter.k8s.aws", "ec2 class", "default"}),
               InputError);
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {"a/b", "EC2NodeClass", "x"}),
               InputError);
  s.pools[0].autoscaling.provider = AutoscalerProvider::kClusterAutoscaler;
  EXPECT_THROW(KarpenterNodePoolsYaml(s, c, {}), InputError);
}

}  // namespace
}  // namespace karpenter_node_pools_test
}  // namespace gpushare
