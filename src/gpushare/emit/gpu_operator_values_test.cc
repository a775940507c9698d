#include "gpushare/emit/gpu_operator_values.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/emit/emit_test_scenarios.h"

namespace gpushare {
namespace {

using emit_test::PoolsScenario;
using emit_test::TestCatalog;

// "key operator value effect" per toleration of a YAML list.
std::vector<std::string> Tolerations(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const YAML::Node& t : list) {
    out.push_back((t["key"] ? t["key"].as<std::string>() : "-") + " " +
                  t["operator"].as<std::string>() + " " +
                  (t["value"] ? t["value"].as<std::string>() : "-") + " " +
                  (t["effect"] ? t["effect"].as<std::string>() : "-"));
  }
  return out;
}

// The comment lines of `text` joined into one line (they wrap at 78).
std::string Comments(const std::string& text) {
  std::string out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (text.compare(begin, 2, "# ") == 0) {
      out += (out.empty() ? "" : " ") + text.substr(begin + 2, end - begin - 2);
    }
    begin = end + 1;
  }
  return out;
}

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
  const std::string text = GpuOperatorValuesYaml(s, TestCatalog());
  const YAML::Node v = YAML::Load(text);
  EXPECT_EQ(v["devicePlugin"]["config"]["name"].as<std::string>(),
            "gpushare-device-plugin-config");
  EXPECT_EQ(v["devicePlugin"]["config"]["default"].as<std::string>(),
            "default");
  EXPECT_EQ(v["migManager"]["config"]["name"].as<std::string>(),
            "custom-mig-config");
  EXPECT_EQ(v["migManager"]["config"]["default"].as<std::string>(),
            "all-disabled");
  EXPECT_EQ(v["mig"]["strategy"].as<std::string>(), "mixed");
  // The chart's default (its Exists covers nvidia.com/gpu=present), then
  // dedicated=prod once.
  EXPECT_EQ(Tolerations(v["daemonsets"]["tolerations"]),
            (std::vector<std::string>{
                "nvidia.com/gpu Exists - NoSchedule",
                "dedicated Equal prod NoSchedule"}));
  // NFD's worker, which labels the nodes, the same way (chart version
  // unknown: the default of the charts before v26.3.0).
  EXPECT_EQ(Tolerations(v["node-feature-discovery"]["worker"]["tolerations"]),
            (std::vector<std::string>{
                "node-role.kubernetes.io/master Equal  NoSchedule",
                "node-role.kubernetes.io/control-plane Equal  NoSchedule",
                "nvidia.com/gpu Exists - NoSchedule",
                "dedicated Equal prod NoSchedule"}));
  // Today's lists are unknown: the header says so.
  const std::string comments = Comments(text);
  EXPECT_NE(comments.find("daemonsets.tolerations: the default of the chart "
                          "(values.yaml daemonsets.tolerations), plus the "
                          "pools' taints dedicated=prod:NoSchedule"),
            std::string::npos)
      << comments;
  EXPECT_NE(comments.find("Today's list is not known: compare it with `helm "
                          "get values`, and say it in the scenario "
                          "(platform.gpu_operator.daemonsets.tolerations)"),
            std::string::npos)
      << comments;
  EXPECT_NE(comments.find("(platform.gpu_operator.nfd_worker.tolerations)"),
            std::string::npos)
      << comments;
}

// Today's lists (the scenario's platform) are kept whole and in their order,
// and each pool taint they do not tolerate yet is added once, after them.
TEST(GpuOperatorValuesTest, TodaysListsAreMergedWithThePoolsTaints) {
  const std::string pools =
      "    - name: a\n      gpu: L4\n      nodes: 1\n"
      "      taints: [{key: dedicated, value: research, effect: NoSchedule},\n"
      "               {key: example.com/maintenance, effect: NoExecute}]\n"
      "    - name: b\n      gpu: L4\n      nodes: 1\n"
      "      taints: [{key: zone, value: b, effect: PreferNoSchedule},\n"
      "               {key: dedicated, value: research, effect: NoSchedule}]\n";
  const Scenario s = PoolsScenario(
      "v", pools,
      "platform:\n  gpu_operator:\n    chart_version: v26.3.1\n"
      "    daemonsets:\n      tolerations:\n"
      "        - {key: example.com/maintenance, operator: Exists}\n"
      "        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
      "    nfd_worker:\n      tolerations:\n"
      "        - {key: dedicated, operator: Exists}\n");
  const std::string text = GpuOperatorValuesYaml(s, TestCatalog());
  const YAML::Node v = YAML::Load(text);
  EXPECT_EQ(Tolerations(v["daemonsets"]["tolerations"]),
            (std::vector<std::string>{
                "example.com/maintenance Exists - -",
                "nvidia.com/gpu Exists - NoSchedule",
                "dedicated Equal research NoSchedule",
                "zone Equal b PreferNoSchedule"}));
  EXPECT_EQ(Tolerations(v["node-feature-discovery"]["worker"]["tolerations"]),
            (std::vector<std::string>{
                "dedicated Exists - -",
                "example.com/maintenance Equal  NoExecute",
                "zone Equal b PreferNoSchedule"}));
  EXPECT_NE(Comments(text).find(
                "daemonsets.tolerations: the scenario's "
                "platform.gpu_operator.daemonsets.tolerations, plus the "
                "pools' taints dedicated=research:NoSchedule, "
                "zone=b:PreferNoSchedule (a Helm list"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Today's list is not known"), std::string::npos) << text;
  // Written twice, the same bytes.
  EXPECT_EQ(GpuOperatorValuesYaml(s, TestCatalog()), text);

  // Lists that already tolerate every taint are left out: --reuse-values
  // keeps the release's.
  const Scenario covered = PoolsScenario(
      "v", pools,
      "platform:\n  gpu_operator:\n"
      "    daemonsets: {tolerations: [{operator: Exists}]}\n"
      "    nfd_worker: {tolerations: [{operator: Exists}]}\n");
  const std::string left = GpuOperatorValuesYaml(covered, TestCatalog());
  const YAML::Node l = YAML::Load(left);
  EXPECT_FALSE(l["daemonsets"].IsDefined()) << left;
  EXPECT_FALSE(l["node-feature-discovery"].IsDefined()) << left;
  EXPECT_NE(Comments(left).find("daemonsets.tolerations is left out, so "
                                "--reuse-values keeps the release's list"),
            std::string::npos)
      << left;
  // No taint at all: nothing to add, nothing written.
  const YAML::Node none = YAML::Load(GpuOperatorValuesYaml(
      PoolsScenario("v", "    - {name: t, gpu: L4, nodes: 1}\n"),
      TestCatalog()));
  EXPECT_FALSE(none["daemonsets"].IsDefined());
  EXPECT_FALSE(none["node-feature-discovery"].IsDefined());
}

TEST(GpuOperatorValuesTest, NfdWorkerDefaultFollowsTheChartVersion) {
  EXPECT_EQ(NfdWorkerTolerationsDefault("v26.3.0").size(), 2u);
  EXPECT_EQ(NfdWorkerTolerationsDefault("v26.7.0")[0].key,
            "node-role.kubernetes.io/control-plane");
  EXPECT_EQ(NfdWorkerTolerationsDefault("v25.10.1").size(), 3u);
  EXPECT_EQ(NfdWorkerTolerationsDefault("v25.10.1")[0].key,
            "node-role.kubernetes.io/master");
  EXPECT_EQ(NfdWorkerTolerationsDefault("").size(), 3u);
  const std::vector<Toleration> d = GpuOperatorDaemonsetTolerationsDefault();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].key, "nvidia.com/gpu");
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

// mig.strategy only when the plan needs it: an exclusive or time-sliced plan
// keeps the release's strategy (a mixed cluster stays mixed); MIG layouts
// and MPS (which the plugin refuses under mixed) set it.
TEST(GpuOperatorValuesTest, MigStrategyOnlyWhenAPoolNeedsIt) {
  for (const char* sharing :
       {"{scheme: exclusive}", "{scheme: time-slicing, replicas: 4}"}) {
    const Scenario s = PoolsScenario(
        "v", std::string("    - {name: t, gpu: L4, nodes: 1, sharing: ") +
                 sharing + "}\n");
    EXPECT_FALSE(NeedsClusterMigStrategy(s)) << sharing;
    const std::string text = GpuOperatorValuesYaml(s, TestCatalog());
    const YAML::Node v = YAML::Load(text);
    EXPECT_FALSE(v["mig"].IsDefined()) << text;
    EXPECT_FALSE(v["migManager"].IsDefined()) << text;
    EXPECT_TRUE(v["devicePlugin"]["config"].IsDefined()) << text;
    EXPECT_NE(text.find("# mig.strategy is left out"), std::string::npos);
  }
  const Scenario mps = PoolsScenario(
      "v", "    - {name: s, gpu: L4, nodes: 1, sharing: {scheme: mps, "
           "replicas: 2}}\n");
  EXPECT_TRUE(NeedsClusterMigStrategy(mps));
  EXPECT_EQ(YAML::Load(GpuOperatorValuesYaml(mps, TestCatalog()))["mig"]
                ["strategy"].as<std::string>(),
            "single");
  const Scenario single = PoolsScenario(
      "v", "    - {name: m, gpu: A100-80GB, nodes: 1, sharing: {scheme: mig, "
           "mig_config: all-1g.10gb, mig_strategy: single}}\n");
  EXPECT_EQ(YAML::Load(GpuOperatorValuesYaml(single, TestCatalog()))["mig"]
                ["strategy"].as<std::string>(),
            "single");
  // HAMi alone: no device-plugin config, no strategy, no MIG manager.
  const Scenario hami = PoolsScenario(
      "v", "    - {name: h, gpu: A100-80GB, nodes: 1, sharing: {scheme: "
           "hami}}\n");
  const YAML::Node h = YAML::Load(GpuOperatorValuesYaml(hami, TestCatalog()));
  EXPECT_FALSE(h["devicePlugin"].IsDefined());
  EXPECT_FALSE(h["mig"].IsDefined());
  EXPECT_FALSE(h["migManager"].IsDefined());
}

}  // namespace
}  // namespace gpushare
