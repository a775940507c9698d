#include "gpushare/emit/dra_driver_values.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

using emit_test::PoolsScenario;

// Two DRA pools (one tainted, one selected by its own label) and a
// device-plugin pool, which the values leave alone.
Scenario DraValuesScenario() {
  return PoolsScenario(
      "v",
      "    - {name: a, gpu: A100-80GB, nodes: 1, devices: dra,\n"
      "       taints: [{key: dedicated, value: ml, effect: NoSchedule}]}\n"
      "    - {name: b, gpu: A100-80GB, nodes: 1, devices: dra,\n"
      "       match_labels: {cloud.example/group: b-nodes}}\n"
      "    - {name: c, gpu: A100-80GB, nodes: 1}\n");
}

constexpr char kDraValuesPlacement[] =
    "kubeletPlugin:\n"
    "  affinity:\n"
    "    nodeAffinity:\n"
    "      requiredDuringSchedulingIgnoredDuringExecution:\n"
    "        nodeSelectorTerms:\n"
    "          # pool a\n"
    "          - matchExpressions:\n"
    "              - key: \"gpushare.io/node-pool\"\n"
    "                operator: In\n"
    "                values: [\"a\"]\n"
    "          # pool b\n"
    "          - matchExpressions:\n"
    "              - key: \"cloud.example/group\"\n"
    "                operator: In\n"
    "                values: [\"b-nodes\"]\n"
    "  tolerations:\n"
    "  - key: nvidia.com/gpu\n"
    "    operator: Exists\n"
    "    effect: NoSchedule\n"
    "  - key: dedicated\n"
    "    operator: Equal\n"
    "    value: \"ml\"\n"
    "    effect: NoSchedule\n";

TEST(DraDriverValuesTest, ExclusivePoolsNeedNoGates) {
  const std::string yaml = DraDriverValuesYaml(DraValuesScenario());
  const std::string values =
      "resources:\n  gpus:\n    enabled: true\n"
      "gpuResourcesEnabledOverride: true\n" +
      std::string(kDraValuesPlacement);
  ASSERT_GE(yaml.size(), values.size());
  EXPECT_EQ(yaml.substr(yaml.size() - values.size()), values) << yaml;
  EXPECT_EQ(yaml.find("featureGates"), std::string::npos);
  EXPECT_EQ(yaml.find("consumableShares"), std::string::npos);
  EXPECT_NE(yaml.find("commit\n# 95932046"), std::string::npos) << yaml;
}

TEST(DraDriverValuesTest, MemorySharesAndIntervalTurnTheirAlphaGatesOn) {
  Scenario s = DraValuesScenario();
  for (int i : {0, 1}) {
    s.pools[i].sharing = TimeSlicingSharing(4);
    s.pools[i].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  }
  s.pools[1].dra.time_slice_interval = DraTimeSliceInterval::kLong;
  const std::string yaml = DraDriverValuesYaml(s);
  const std::string values =
      "resources:\n  gpus:\n    enabled: true\n"
      "gpuResourcesEnabledOverride: true\n"
      "consumableShares: \"memory\"\n"
      "featureGates:\n  ConsumableShares: true\n  TimeSlicingSettings: true\n" +
      std::string(kDraValuesPlacement);
  ASSERT_GE(yaml.size(), values.size());
  EXPECT_EQ(yaml.substr(yaml.size() - values.size()), values) << yaml;
  EXPECT_NE(yaml.find("alpha and off by default"), std::string::npos);
  const YAML::Node node = YAML::Load(yaml);
  EXPECT_EQ(node["consumableShares"].as<std::string>(), "memory");
}

TEST(DraDriverValuesTest, CountSharesAreAQuotedString) {
  Scenario s = DraValuesScenario();
  for (int i : {0, 1}) {
    s.pools[i].sharing = TimeSlicingSharing(4);
    s.pools[i].dra.consumable_shares = DraConsumableShares::kCount;
    s.pools[i].dra.shares = 4;
  }
  const std::string yaml = DraDriverValuesYaml(s);
  EXPECT_NE(yaml.find("\nconsumableShares: \"4\"\n"), std::string::npos);
  EXPECT_NE(yaml.find("featureGates:\n  ConsumableShares: true\nkubeletPlugin:"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(yaml.find("TimeSlicingSettings"), std::string::npos);
}

TEST(DraDriverValuesTest, UnlimitedBesideAPoolThatDoesNotShareIsRefused) {
  Scenario s = DraValuesScenario();
  s.pools[1].sharing = TimeSlicingSharing(4);
  s.pools[1].dra.consumable_shares = DraConsumableShares::kUnlimited;
  try {
    DraDriverValuesYaml(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "pool 'a' could not hand a claim a device of its own"),
              std::string::npos)
        << e.what();
  }
}

TEST(DraDriverValuesTest, PoolsThatDifferInSharesAreRefused) {
  Scenario s = DraValuesScenario();
  // Both share GPUs: a, 4 consumable shares (its replicas); b, unlimited.
  s.pools[0].sharing = TimeSlicingSharing(4);
  s.pools[1].sharing = TimeSlicingSharing(4);
  s.pools[1].dra.consumable_shares = DraConsumableShares::kUnlimited;
  try {
    DraDriverValuesYaml(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "node pools 'a' and 'b': NVIDIA's DRA driver reads one "
                  "consumable-shares mode"),
              std::string::npos)
        << e.what();
  }
}

// Dynamic MIG on pool a: the DynamicMIG gate, said to be alpha, and the
// MIG manager kept off its nodes.
TEST(DraDriverValuesTest, DynamicMigTurnsItsGateOn) {
  Scenario s = DraValuesScenario();
  s.pools[0].gpu_model = "H100-80GB";
  s.pools[0].sharing = MigSharing(MigStrategy::kMixed, "");
  s.pools[0].sharing.mig.dynamic = true;
  const std::string values = DraDriverValuesYaml(s);
  EXPECT_NE(values.find("featureGates:\n  DynamicMIG: true\n"),
            std::string::npos)
      << values;
  EXPECT_NE(values.find("# The feature gates below are alpha and off by "
                        "default"),
            std::string::npos);
  EXPECT_NE(values.find("nvidia.com/gpu.deploy.mig-manager=false"),
            std::string::npos);
  EXPECT_NE(values.find("# MPSSupport (alpha, off) is not needed."),
            std::string::npos);
}

// The driver refuses DynamicMIG with MPSSupport (featuregates.go), and one
// release cannot serve a static MIG layout beside dynamic MIG.
TEST(DraDriverValuesTest, DynamicMigBesideMpsOrStaticMigIsRefused) {
  Scenario s = DraValuesScenario();
  s.pools[0].gpu_model = "H100-80GB";
  s.pools[0].sharing = MigSharing(MigStrategy::kMixed, "");
  s.pools[0].sharing.mig.dynamic = true;
  Scenario mps = s;
  mps.pools[1].sharing = MpsSharing(2);
  EXPECT_THROW(
      {
        try {
          DraDriverValuesYaml(mps);
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("mutually exclusive"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      InputError);
  Scenario fixed = s;
  fixed.pools[1].sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  EXPECT_THROW(DraDriverValuesYaml(fixed), InputError);
}

TEST(DraDriverValuesTest, NoDraPoolNoValues) {
  EXPECT_EQ(DraDriverValuesYaml(PoolsScenario(
                "n", "    - {name: c, gpu: A100-80GB, nodes: 1}\n")),
            "");
}

}  // namespace
}  // namespace gpushare
