// The node groups' templates as ASG tags and Cluster API annotations, for
// hand-made pools: 2 x L4 time-sliced x4 advertise nvidia.com/gpu 8.

#include "gpushare/emit/cluster_autoscaler_node_groups.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "gpushare/emit/autoscaler_test_scenario.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace cluster_autoscaler_node_groups_test {
namespace {

using emit_test::CaScenario;
using emit_test::TestCatalog;
using emit_test::WithoutComments;

std::string Tag(const std::string& asg, const std::string& key,
                const std::string& value) {
  return "  - ResourceId: " + asg +
         "\n    ResourceType: auto-scaling-group\n    Key: " + key +
         "\n    Value: \"" + value + "\"\n    PropagateAtLaunch: false\n";
}

TEST(ClusterAutoscalerNodeGroupsTest, AsgTagsByHand) {
  const std::string text = AsgTagsYaml(CaScenario(), TestCatalog());
  const std::string t = "k8s.io/cluster-autoscaler/node-template/";
  EXPECT_EQ(
      WithoutComments(text),
      "Tags:\n" + Tag("ts", t + "resources/nvidia.com/gpu", "8") +
          Tag("ts", t + "label/gpushare.io/node-pool", "ts") +
          Tag("ts", t + "label/k8s.amazonaws.com/accelerator", "l4") +
          Tag("ts", t + "label/nvidia.com/device-plugin.config", "ts") +
          Tag("ts", t + "label/nvidia.com/gpu.deploy.device-plugin", "true") +
          Tag("ts", t + "label/team", "a") +
          Tag("ts", t + "taint/gpu", "shared:NoSchedule") +
          Tag("x", t + "resources/nvidia.com/gpu", "1") +
          Tag("x", t + "label/gpushare.io/node-pool", "x") +
          Tag("x", t + "label/k8s.amazonaws.com/accelerator", "l4") +
          Tag("x", t + "label/nvidia.com/device-plugin.config", "x") +
          Tag("x", t + "label/nvidia.com/gpu.deploy.device-plugin", "true") +
          // x's own flags where they differ from the deployment's (ts's).
          Tag("x", t + "autoscaling-options/scaledownunneededtime", "10m") +
          Tag("x", t + "autoscaling-options/scaledowngpuutilizationthreshold",
              "0.5"));
  // The pathology in the comments: 2 physical GPUs, 8 replicas, 4x.
  EXPECT_NE(emit_test::CommentsJoined(text).find(
                "nvidia.com/gpu 2 where a ready node advertises 8, and "
                "provision up to 4x"),
            std::string::npos)
      << text;
  const YAML::Node input = YAML::Load(text);
  EXPECT_EQ(input["Tags"].size(), 14u);
  EXPECT_EQ(input["Tags"][0]["Value"].as<std::string>(), "8");
  EXPECT_FALSE(input["Tags"][0]["PropagateAtLaunch"].as<bool>());
}

bool ShellSyntaxOk(const std::string& script) {
  char path[] = "/tmp/gs_ca_node_groups_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return false;
  {
    std::ofstream out(path);
    out << script;
  }
  const int rc = std::system((std::string("sh -n ") + path).c_str());
  std::remove(path);
  return rc == 0;
}

TEST(ClusterAutoscalerNodeGroupsTest, MachineDeploymentAnnotationsByHand) {
  const std::string text =
      MachineDeploymentAnnotationsScript(CaScenario(), TestCatalog());
  const std::string c = "capacity.cluster-autoscaler.kubernetes.io/";
  const std::string g = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-";
  // The pools' defaults: 96 cores, 1 TiB, 110 pods.
  EXPECT_EQ(
      WithoutComments(text),
      "set -eu\nNAMESPACE=\"${NAMESPACE:-default}\"\n\n"
      "kubectl annotate --overwrite machinedeployment ts -n \"$NAMESPACE\" \\\n"
      "  " +
          g + "min-size=0 \\\n  " + g +
          "max-size=4 \\\n"
          "  " +
          c + "cpu=96 \\\n  " + c +
          "memory=1048576Mi \\\n"
          "  " +
          c + "maxPods=110 \\\n  " + c +
          "gpu-type=nvidia.com/gpu \\\n"
          "  " +
          c +
          "gpu-count=8 \\\n"
          "  " +
          c +
          "labels=cluster-api/accelerator=l4,gpushare.io/node-pool=ts,"
          "nvidia.com/device-plugin.config=ts,"
          "nvidia.com/gpu.deploy.device-plugin=true,team=a \\\n"
          "  " +
          c +
          "taints=gpu=shared:NoSchedule\n\n"
          "kubectl annotate --overwrite machinedeployment x -n \"$NAMESPACE\" "
          "\\\n"
          "  " +
          g + "min-size=1 \\\n  " + g +
          "max-size=2 \\\n"
          "  " +
          c + "cpu=96 \\\n  " + c +
          "memory=1048576Mi \\\n"
          "  " +
          c + "maxPods=110 \\\n  " + c +
          "gpu-type=nvidia.com/gpu \\\n"
          "  " +
          c +
          "gpu-count=1 \\\n"
          "  " +
          c +
          "labels=cluster-api/accelerator=l4,gpushare.io/node-pool=x,"
          "nvidia.com/device-plugin.config=x,"
          "nvidia.com/gpu.deploy.device-plugin=true \\\n"
          "  cluster.x-k8s.io/autoscaling-options-scaledownunneededtime=10m "
          "\\\n"
          "  cluster.x-k8s.io/autoscaling-options-"
          "scaledowngpuutilizationthreshold=0.5\n");
  EXPECT_EQ(text.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_TRUE(ShellSyntaxOk(text));
}

TEST(ClusterAutoscalerNodeGroupsTest, MixedMigOnCapiKeepsTheLargestResource) {
  Scenario s = emit_test::PoolsScenario(
      "m",
      "    - name: mig\n"
      "      gpu: A100-40GB\n"
      "      nodes: 1\n"
      "      gpus_per_node: 2\n"
      "      sharing:\n"
      "        scheme: mig\n"
      "        mig_strategy: mixed\n"
      "        mig_layouts: [[\"3g.20gb\", \"2g.10gb\"], [\"1g.5gb:7\"]]\n");
  s.pools[0].autoscaling.provider = AutoscalerProvider::kClusterAutoscaler;
  s.pools[0].autoscaling.max_nodes = 3;
  const std::string text = MachineDeploymentAnnotationsScript(s, TestCatalog());
  EXPECT_NE(text.find("gpu-type=nvidia.com/mig-1g.5gb \\\n"
                      "  capacity.cluster-autoscaler.kubernetes.io/"
                      "gpu-count=7 \\\n"),
            std::string::npos)
      << text;
  // The other two profiles cannot be given: the comment names them.
  EXPECT_NE(emit_test::CommentsJoined(text).find(
                "nvidia.com/mig-2g.10gb 1, nvidia.com/mig-3g.20gb 1"),
            std::string::npos)
      << text;
  EXPECT_TRUE(ShellSyntaxOk(text));
  // On AWS each profile is its own tag.
  const std::string tags = AsgTagsYaml(s, TestCatalog());
  for (const char* r : {"mig-1g.5gb", "mig-2g.10gb", "mig-3g.20gb"}) {
    EXPECT_NE(tags.find(std::string("node-template/resources/nvidia.com/") + r),
              std::string::npos)
        << r;
  }
}

TEST(ClusterAutoscalerNodeGroupsTest, HamiSaysTheTagDoesNotCloseIt) {
  Scenario s = emit_test::PoolsScenario(
      "h",
      "    - {name: v, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: hami, hami: {split_count: 5}}}\n");
  s.pools[0].autoscaling.provider = AutoscalerProvider::kClusterAutoscaler;
  s.pools[0].autoscaling.max_nodes = 3;
  const std::string tags = AsgTagsYaml(s, TestCatalog());
  const YAML::Node input = YAML::Load(tags);
  EXPECT_EQ(input["Tags"][0]["Key"].as<std::string>(),
            "k8s.io/cluster-autoscaler/node-template/resources/nvidia.com/gpu");
  EXPECT_EQ(input["Tags"][0]["Value"].as<std::string>(), "10");
  EXPECT_EQ(tags.find("resources/nvidia.com/gpumem"), std::string::npos);
  EXPECT_NE(emit_test::CommentsJoined(tags).find("HAMi/HAMi issue 1099"),
            std::string::npos);
}

TEST(ClusterAutoscalerNodeGroupsTest, Refusals) {
  Scenario s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.new_pod_scale_up_delay_s = 5;
  EXPECT_THROW(AsgTagsYaml(s, TestCatalog()), InputError);
  EXPECT_THROW(MachineDeploymentAnnotationsScript(s, TestCatalog()),
               InputError);
}

}  // namespace
}  // namespace cluster_autoscaler_node_groups_test
}  // namespace gpushare
