#include "gpushare/emit/k8s_config.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <optional>

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

// DRA pools: the driver's values and DRA objects after node-setup.sh, no
// device-plugin ConfigMap; leaving DRA uninstalls the driver first.
TEST(K8sConfigTest, DraPoolsGetTheDriverAndTheirObjects) {
  const Scenario dra =
      Read("    - {name: d, gpu: A100-80GB, nodes: 1, devices: dra}\n");
  const std::vector<EmittedFile> files = K8sConfigFiles(dra, TestCatalog());
  EXPECT_EQ(Paths(files),
            (std::vector<std::string>{"README.md", "gpu-operator-values.yaml",
                                      "node-setup.sh", "dra-driver-values.yaml",
                                      "dra-objects.yaml", "pod-patches.yaml",
                                      "apply.sh", "rollback.sh"}));
  EXPECT_EQ(files[2].text.find("nvidia.com/device-plugin.config=d"),
            std::string::npos);
  EXPECT_EQ(files[1].text.find("devicePlugin:"), std::string::npos);
  const Scenario plugin = Read("    - {name: d, gpu: A100-80GB, nodes: 1}\n");
  const std::string readme = K8sConfigFiles(plugin, TestCatalog(), &dra)[0].text;
  EXPECT_NE(readme.find("helm uninstall dra-driver-nvidia-gpu -n "
                        "dra-driver-nvidia-gpu"),
            std::string::npos)
      << readme;
  EXPECT_LT(readme.find("helm uninstall dra-driver-nvidia-gpu"),
            readme.find("sh node-setup.sh"));
  // apply.sh saves the driver's release and uninstalls it, keeping its
  // history for rollback.sh.
  std::string apply;
  for (const EmittedFile& f : K8sConfigFiles(plugin, TestCatalog(), &dra)) {
    if (f.path == "apply.sh") apply = f.text;
  }
  EXPECT_NE(apply.find("save_release dra-driver dra-driver-nvidia-gpu "
                       "dra-driver-nvidia-gpu\n"),
            std::string::npos)
      << apply;
  EXPECT_LT(apply.find("helm_remove dra-driver-nvidia-gpu"),
            apply.find("sh node-setup.sh $dry_run"));
  EXPECT_EQ(K8sConfigFiles(plugin, TestCatalog(), &plugin)[0].text.find(
                "dra-driver"),
            std::string::npos);
}

TEST(K8sConfigTest, OnlyTheFilesTheScenarioNeeds) {
  EXPECT_EQ(Paths(K8sConfigFiles(
                Read("    - {name: p, gpu: L4, nodes: 1,\n"
                     "       sharing: {scheme: time-slicing, replicas: 2}}\n"),
                TestCatalog())),
            (std::vector<std::string>{"README.md",
                                      "device-plugin-config.yaml",
                                      "gpu-operator-values.yaml",
                                      "node-setup.sh", "pod-patches.yaml",
                                      "apply.sh", "rollback.sh"}));
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
          "README.md", "device-plugin-config.yaml", "mig-parted-config.yaml",
          "gpu-operator-values.yaml", "hami-values.yaml", "node-setup.sh",
          "kube-scheduler-config.yaml", "pod-patches.yaml", "apply.sh",
          "rollback.sh"}));
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

TEST(NodeSetupScriptTest, WrittenPoolsBySelectorWithTheirConfiguration) {
  const std::string script = NodeSetupScript(
      Read("    - name: m\n"
           "      gpu: A30\n"
           "      nodes: 2\n"
           "      labels: {tier: prod}\n"
           "      match_labels: {cloud.google.com/gke-nodepool: a30}\n"
           "      taints: [{key: dedicated, value: m, effect: NoSchedule}]\n"
           "      sharing: {scheme: mig, mig_config: all-1g.6gb}\n"
           "    - {name: v, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: hami}}\n"
           "    - {name: cpu, nodes: 1, gpus_per_node: 0}\n"),
      TestCatalog());
  // Nodes are found by the labels the user gives, never by the simulator's
  // names.
  EXPECT_NE(script.find("nodes_1=$(kubectl get nodes -l "
                        "cloud.google.com/gke-nodepool=a30 -o name)\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("nodes_2=$(kubectl get nodes -l "
                        "gpushare.io/node-pool=v -o name)\n"),
            std::string::npos);
  EXPECT_EQ(script.find("m-0"), std::string::npos);
  EXPECT_EQ(script.find("cpu"), std::string::npos);
  EXPECT_NE(script.find("  ensure_mig \"$1\" all-1g.6gb\n"
                        "  change label node \"$1\" "
                        "gpushare.io/node-pool=m "
                        "nvidia.com/device-plugin.config=m "
                        "nvidia.com/gpu.deploy.device-plugin=true tier=prod "
                        "--overwrite\n  unlabel \"$1\" gpu on\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("  change taint node \"$1\" dedicated=m:NoSchedule "
                        "--overwrite\n"),
            std::string::npos);
  // HAMi: its plugin in, the GPU Operator's out.
  EXPECT_NE(script.find("  leave_mig \"$1\"\n  change label node \"$1\" "
                        "gpu=on gpushare.io/node-pool=v "
                        "nvidia.com/gpu.deploy.device-plugin=false "
                        "--overwrite\n"
                        "  unlabel \"$1\" nvidia.com/device-plugin.config\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("for node in $nodes_2; do change_2 "
                        "\"${node#node/}\"; done\n"),
            std::string::npos);
}

// What today's pool sets and the scenario does not is taken away; without
// today's pools there is no way back to write.
TEST(NodeSetupScriptTest, ChangeFromTodayAndRollback) {
  const Scenario today =
      Read("    - name: d\n      gpu: L4\n      nodes: 2\n"
           "      labels: {team: old}\n"
           "      taints: [{key: dedicated, value: old, effect: NoSchedule}]\n"
           "      sharing: {scheme: time-slicing, replicas: 4}\n");
  const Scenario plan =
      Read("    - name: d\n      gpu: L4\n      nodes: 3\n"
           "      sharing: {scheme: hami}\n");
  const std::string script = NodeSetupScript(plan, TestCatalog(), &today);
  EXPECT_NE(script.find("  unlabel \"$1\" team\n"), std::string::npos)
      << script;
  EXPECT_NE(script.find("  untaint \"$1\" dedicated=old:NoSchedule "
                        "dedicated:NoSchedule-\n"),
            std::string::npos);
  EXPECT_FALSE(RollbackScript(plan, TestCatalog(), nullptr).has_value());
  const std::optional<std::string> back =
      RollbackScript(plan, TestCatalog(), &today);
  ASSERT_TRUE(back.has_value());
  EXPECT_NE(back->find("change label node \"$1\" gpushare.io/node-pool=d "
                       "nvidia.com/device-plugin.config=d "
                       "nvidia.com/gpu.deploy.device-plugin=true team=old "
                       "--overwrite\n  unlabel \"$1\" gpu on\n"),
            std::string::npos)
      << *back;
  EXPECT_NE(back->find("change taint node \"$1\" dedicated=old:NoSchedule "
                       "--overwrite\n"),
            std::string::npos);
  // The README says how many nodes to provision, with which labels.
  std::string readme;
  for (const EmittedFile& f : K8sConfigFiles(plan, TestCatalog(), &today)) {
    if (f.path == "README.md") readme = f.text;
  }
  EXPECT_NE(readme.find("- Pool `d`: provision 1 more node like its others, "
                        "labelled `gpu=on`, `gpushare.io/node-pool=d`, "
                        "`nvidia.com/gpu.deploy.device-plugin=false` and "
                        "tainted none"),
            std::string::npos)
      << readme;
  EXPECT_NE(readme.find("sh rollback.sh --dry-run"), std::string::npos);
}

}  // namespace
}  // namespace gpushare
