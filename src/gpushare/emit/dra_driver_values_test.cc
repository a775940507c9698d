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

// Both DRA pools by the pool label node-setup.sh sets on every node (not by
// their selectors or today's node names: a node added later gets the
// plugin), the chart's toleration and pool a's taint.
constexpr char kDraValuesPlacement[] =
    "kubeletPlugin:\n"
    "  affinity:\n"
    "    nodeAffinity:\n"
    "      requiredDuringSchedulingIgnoredDuringExecution:\n"
    "        nodeSelectorTerms:\n"
    "          # the DRA pools' nodes, by the pool label node-setup.sh sets\n"
    "          - matchExpressions:\n"
    "              - key: \"gpushare.io/node-pool\"\n"
    "                operator: In\n"
    "                values:\n"
    "                  - \"a\"\n"
    "                  - \"b\"\n"
    "  tolerations:\n"
    "  - key: nvidia.com/gpu\n"
    "    operator: Exists\n"
    "    effect: NoSchedule\n"
    "  - key: dedicated\n"
    "    operator: Equal\n"
    "    value: \"ml\"\n"
    "    effect: NoSchedule\n";

// A 0.5 development chart: the only ones with consumable shares.
constexpr char kDevChart[] = "0.5.0-dev-95932046";

TEST(DraDriverValuesTest, ExclusivePoolsNeedNoGates) {
  const std::string yaml = DraDriverValuesYaml(DraValuesScenario());
  const std::string values =
      "nvidiaDriverRoot: \"/run/nvidia/driver\"\n"
      "resources:\n  gpus:\n    enabled: true\n"
      "gpuResourcesEnabledOverride: true\n" +
      std::string(kDraValuesPlacement);
  ASSERT_GE(yaml.size(), values.size());
  EXPECT_EQ(yaml.substr(yaml.size() - values.size()), values) << yaml;
  EXPECT_EQ(yaml.find("featureGates"), std::string::npos);
  EXPECT_EQ(yaml.find("consumableShares"), std::string::npos);
  // Written for the newest release, pinned in the command.
  EXPECT_NE(yaml.find("for chart version 0.4.1\n# (gpushare-sim's default"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("helm upgrade --install dra-driver-nvidia-gpu "
                      "oci://registry.k8s.io/dra-driver-nvidia/charts/"
                      "dra-driver-nvidia-gpu --version 0.4.1 --namespace "
                      "dra-driver-nvidia-gpu --create-namespace -f "
                      "dra-driver-values.yaml\n"),
            std::string::npos)
      << yaml;
}

TEST(DraDriverValuesTest, MemorySharesAndIntervalTurnTheirAlphaGatesOn) {
  Scenario s = DraValuesScenario();
  s.platform.dra_driver.chart_version = kDevChart;
  for (int i : {0, 1}) {
    s.pools[i].sharing = TimeSlicingSharing(4);
    s.pools[i].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  }
  s.pools[1].dra.time_slice_interval = DraTimeSliceInterval::kLong;
  const std::string yaml = DraDriverValuesYaml(s);
  const std::string values =
      "nvidiaDriverRoot: \"/run/nvidia/driver\"\n"
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
  s.platform.dra_driver.chart_version = kDevChart;
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
  s.platform.dra_driver.chart_version = kDevChart;
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
  s.platform.dra_driver.chart_version = kDevChart;
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

// nvidiaDriverRoot: the scenario's; "/" where the dump shows the GPU
// Operator without its driver; else the operator's driver root.
TEST(DraDriverValuesTest, DriverRootFollowsWhoInstallsTheDriver) {
  Scenario s = DraValuesScenario();
  std::string why;
  EXPECT_EQ(DraDriverRoot(s, &why), "/run/nvidia/driver");
  EXPECT_NE(why.find("driver.enabled: true"), std::string::npos) << why;
  s.platform.gpu_operator_driver = true;
  EXPECT_EQ(DraDriverRoot(s, &why), "/run/nvidia/driver");
  EXPECT_NE(why.find("driver DaemonSet runs"), std::string::npos) << why;
  s.platform.gpu_operator_driver = false;
  EXPECT_EQ(DraDriverRoot(s, &why), "/");
  EXPECT_NE(DraDriverValuesYaml(s).find("\nnvidiaDriverRoot: \"/\"\n"),
            std::string::npos);
  s.platform.dra_driver_root = "/home/kubernetes/bin/nvidia";
  EXPECT_EQ(DraDriverRoot(s, &why), "/home/kubernetes/bin/nvidia");
  EXPECT_EQ(why, "platform.dra_driver.driver_root");
}

// The release installed today (a 25.x chart's names) is upgraded in place:
// its release, namespace and name kept, the version it runs pinned.
TEST(DraDriverValuesTest, TheInstalledReleaseIsUpgradedInPlace) {
  Scenario s = DraValuesScenario();
  s.platform.dra_driver_today = {true, "nvidia-dra-driver-gpu",
                                 "nvidia-dra-driver-gpu",
                                 "nvidia-dra-driver-gpu", "0.5.0-dev-95932046",
                                 "dump.json"};
  const std::string yaml = DraDriverValuesYaml(s);
  EXPECT_NE(yaml.find("#   helm upgrade --install nvidia-dra-driver-gpu "
                      "oci://us-central1-docker.pkg.dev/k8s-staging-images/"
                      "dra-driver-nvidia/charts/dra-driver-nvidia-gpu "
                      "--version 0.5.0-dev-95932046 --namespace "
                      "nvidia-dra-driver-gpu --create-namespace -f "
                      "dra-driver-values.yaml\n"),
            std::string::npos)
      << yaml;
  const YAML::Node node = YAML::Load(yaml);
  EXPECT_EQ(node["nameOverride"].as<std::string>(), "nvidia-dra-driver-gpu");
  // Its objects already carry the 0.4 chart's name: no override.
  s.platform.dra_driver_today.name = "dra-driver-nvidia-gpu";
  EXPECT_FALSE(YAML::Load(DraDriverValuesYaml(s))["nameOverride"]);
}

// An imported pool's nodes are selected by the pool label too (a node the
// plan adds is not in today's names).
TEST(DraDriverValuesTest, ImportedPoolsAreSelectedByTheirPoolLabel) {
  Scenario s = DraValuesScenario();
  s.pools[0].members.push_back(NodeIdentity{});
  s.pools[0].members.back().name = "gpu-node-7";
  const std::string yaml = DraDriverValuesYaml(s);
  EXPECT_EQ(yaml.find("matchFields"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("gpu-node-7"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find(kDraValuesPlacement), std::string::npos) << yaml;
}

// Refused before anything is written: a feature the release lacks, and
// one the Kubernetes version has off.
TEST(DraDriverValuesTest, WhatTheReleaseOrKubernetesLacksIsRefused) {
  Scenario s = DraValuesScenario();
  s.pools[0].sharing = TimeSlicingSharing(4);
  s.pools[0].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  s.pools[1].sharing = s.pools[0].sharing;
  s.pools[1].dra = s.pools[0].dra;
  EXPECT_THROW(DraDriverValuesYaml(s), InputError);
  s.platform.dra_driver.chart_version = kDevChart;
  s.platform.kubernetes_version = "1.35";
  try {
    DraDriverValuesYaml(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("DRAConsumableCapacity"),
              std::string::npos)
        << e.what();
  }
  s.platform.feature_gates["DRAConsumableCapacity"] = true;
  const std::string yaml = DraDriverValuesYaml(s);
  EXPECT_NE(yaml.find("# Checked against Kubernetes 1.35 "
                      "(platform.kubernetes.version): each is on\n# there."),
            std::string::npos)
      << yaml;
}

TEST(DraDriverValuesTest, NoDraPoolNoValues) {
  EXPECT_EQ(DraDriverValuesYaml(PoolsScenario(
                "n", "    - {name: c, gpu: A100-80GB, nodes: 1}\n")),
            "");
}

}  // namespace
}  // namespace gpushare
