// cluster-autoscaler's Helm values for hand-made pools: every flag as the
// chart passes it, the per-group differences, and the refusals.

#include "gpushare/emit/cluster_autoscaler_values.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/autoscaler_test_scenario.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace cluster_autoscaler_values_test {
namespace {

using emit_test::CaScenario;
using emit_test::WithoutComments;
using Options = std::vector<std::pair<std::string, std::string>>;

TEST(ClusterAutoscalerValuesTest, AwsValuesByHand) {
  const std::string text =
      ClusterAutoscalerValuesYaml(CaScenario(), AutoscalerCloud::kAws);
  // The first pool's flags: 300 s unneeded is 5m, GPU threshold 0.3, the
  // rest cluster-autoscaler's defaults.
  EXPECT_EQ(WithoutComments(text),
            "extraArgs:\n"
            "  scan-interval: 10s\n"
            "  scale-down-unneeded-time: 5m\n"
            "  scale-down-delay-after-add: 10m\n"
            "  scale-down-utilization-threshold: 0.5\n"
            "  scale-down-gpu-utilization-threshold: 0.3\n"
            "  max-node-provision-time: 15m\n"
            "  max-graceful-termination-sec: 600\n"
            "  new-pod-scale-up-delay: 0s\n"
            "  ignore-daemonsets-utilization: true\n"
            "  expander: least-waste\n"
            "cloudProvider: aws\n"
            "autoscalingGroups:\n"
            "  - name: ts\n    minSize: 0\n    maxSize: 4\n"
            "  - name: x\n    minSize: 1\n    maxSize: 2\n");
  EXPECT_NO_THROW(YAML::Load(text));
}

TEST(ClusterAutoscalerValuesTest, OtherCloudsLeaveTheGroupsOut) {
  const std::string capi = WithoutComments(
      ClusterAutoscalerValuesYaml(CaScenario(), AutoscalerCloud::kClusterApi));
  EXPECT_NE(capi.find("cloudProvider: clusterapi\n"), std::string::npos);
  EXPECT_EQ(capi.find("autoscalingGroups"), std::string::npos);
  const std::string any = WithoutComments(
      ClusterAutoscalerValuesYaml(CaScenario(), AutoscalerCloud::kAny));
  EXPECT_EQ(any.find("cloudProvider"), std::string::npos);
  EXPECT_EQ(any.find("autoscalingGroups"), std::string::npos);
}

TEST(ClusterAutoscalerValuesTest, GroupOptionsPerCloud) {
  Scenario s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.ignore_daemonsets_utilization =
      false;
  const auto& ts = s.pools[0].autoscaling.cluster_autoscaler;
  const auto& x = s.pools[1].autoscaling.cluster_autoscaler;
  // x keeps the defaults (10m, 0.5) where ts has 5m and 0.3.
  EXPECT_EQ(CaGroupOptions(x, ts, AutoscalerCloud::kAws),
            (Options{{"scaledownunneededtime", "10m"},
                     {"scaledowngpuutilizationthreshold", "0.5"},
                     {"ignoredaemonsetsutilization", "false"}}));
  EXPECT_EQ(CaGroupOptions(x, ts, AutoscalerCloud::kAny),
            (Options{{"scaledownunneededtime", "10m"},
                     {"scaledowngpuutilizationthreshold", "0.5"}}));
  EXPECT_TRUE(CaGroupOptions(ts, ts, AutoscalerCloud::kAws).empty());
  // AWS carries ignore-daemonsets-utilization per group; Cluster API and
  // "either" do not, so there the pools must agree.
  EXPECT_NO_THROW(CaDeploymentSettings(s, AutoscalerCloud::kAws));
  EXPECT_THROW(CaDeploymentSettings(s, AutoscalerCloud::kClusterApi),
               InputError);
  EXPECT_THROW(CaDeploymentSettings(s, AutoscalerCloud::kAny), InputError);
}

TEST(ClusterAutoscalerValuesTest, MaxNodeProvisionTimeIsPerGroupOnCapiOnly) {
  Scenario s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.max_node_provision_time_s = 1200;
  EXPECT_THROW(CaDeploymentSettings(s, AutoscalerCloud::kAws), InputError);
  EXPECT_EQ(
      CaGroupOptions(s.pools[1].autoscaling.cluster_autoscaler,
                     CaDeploymentSettings(s, AutoscalerCloud::kClusterApi),
                     AutoscalerCloud::kClusterApi),
      (Options{{"scaledownunneededtime", "10m"},
               {"scaledowngpuutilizationthreshold", "0.5"},
               {"maxnodeprovisiontime", "20m"}}));
}

TEST(ClusterAutoscalerValuesTest, DeploymentFlagsMustAgree) {
  Scenario s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.scan_interval_s = 30;
  try {
    ClusterAutoscalerValuesYaml(s, AutoscalerCloud::kAws);
    FAIL() << "pools disagreeing on --scan-interval were accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--scan-interval"), std::string::npos) << what;
    EXPECT_NE(what.find("10s and 30s"), std::string::npos) << what;
  }
  s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.expander = CaExpander::kPrice;
  EXPECT_THROW(ClusterAutoscalerValuesYaml(s, AutoscalerCloud::kAws),
               InputError);
  s = CaScenario();
  s.pools[1].autoscaling.cluster_autoscaler.max_graceful_termination_s = 1.5;
  EXPECT_THROW(ClusterAutoscalerValuesYaml(s, AutoscalerCloud::kAws),
               InputError);
}

TEST(ClusterAutoscalerValuesTest, PriorityExpander) {
  Scenario s = CaScenario();
  for (NodePoolSpec& p : s.pools) {
    p.autoscaling.cluster_autoscaler.expander = CaExpander::kPriority;
  }
  s.pools[0].autoscaling.cluster_autoscaler.priority = 10;
  const std::string text = WithoutComments(
      ClusterAutoscalerValuesYaml(s, AutoscalerCloud::kClusterApi));
  EXPECT_NE(text.find("  expander: priority\n"
                      "expanderPriorities:\n"
                      "  10:\n"
                      "    - \"^(.*/)?ts$\"\n"
                      "  0:\n"
                      "    - \"^(.*/)?x$\"\n"),
            std::string::npos)
      << text;
  const YAML::Node values = YAML::Load(text);
  EXPECT_EQ(values["expanderPriorities"][10][0].as<std::string>(),
            "^(.*/)?ts$");
}

TEST(ClusterAutoscalerValuesTest, NoClusterAutoscalerPool) {
  Scenario s = CaScenario();
  for (NodePoolSpec& p : s.pools) {
    p.autoscaling.provider = AutoscalerProvider::kKarpenter;
  }
  EXPECT_THROW(ClusterAutoscalerValuesYaml(s, AutoscalerCloud::kAws),
               InputError);
}

}  // namespace
}  // namespace cluster_autoscaler_values_test
}  // namespace gpushare
