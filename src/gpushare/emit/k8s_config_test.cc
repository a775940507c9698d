#include "gpushare/emit/k8s_config.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/emit/kube_scheduler_config.h"
#include "gpushare/emit/node_setup_script.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

using emit_test::TestCatalog;

Scenario Read(const std::string& pools, const std::string& extra = "") {
  return emit_test::PoolsScenario("k", pools, extra);
}

std::vector<std::string> Paths(const std::vector<EmittedFile>& files) {
  std::vector<std::string> out;
  for (const EmittedFile& f : files) out.push_back(f.path);
  return out;
}

TEST(K8sConfigTest, OnlyTheFilesTheScenarioNeeds) {
  EXPECT_EQ(Paths(K8sConfigFiles(
                Read("    - {name: p, gpu: L4, nodes: 1,\n"
                     "       sharing: {scheme: time-slicing, replicas: 2}}\n"),
                TestCatalog())),
            (std::vector<std::string>{"README.md", "node-setup.sh",
                                      "device-plugin-config.yaml",
                                      "pod-patches.yaml"}));
  EXPECT_EQ(
      Paths(K8sConfigFiles(
          Read("    - {name: v, gpu: A100-80GB, nodes: 1,\n"
               "       sharing: {scheme: hami}}\n"
               "    - {name: m, gpu: A30, nodes: 1,\n"
               "       sharing: {scheme: mig, mig_config: all-1g.6gb}}\n",
               "scheduler:\n  scoring_strategy:\n    type: MostAllocated\n"
               "    resources: [{name: nvidia.com/gpu, weight: 3}]\n"),
          TestCatalog())),
      (std::vector<std::string>{
          "README.md", "node-setup.sh", "device-plugin-config.yaml",
          "mig-parted-config.yaml", "hami-values.yaml",
          "kube-scheduler-config.yaml", "pod-patches.yaml"}));
}

TEST(K8sConfigTest, EveryYamlFileParsesAndObjectsAreKubectlShaped) {
  const Scenario s = ReadScenarioFile(
      std::string(GS_TESTDATA_DIR) + "/../../examples/default.yaml",
      TestCatalog());
  for (const EmittedFile& f : K8sConfigFiles(s, TestCatalog())) {
    if (f.path.size() < 5 || f.path.substr(f.path.size() - 5) != ".yaml") {
      continue;
    }
    const std::vector<YAML::Node> docs = YAML::LoadAll(f.text);
    EXPECT_FALSE(docs.empty()) << f.path;
    for (const YAML::Node& d : docs) {
      ASSERT_TRUE(d.IsMap()) << f.path;
      if (d["kind"]) {
        EXPECT_TRUE(d["apiVersion"].IsDefined()) << f.path;
        EXPECT_TRUE(d["metadata"]["name"].IsDefined()) << f.path;
      }
    }
  }
}

TEST(KubeSchedulerConfigTest, MostAllocatedOverGpusByHand) {
  SchedulerProfile p;
  EXPECT_FALSE(NeedsKubeSchedulerConfig(p));
  p.scoring_strategy.type = ScoringStrategy::Type::kMostAllocated;
  p.scoring_strategy.resources = {{"cpu", 1}, {"nvidia.com/gpu", 3}};
  ASSERT_TRUE(NeedsKubeSchedulerConfig(p));
  const std::string text = KubeSchedulerConfigYaml(p, /*hami_pools=*/false);
  EXPECT_EQ(text.substr(text.find("apiVersion")),
            "apiVersion: kubescheduler.config.k8s.io/v1\n"
            "kind: KubeSchedulerConfiguration\n"
            "profiles:\n"
            "  - schedulerName: default-scheduler\n"
            "    pluginConfig:\n"
            "      - name: NodeResourcesFit\n"
            "        args:\n"
            "          scoringStrategy:\n"
            "            type: MostAllocated\n"
            "            resources:\n"
            "              - name: cpu\n"
            "                weight: 1\n"
            "              - name: nvidia.com/gpu\n"
            "                weight: 3\n");
}

// Pods patched to hami-scheduler are not kube-scheduler's to score: the
// header says where their scoring is set.
TEST(KubeSchedulerConfigTest, SaysItDoesNotScoreHamiPods) {
  SchedulerProfile p;
  p.scoring_strategy.type = ScoringStrategy::Type::kMostAllocated;
  const std::string with = KubeSchedulerConfigYaml(p, /*hami_pools=*/true);
  EXPECT_NE(with.find("# It does not score the pods of the vGPU (HAMi) "
                      "pools"),
            std::string::npos)
      << with;
  EXPECT_NE(with.find("scheduler.defaultSchedulerPolicy in hami-values.yaml"),
            std::string::npos);
  EXPECT_EQ(KubeSchedulerConfigYaml(p, /*hami_pools=*/false).find("HAMi"),
            std::string::npos);
  EXPECT_NO_THROW(YAML::Load(with));
}

TEST(KubeSchedulerConfigTest, BackoffOnlyWhenNotKubeDefaults) {
  SchedulerProfile p;
  EXPECT_FALSE(NeedsKubeSchedulerConfig(p));  // off: a cluster's 1 s / 10 s
  p.pod_initial_backoff_s = 1;
  p.pod_max_backoff_s = 10;
  EXPECT_FALSE(NeedsKubeSchedulerConfig(p));  // kube-scheduler's own
  p.pod_initial_backoff_s = 2;
  p.pod_max_backoff_s = 60;
  ASSERT_TRUE(NeedsKubeSchedulerConfig(p));
  const YAML::Node c =
      YAML::Load(KubeSchedulerConfigYaml(p, /*hami_pools=*/false));
  EXPECT_EQ(c["podInitialBackoffSeconds"].as<int>(), 2);
  EXPECT_EQ(c["podMaxBackoffSeconds"].as<int>(), 60);
}

TEST(KubeSchedulerConfigTest, RequestedToCapacityRatioFollowsUpstreamRules) {
  SchedulerProfile p;
  p.percentage_of_nodes_to_score = 50;
  p.scoring_strategy.type = ScoringStrategy::Type::kRequestedToCapacityRatio;
  p.scoring_strategy.resources = {{"nvidia.com/gpu", 3}};
  p.scoring_strategy.shape = {{0, 0}, {100, 10}};
  const YAML::Node c =
      YAML::Load(KubeSchedulerConfigYaml(p, /*hami_pools=*/false));
  EXPECT_EQ(c["percentageOfNodesToScore"].as<int>(), 50);
  const YAML::Node s =
      c["profiles"][0]["pluginConfig"][0]["args"]["scoringStrategy"];
  EXPECT_EQ(s["type"].as<std::string>(), "RequestedToCapacityRatio");
  // ValidateNodeResourcesFitArgs: weights in (0, 100], shape utilization
  // strictly increasing in [0, 100], score in [0, 10].
  for (const YAML::Node& r : s["resources"]) {
    EXPECT_GT(r["weight"].as<int>(), 0);
    EXPECT_LE(r["weight"].as<int>(), 100);
  }
  int last = -1;
  for (const YAML::Node& point : s["requestedToCapacityRatio"]["shape"]) {
    EXPECT_GT(point["utilization"].as<int>(), last);
    last = point["utilization"].as<int>();
    EXPECT_LE(last, 100);
    EXPECT_GE(point["score"].as<int>(), 0);
    EXPECT_LE(point["score"].as<int>(), 10);
  }
  EXPECT_EQ(last, 100);
}

TEST(NodeSetupScriptTest, LabelsTaintsAndConfigSelectors) {
  const std::string script = NodeSetupScript(
      Read("    - name: m\n"
           "      gpu: A30\n"
           "      nodes: 2\n"
           "      labels: {tier: prod}\n"
           "      taints: [{key: dedicated, value: m, effect: NoSchedule}]\n"
           "      sharing: {scheme: mig, mig_config: all-1g.6gb}\n"
           "    - {name: v, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: hami}}\n"
           "    - {name: cpu, nodes: 1, gpus_per_node: 0}\n"),
      TestCatalog());
  EXPECT_NE(script.find("kubectl label node 'm-1' "
                        "'gpushare.io/node-pool=m' 'tier=prod' "
                        "'nvidia.com/device-plugin.config=m' "
                        "'nvidia.com/mig.config=all-1g.6gb' --overwrite\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("kubectl taint node 'm-0' 'dedicated=m:NoSchedule' "
                        "--overwrite\n"),
            std::string::npos);
  EXPECT_NE(script.find("kubectl label node 'v-0' "
                        "'gpushare.io/node-pool=v' gpu=on --overwrite\n"),
            std::string::npos)
      << script;
  EXPECT_EQ(script.find("cpu-0"), std::string::npos);
}

}  // namespace
}  // namespace gpushare
