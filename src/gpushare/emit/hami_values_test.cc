#include "gpushare/emit/hami_values.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace hami_values_test {
namespace {

using emit_test::TestCatalog;

Scenario Read(const std::string& pools) {
  return emit_test::PoolsScenario("h", pools);
}

TEST(HamiValuesTest, OnePoolByHand) {
  const std::string text = HamiValuesYaml(
      Read("    - {name: vgpu, gpu: A100-80GB, nodes: 2,\n"
           "       sharing: {scheme: hami, hami: {split_count: 10,\n"
           "                 node_policy: binpack, gpu_policy: spread}}}\n"
           "    - {name: cpu, nodes: 1, gpus_per_node: 0}\n"),
      TestCatalog());
  const size_t body = text.find("scheduler:\n");
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(text.substr(body),
            "scheduler:\n"
            "  defaultSchedulerPolicy:\n"
            "    nodeSchedulerPolicy: binpack\n"
            "    gpuSchedulerPolicy: spread\n"
            "devicePlugin:\n"
            "  deviceSplitCount: 10\n"
            "  deviceMemoryScaling: 1\n"
            "  deviceCoreScaling: 1\n"
            "  nvidiaNodeSelector:\n"
            "    gpu: \"on\"\n");
  EXPECT_NE(text.find("#      kubectl label nodes -l gpushare.io/node-pool=vgpu "
                      "gpu=on --overwrite\n"
                      "#      kubectl label nodes -l gpushare.io/node-pool=vgpu "
                      "nvidia.com/gpu.deploy.device-plugin=false --overwrite\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("cpu-0"), std::string::npos);
  EXPECT_NE(text.find("helm upgrade --install hami hami --repo "
                      "https://project-hami.github.io/HAMi/ -n kube-system "
                      "--version 2.10.0 -f THIS_FILE"),
            std::string::npos);
}

TEST(HamiValuesTest, DifferingPoolsGetNodeConfigAndAnnotations) {
  const std::string text = HamiValuesYaml(
      Read("    - {name: a, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: hami}}\n"
           "    - {name: b, gpu: A100-80GB, nodes: 2,\n"
           "       sharing: {scheme: hami, hami: {split_count: 4,\n"
           "                 memory_scaling: 1.5, node_policy: spread}}}\n"),
      TestCatalog());
  const YAML::Node values = YAML::Load(text);
  EXPECT_EQ(values["devicePlugin"]["deviceSplitCount"].as<int>(), 10);
  const nlohmann::json nodes = nlohmann::json::parse(
      values["devicePlugin"]["nodeConfiguration"]["config"].as<std::string>());
  ASSERT_EQ(nodes["nodeconfig"].size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& n = nodes["nodeconfig"][i];
    EXPECT_EQ(n["name"], i == 0 ? "b-0" : "b-1");
    EXPECT_EQ(n["operatingmode"], "hami-core");
    EXPECT_EQ(n["devicesplitcount"], 4);
    EXPECT_DOUBLE_EQ(n["devicememoryscaling"].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(n["devicecorescaling"].get<double>(), 1);
  }
  EXPECT_NE(text.find("#   pool b: hami.io/node-scheduler-policy: \"spread\", "
                      "hami.io/gpu-scheduler-policy: \"spread\"\n"),
            std::string::npos)
      << text;
  EXPECT_FALSE(values["device-config"].IsDefined());
}

TEST(HamiValuesTest, DefaultMemoryAndCoresGoToDeviceConfig) {
  const YAML::Node values = YAML::Load(HamiValuesYaml(
      Read("    - {name: a, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: hami, hami: {default_memory_mib: 4096,\n"
           "                 default_cores: 20}}}\n"),
      TestCatalog()));
  const YAML::Node nvidia = YAML::Load(
      values["device-config"]["content"].as<std::string>())["nvidia"];
  EXPECT_EQ(nvidia["defaultMemory"].as<int>(), 4096);
  EXPECT_EQ(nvidia["defaultCores"].as<int>(), 20);
  EXPECT_EQ(nvidia["resourceMemoryName"].as<std::string>(),
            "nvidia.com/gpumem");
  EXPECT_EQ(nvidia["deviceSplitCount"].as<int>(), 10);
}

TEST(HamiValuesTest, Errors) {
  EXPECT_THROW(HamiValuesYaml(Read("    - {name: p, gpu: L4, nodes: 1}\n"),
                              TestCatalog()),
               InputError);
  try {
    HamiValuesYaml(
        Read("    - {name: a, gpu: A100-80GB, nodes: 1,\n"
             "       sharing: {scheme: hami}}\n"
             "    - {name: b, gpu: A100-80GB, nodes: 1,\n"
             "       sharing: {scheme: hami, hami: {default_cores: 30}}}\n"),
        TestCatalog());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("one cluster-wide setting"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hami_values_test
}  // namespace gpushare
