#include "gpushare/emit/device_plugin_config.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/device_plugin_config_reader.h"
#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace device_plugin_config_test {
namespace {

using emit_test::TestCatalog;

Scenario Read(const std::string& pools) {
  return emit_test::PoolsScenario("d", pools);
}

std::string ErrorOf(const std::string& text) {
  try {
    ReadDevicePluginConfig(text, "c.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(DevicePluginConfigTest, TimeSlicingPoolByHand) {
  const Scenario s = Read(
      "    - {name: dev, gpu: A30, nodes: 2, gpus_per_node: 4,\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n");
  const auto configs = DevicePluginConfigs(s, TestCatalog());
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].name, "default");
  EXPECT_EQ(configs[0].yaml, "version: v1\nflags:\n  migStrategy: none\n");
  EXPECT_EQ(configs[1].name, "dev");
  EXPECT_EQ(configs[1].yaml,
            "version: v1\n"
            "flags:\n"
            "  migStrategy: none\n"
            "sharing:\n"
            "  timeSlicing:\n"
            "    renameByDefault: false\n"
            "    failRequestsGreaterThanOne: false\n"
            "    resources:\n"
            "      - name: nvidia.com/gpu\n"
            "        replicas: 4\n");
  const std::string map = DevicePluginConfigMap(s, TestCatalog());
  EXPECT_NE(map.find("kubectl label nodes -l gpushare.io/node-pool=dev "
                     "nvidia.com/device-plugin.config=dev --overwrite"),
            std::string::npos)
      << map;
  EXPECT_NE(map.find("rollout restart -n gpu-operator "
                     "daemonset/nvidia-device-plugin-daemonset"),
            std::string::npos);
  const YAML::Node cm = YAML::Load(map);
  EXPECT_EQ(cm["kind"].as<std::string>(), "ConfigMap");
  EXPECT_EQ(cm["data"]["dev"].as<std::string>(), configs[1].yaml);
  EXPECT_EQ(cm["data"]["default"].as<std::string>(), configs[0].yaml);
}

// Every pool served by NVIDIA's plugin reads back as the sharing it runs.
TEST(DevicePluginConfigTest, EveryPoolRoundTrips) {
  const Scenario s = Read(
      "    - {name: ts, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: time-slicing, replicas: 8,\n"
      "                 rename_by_default: true, replica_policy: packed}}\n"
      "    - {name: mps, gpu: H100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: mps, replicas: 3}}\n"
      "    - {name: tsmig, gpu: A100-40GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced, replicas: 2}}\n"
      "    - {name: single, gpu: A100-40GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mig, mig_config: all-1g.5gb}}\n"
      "    - {name: whole, gpu: L4, nodes: 1, gpus_per_node: 1}\n"
      "    - {name: vgpu, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: hami}}\n");
  const auto configs = DevicePluginConfigs(s, TestCatalog());
  ASSERT_EQ(configs.size(), 6u);  // default + every pool but HAMi's
  for (size_t i = 1; i < configs.size(); ++i) {
    const NodePoolSpec& pool = s.pools[i - 1];
    ASSERT_EQ(configs[i].pool, pool.name);
    const LoadedDevicePluginConfig c =
        ReadDevicePluginConfig(configs[i].yaml, configs[i].name);
    const SharingConfig& want = pool.sharing;
    EXPECT_EQ(c.sharing, want.sharing) << pool.name;
    EXPECT_EQ(c.mig_strategy, !want.mig_enabled ? "none"
                              : want.mig.strategy == MigStrategy::kMixed
                                  ? "mixed"
                                  : "single")
        << pool.name;
    if (want.sharing == DeviceSharing::kNone) {
      EXPECT_TRUE(c.resources.empty()) << pool.name;
      continue;
    }
    EXPECT_EQ(c.replicas.replicas, want.replicas.replicas) << pool.name;
    EXPECT_EQ(c.replicas.rename_by_default, want.replicas.rename_by_default);
    EXPECT_EQ(c.replicas.fail_requests_greater_than_one,
              want.replicas.fail_requests_greater_than_one)
        << pool.name;
    EXPECT_EQ(c.replicas.policy, want.replicas.policy) << pool.name;
  }
  // The time-sliced MIG pool shares each profile of all-balanced.
  const LoadedDevicePluginConfig mig =
      ReadDevicePluginConfig(configs[3].yaml, "tsmig");
  std::vector<std::string> names;
  for (const auto& [name, replicas] : mig.resources) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvidia.com/mig-1g.5gb",
                                             "nvidia.com/mig-2g.10gb",
                                             "nvidia.com/mig-3g.20gb"}));
}

TEST(DevicePluginConfigTest, ReaderAppliesUpstreamRules) {
  // MPS defaults failRequestsGreaterThanOne to true, time-slicing to false;
  // names get the nvidia.com/ prefix.
  EXPECT_TRUE(ReadDevicePluginConfig("sharing:\n  mps:\n    resources:\n"
                                     "      - {name: gpu, replicas: 2}\n",
                                     "c.yaml")
                  .replicas.fail_requests_greater_than_one);
  const LoadedDevicePluginConfig ts = ReadDevicePluginConfig(
      "version: v1\nsharing:\n  timeSlicing:\n    resources:\n"
      "      - {name: gpu, replicas: 10}\n",
      "c.yaml");
  EXPECT_FALSE(ts.replicas.fail_requests_greater_than_one);
  EXPECT_EQ(ts.resources[0].first, "nvidia.com/gpu");
  EXPECT_EQ(ErrorOf("version: v2\n"),
            "c.yaml:1:10: device-plugin config: unknown version 'v2' "
            "(expected v1)");
  EXPECT_EQ(ErrorOf("sharing:\n  timeSlicing:\n    resources:\n"
                    "      - {name: gpu, replicas: 1}\n"),
            "c.yaml:4:31: sharing.timeSlicing.resources[] replicas: 1 is out "
            "of range (expected 2..1000000)");
  EXPECT_EQ(ErrorOf("sharing:\n  mps:\n    resources:\n"
                    "      - {name: nvidia.com/mig-1g.5gb, replicas: 2}\n"),
            "c.yaml:4:16: sharing.mps.resources[]: MPS is supported on full "
            "GPUs only");
  EXPECT_NE(ErrorOf("sharing:\n  timeSlicing: {resources: [{name: gpu, "
                    "replicas: 2}]}\n  mps: {resources: [{name: gpu, "
                    "replicas: 2}]}\n")
                .find("mutually exclusive"),
            std::string::npos);
  EXPECT_NE(ErrorOf("sharing:\n  timeSlicing:\n    resources:\n"
                    "      - {name: gpu, replicas: 2, devices: \"0\"}\n")
                .find("only 'all'"),
            std::string::npos);
}

TEST(DevicePluginConfigTest, Errors) {
  try {
    DevicePluginConfigs(Read("    - {name: v, gpu: A100-80GB, nodes: 1,\n"
                             "       sharing: {scheme: hami}}\n"),
                        TestCatalog());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no pool served by NVIDIA's device "
                                         "plugin"),
              std::string::npos);
  }
  EXPECT_THROW(
      DevicePluginConfigs(Read("    - {name: default, gpu: L4, nodes: 1}\n"),
                          TestCatalog()),
      InputError);
}

}  // namespace
}  // namespace device_plugin_config_test
}  // namespace gpushare
