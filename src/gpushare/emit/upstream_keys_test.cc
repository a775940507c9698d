// Every key the emitters write is one the upstream formats have: the key
// lists in tests/data/upstream/ are facts copied from the upstream Go types
// and example files (their sources are in each file's header).

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpushare/emit/autoscaler_test_scenario.h"
#include "gpushare/emit/cluster_autoscaler_node_groups.h"
#include "gpushare/emit/cluster_autoscaler_values.h"
#include "gpushare/emit/device_plugin_config.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/dra_objects.h"
#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/emit/hami_values.h"
#include "gpushare/emit/karpenter_node_pools.h"
#include "gpushare/emit/kube_scheduler_config.h"
#include "gpushare/emit/mig_parted_config.h"

namespace gpushare {
namespace upstream_keys_test {
namespace {

std::set<std::string> UpstreamKeys(const std::string& file) {
  std::ifstream in(std::string(GS_TESTDATA_DIR) + "/upstream/" + file);
  EXPECT_TRUE(in.good()) << file;
  std::set<std::string> keys;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') keys.insert(line);
  }
  return keys;
}

// Every key path of `node`: maps as "a.b", list items as "[]"; keys of a
// map at a path in `wildcards` (path → symbol) are written as the symbol.
void Paths(const YAML::Node& node, const std::string& path,
           const std::map<std::string, std::string>& wildcards,
           std::set<std::string>* out) {
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) {
      Paths(item, path + "[]", wildcards, out);
    }
    return;
  }
  if (!node.IsMap()) return;
  auto w = wildcards.find(path);
  for (const auto& kv : node) {
    const std::string key =
        w != wildcards.end() ? w->second : kv.first.as<std::string>();
    const std::string child = path.empty() ? key : path + "." + key;
    out->insert(child);
    Paths(kv.second, child, wildcards, out);
  }
}

void ExpectKnown(const std::string& text, const std::string& keys_file,
                 const std::map<std::string, std::string>& wildcards = {}) {
  const std::set<std::string> known = UpstreamKeys(keys_file);
  std::set<std::string> written;
  Paths(YAML::Load(text), "", wildcards, &written);
  EXPECT_FALSE(written.empty());
  for (const std::string& key : written) {
    EXPECT_TRUE(known.count(key) > 0)
        << key << " is not in tests/data/upstream/" << keys_file;
  }
}

// Pools that make every emitter write every optional key.
Scenario Everything() {
  return emit_test::PoolsScenario(
      "u",
      "    - {name: ts, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: time-slicing, replicas: 4,\n"
      "                 rename_by_default: true, replica_policy: packed}}\n"
      "    - {name: mps, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mps, replicas: 2}}\n"
      "    - name: mig\n"
      "      gpu: A100-40GB\n"
      "      nodes: 1\n"
      "      gpus_per_node: 2\n"
      "      sharing:\n"
      "        scheme: mig\n"
      "        mig_strategy: mixed\n"
      "        replicas: 2\n"
      "        mig_layouts: [[\"3g.20gb\", \"2g.10gb\"], [\"1g.5gb:7\"]]\n"
      "    - {name: v1, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: hami, hami: {default_memory_mib: 1000}}}\n"
      "    - {name: v2, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: hami, hami: {split_count: 4,\n"
      "                 default_memory_mib: 1000}}}\n",
      "scheduler:\n  percentage_of_nodes_to_score: 50\n"
      "  scoring_strategy:\n    type: RequestedToCapacityRatio\n"
      "    resources: [{name: nvidia.com/gpu, weight: 3}]\n"
      "    shape: [{utilization: 0, score: 0}, {utilization: 100, score: "
      "10}]\n");
}

TEST(UpstreamKeysTest, DevicePluginConfigs) {
  const Scenario s = Everything();
  for (const NamedDevicePluginConfig& c :
       DevicePluginConfigs(s, emit_test::TestCatalog())) {
    ExpectKnown(c.yaml, "device-plugin-config-v1.keys");
  }
}

TEST(UpstreamKeysTest, MigPartedConfig) {
  ExpectKnown(MigPartedConfigYaml(Everything(), emit_test::TestCatalog()),
              "mig-parted-config-v1.keys",
              {{"mig-configs", "*"}, {"mig-configs.*[].mig-devices", "+"}});
}

TEST(UpstreamKeysTest, HamiValues) {
  const std::string text =
      HamiValuesYaml(Everything(), emit_test::TestCatalog());
  EXPECT_NE(text.find("nodeConfiguration"), std::string::npos);
  EXPECT_NE(text.find("device-config"), std::string::npos);
  ExpectKnown(text, "hami-values.keys");
}

TEST(UpstreamKeysTest, KubeSchedulerConfig) {
  Scenario s = Everything();
  s.scheduler.pod_initial_backoff_s = 2;
  s.scheduler.pod_max_backoff_s = 20;
  ASSERT_TRUE(NeedsKubeSchedulerConfig(s.scheduler));
  ExpectKnown(KubeSchedulerConfigYaml(s.scheduler, /*hami_pools=*/false),
              "kube-scheduler-config-v1.keys");
}

// DRA pools that make the DRA emitters write every optional key: memory
// shares and an interval on whole GPUs, a MIG pool (a profile class), an
// imported pool (matchFields) and a taint.
TEST(UpstreamKeysTest, DraDriverValuesAndObjects) {
  Scenario s = emit_test::PoolsScenario(
      "d",
      "    - {name: whole, gpu: A100-80GB, nodes: 1, devices: dra}\n"
      "    - name: mig\n"
      "      gpu: H100-80GB\n"
      "      nodes: 1\n"
      "      devices: dra\n"
      "      taints: [{key: dedicated, value: ml, effect: NoSchedule}]\n"
      "      sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                mig_config: all-balanced}\n"
      "    - {name: imported, gpu: A100-80GB, nodes: 1, devices: dra}\n",
      "    - name: b\n      class: batch\n      count: 1\n"
      "      gpus: 0.5\n      gpu_memory_mib: 6000\n"
      "      node_selector: {gpushare.io/node-pool: mig}\n"
      "      tolerations: [{key: dedicated, operator: Exists}]\n");
  s.pools[2].members.push_back(NodeIdentity{});
  s.pools[2].members.back().name = "gpu-node-7";
  for (NodePoolSpec& p : s.pools) {
    // Whole-GPU pools share with memory shares and the Short interval; the
    // MIG pool keeps its devices whole (its claims ask no memory).
    if (p.sharing.mig_enabled || p.devices != PoolDevices::kDra) continue;
    p.sharing = TimeSlicingSharing(4);
    p.dra.consumable_shares = DraConsumableShares::kMemoryShares;
    p.dra.time_slice_interval = DraTimeSliceInterval::kShort;
  }
  // Consumable shares: a 0.5 development chart (the keys file's commit).
  s.platform.dra_driver.chart_version = "0.5.0-dev-95932046";
  s.platform.dra_driver_today.found = true;
  s.platform.dra_driver_today.name = "nvidia-dra-driver-gpu";
  const std::string values = DraDriverValuesYaml(s);
  for (const char* key : {"matchExpressions", "value:", "nvidiaDriverRoot",
                          "nameOverride", "ConsumableShares: true",
                          "TimeSlicingSettings"}) {
    EXPECT_NE(values.find(key), std::string::npos) << key;
  }
  ExpectKnown(values, "dra-driver-values.keys");
  const std::string objects = DraObjectsYaml(s, emit_test::TestCatalog());
  EXPECT_NE(objects.find("capacity:"), std::string::npos) << objects;
  EXPECT_NE(objects.find("timeSlicingConfig:"), std::string::npos);
  int documents = 0;
  for (const YAML::Node& doc : YAML::LoadAll(objects)) {
    if (!doc.IsMap()) continue;
    ++documents;
    ExpectKnown(YAML::Dump(doc), "resource-v1.keys",
                {{"spec.spec.devices.requests[].exactly.capacity.requests",
                  "*"}});
  }
  // The profile class of `b` and a template per class.
  EXPECT_EQ(documents, 3) << objects;
}

// Every document of a YAML stream (comments and `---` lines as YAML reads
// them).
std::vector<YAML::Node> Documents(const std::string& text) {
  return YAML::LoadAll(text);
}

// CA pools that write every optional key: per-group options on both clouds
// (a priority expander, a taint, differing thresholds) and a DRA pool.
Scenario Autoscaled() {
  Scenario s = emit_test::CaScenario();
  for (NodePoolSpec& p : s.pools) {
    p.autoscaling.cluster_autoscaler.expander = CaExpander::kPriority;
  }
  s.pools[1].autoscaling.cluster_autoscaler.scale_down_utilization_threshold =
      0.4;
  return s;
}

TEST(UpstreamKeysTest, ClusterAutoscalerValues) {
  for (AutoscalerCloud cloud :
       {AutoscalerCloud::kAws, AutoscalerCloud::kClusterApi,
        AutoscalerCloud::kAny}) {
    ExpectKnown(ClusterAutoscalerValuesYaml(Autoscaled(), cloud),
                "cluster-autoscaler-values.keys",
                {{"expanderPriorities", "*"}});
  }
}

// The key of a node-group tag or annotation with the name after a
// resources/, label/ or taint/ prefix written as *.
std::string NodeGroupKey(const std::string& key) {
  for (const char* prefix : {"k8s.io/cluster-autoscaler/node-template/resources/",
                             "k8s.io/cluster-autoscaler/node-template/label/",
                             "k8s.io/cluster-autoscaler/node-template/taint/"}) {
    const std::string p = prefix;
    if (key.rfind(p, 0) == 0) return p + "*";
  }
  return key;
}

TEST(UpstreamKeysTest, ClusterAutoscalerNodeGroups) {
  const std::set<std::string> known =
      UpstreamKeys("cluster-autoscaler-node-groups.keys");
  const std::string tags = AsgTagsYaml(Autoscaled(), emit_test::TestCatalog());
  ExpectKnown(tags, "autoscaling-create-or-update-tags.keys");
  int options = 0;
  for (const YAML::Node& tag : YAML::Load(tags)["Tags"]) {
    const std::string key = tag["Key"].as<std::string>();
    options += key.find("autoscaling-options") != std::string::npos;
    EXPECT_TRUE(known.count(NodeGroupKey(key)) > 0) << key;
  }
  EXPECT_EQ(options, 3);  // x: unneeded time, both thresholds
  // Every annotation of the Cluster API script: KEY=VALUE arguments.
  const std::string script = MachineDeploymentAnnotationsScript(
      Autoscaled(), emit_test::TestCatalog());
  std::istringstream in(emit_test::WithoutComments(script));
  std::string word;
  int annotations = 0;
  while (in >> word) {
    const size_t eq = word.find('=');
    if (word.find('/') == std::string::npos || eq == std::string::npos ||
        word[0] == '#' || word.rfind("NAMESPACE", 0) == 0) {
      continue;
    }
    ++annotations;
    EXPECT_TRUE(known.count(word.substr(0, eq)) > 0) << word;
  }
  EXPECT_GT(annotations, 10);
}

TEST(UpstreamKeysTest, KarpenterNodePoolsAndOverlays) {
  Scenario s = emit_test::PoolsScenario(
      "k",
      "    - {name: kt, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       taints: [{key: gpu, value: shared, effect: NoSchedule}],\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n");
  s.pools[0].autoscaling.provider = AutoscalerProvider::kKarpenter;
  s.pools[0].autoscaling.max_nodes = 3;
  s.pools[0].autoscaling.karpenter.limits = {{"nvidia.com/gpu", 8}};
  s.pools[0].autoscaling.karpenter.instance_types = {{"g6.12xlarge", 4, 4.6,
                                                      0}};
  const std::map<std::string, std::string> wildcards = {
      {"spec.template.metadata.labels", "*"},
      {"spec.limits", "*"},
      {"spec.capacity", "*"}};
  for (const std::string& text :
       {KarpenterNodePoolsYaml(s, emit_test::TestCatalog(), {}),
        KarpenterNodeOverlaysYaml(s, emit_test::TestCatalog())}) {
    int docs = 0;
    for (const YAML::Node& doc : Documents(text)) {
      if (doc.IsNull()) continue;
      ++docs;
      ExpectKnown(YAML::Dump(doc), "karpenter-nodepool-v1.keys", wildcards);
    }
    EXPECT_EQ(docs, 1);
  }
}

}  // namespace
}  // namespace upstream_keys_test
}  // namespace gpushare
