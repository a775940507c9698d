#include "gpushare/emit/gpu_operator_values.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/emit_test_scenarios.h"

namespace gpushare {
namespace {

using emit_test::PoolsScenario;
using emit_test::TestCatalog;

TEST(GpuOperatorValuesTest, ConfigMapsStrategyAndTolerations) {
  const Scenario s = PoolsScenario(
      "v",
      "    - name: m\n      gpu: A100-80GB\n      nodes: 1\n"
      "      taints: [{key: dedicated, value: prod, effect: NoSchedule}]\n"
      "      sharing: {scheme: mig, mig_config: all-balanced, mig_strategy: "
      "mixed}\n"
      "    - name: t\n      gpu: L4\n      nodes: 1\n"
      "      taints: [{key: nvidia.com/gpu, value: present, effect: "
      "NoSchedule},\n"
      "               {key: dedicated, value: prod, effect: NoSchedule}]\n"
      "      sharing: {scheme: time-slicing, replicas: 2}\n");
  const YAML::Node v = YAML::Load(GpuOperatorValuesYaml(s, TestCatalog()));
  EXPECT_EQ(v["devicePlugin"]["config"]["name"].as<std::string>(),
            "gpushare-device-plugin-config");
  EXPECT_EQ(v["devicePlugin"]["config"]["default"].as<std::string>(),
            "default");
  EXPECT_EQ(v["migManager"]["config"]["name"].as<std::string>(),
            "custom-mig-config");
  EXPECT_EQ(v["migManager"]["config"]["default"].as<std::string>(),
            "all-disabled");
  EXPECT_EQ(v["mig"]["strategy"].as<std::string>(), "mixed");
  const YAML::Node tol = v["daemonsets"]["tolerations"];
  ASSERT_EQ(tol.size(), 2u);  // the chart's default, then dedicated=prod once
  EXPECT_EQ(tol[0]["key"].as<std::string>(), "nvidia.com/gpu");
  EXPECT_EQ(tol[0]["operator"].as<std::string>(), "Exists");
  EXPECT_EQ(tol[1]["key"].as<std::string>(), "dedicated");
  EXPECT_EQ(tol[1]["value"].as<std::string>(), "prod");
  EXPECT_EQ(tol[1]["effect"].as<std::string>(), "NoSchedule");
}

TEST(GpuOperatorValuesTest, StrategyEmptyWhenPoolsDiffer) {
  const Scenario mixed_and_mps = PoolsScenario(
      "v",
      "    - {name: m, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: mig, mig_config: all-balanced,\n"
      "                 mig_strategy: mixed}}\n"
      "    - {name: s, gpu: L4, nodes: 1, sharing: {scheme: mps, replicas: "
      "2}}\n");
  const ClusterMigStrategy st =
      ClusterMigStrategyOf(mixed_and_mps, TestCatalog());
  EXPECT_EQ(st.strategy, "");
  EXPECT_EQ(st.why_per_node, "MPS pools cannot run under the mixed strategy");
  EXPECT_EQ(YAML::Load(GpuOperatorValuesYaml(mixed_and_mps, TestCatalog()))
                ["mig"]["strategy"].as<std::string>(),
            "");
  const Scenario none = PoolsScenario(
      "v", "    - {name: t, gpu: L4, nodes: 1}\n");
  EXPECT_EQ(ClusterMigStrategyOf(none, TestCatalog()).strategy, "single");
  const YAML::Node v = YAML::Load(GpuOperatorValuesYaml(none, TestCatalog()));
  EXPECT_FALSE(v["migManager"].IsDefined());
}

}  // namespace
}  // namespace gpushare
