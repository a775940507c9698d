// The files of `emit k8s` for a scenario whose strings are hostile where
// the scenario reader lets them be (the scenario name is free text) and
// YAML-ambiguous where Kubernetes rules allow it (pool, class, queue and
// namespace names `true`, `012`, `1e5`; label and taint values `yes`,
// `null`, `0x1`): nothing breaks out of a comment, every YAML file parses,
// and every such name reads back as a string.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/emit/k8s_config.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

using emit_test::TestCatalog;

constexpr const char* kHostileName =
    "evil'\n$(touch pwned)\n`touch pwned`\"; rm -rf pwned-dir\r# x\xe2\x80\xa8"
    "y: z\t\x01";

const char* const kScenario = R"yaml(
name: "evil'$(touch pwned)`touch pwned`\"; rm -rf pwned-dir # x\u2028y: z"
cluster:
  pools:
    - name: "true"
      gpu: L4
      nodes: 1
      labels: {team: "yes", example.com/x-1: "0x1"}
      taints: [{key: dedicated, value: "null", effect: NoSchedule}]
      sharing: {scheme: time-slicing, replicas: 2}
    - name: "1e5"
      gpu: A30
      nodes: 1
      sharing: {scheme: mig, mig_config: all-1g.6gb}
    - name: "012"
      gpu: A100-80GB
      nodes: 1
      sharing: {scheme: hami}
    - name: "on"
      gpu: A100-80GB
      nodes: 1
      sharing: {scheme: hami, hami: {split_count: 4}}
workload:
  classes:
    - name: "null"
      class: batch
      count: 2
      tenants: ["1e3"]
      queue: "y"
      node_selector: {team: "yes"}
      tolerations:
        - {key: dedicated, operator: Equal, value: "null", effect: NoSchedule}
    - {name: "no", class: batch, count: 2}
queues:
  resource_flavors: [{name: "off", node_labels: {team: "yes"}}]
  cluster_queues:
    - name: "123"
      cohort: "0x1"
      resource_groups:
        - flavors:
            - name: "off"
              resources:
                - {name: cpu, nominal_quota: 10}
                - {name: memory, nominal_quota: 100Gi}
                - {name: nvidia.com/gpu, nominal_quota: 4}
  local_queues:
    - {name: "y", namespace: "1e3", cluster_queue: "123"}
)yaml";

// Values a YAML reader would take for a boolean, null or number if plain.
const std::set<std::string>& AmbiguousNames() {
  static const std::set<std::string> names = {"true", "1e5", "012", "on",
                                              "null", "no",  "y",   "yes",
                                              "0x1",  "123", "off", "1e3"};
  return names;
}

// Calls `visit` on every scalar under `node`, keys included.
void EachScalar(const YAML::Node& node,
                const std::function<void(const YAML::Node&)>& visit) {
  if (node.IsScalar()) {
    visit(node);
  } else if (node.IsSequence()) {
    for (const YAML::Node& item : node) EachScalar(item, visit);
  } else if (node.IsMap()) {
    for (const auto& kv : node) {
      EachScalar(kv.first, visit);
      EachScalar(kv.second, visit);
    }
  }
}

TEST(K8sConfigInjectionTest, ControlCharactersInANameAreRefusedAtLoad) {
  std::string text = kScenario;
  text.replace(text.find("# x"), 3, "\\n# x");
  EXPECT_THROW(ReadScenarioYaml(text, "evil.yaml", TestCatalog()), InputError);
}

TEST(K8sConfigInjectionTest, HostileNamesStayInTheirPlace) {
  // The reader refuses control characters in names (docs/reliability.md);
  // a scenario built in code may still hold them, and the emitters quote
  // them all the same.
  Scenario s = ReadScenarioYaml(kScenario, "evil.yaml", TestCatalog());
  ASSERT_EQ(s.name,
            "evil'$(touch pwned)`touch pwned`\"; rm -rf pwned-dir # "
            "x\xe2\x80\xa8y: z");
  s.name = kHostileName;
  const std::vector<EmittedFile> files = K8sConfigFiles(s, TestCatalog());
  std::set<std::string> ambiguous_seen;
  for (const EmittedFile& f : files) {
    // The scenario name is only ever in a comment (a Markdown heading in
    // README.md), on one line.
    std::istringstream lines(f.text);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_EQ(line.find('\r'), std::string::npos) << f.path;
      EXPECT_EQ(line.find("\xe2\x80\xa8"), std::string::npos) << f.path;
      if (line.find("pwned") != std::string::npos) {
        EXPECT_EQ(line.rfind("# ", 0), 0u) << f.path << ": " << line;
      }
    }
    if (!f.path.ends_with(".yaml")) continue;
    const std::vector<YAML::Node> docs = YAML::LoadAll(f.text);
    ASSERT_FALSE(docs.empty()) << f.path;
    for (const YAML::Node& d : docs) {
      ASSERT_TRUE(d.IsMap()) << f.path;
      EachScalar(d, [&](const YAML::Node& n) {
        if (AmbiguousNames().count(n.Scalar()) == 0) return;
        ambiguous_seen.insert(n.Scalar());
        EXPECT_EQ(n.Tag(), "!") << f.path << ": plain " << n.Scalar();
      });
    }
  }
  // These names reach some YAML file (pool 012 and class no only
  // comments), so each was checked.
  for (const char* name :
       {"true", "1e5", "on", "null", "y", "yes", "0x1", "123", "off", "1e3"}) {
    EXPECT_EQ(ambiguous_seen.count(name), 1u) << name;
  }
}

TEST(K8sConfigInjectionTest, ValuesReadBackAsWritten) {
  Scenario s = ReadScenarioYaml(kScenario, "evil.yaml", TestCatalog());
  s.name = kHostileName;
  std::map<std::string, std::string> text;
  for (const EmittedFile& f : K8sConfigFiles(s, TestCatalog())) {
    text[f.path] = f.text;
  }
  const YAML::Node dp = YAML::Load(text.at("device-plugin-config.yaml"));
  EXPECT_TRUE(dp["data"]["true"].IsDefined());
  const YAML::Node mig = YAML::Load(
      YAML::Load(text.at("mig-parted-config.yaml"))["data"]["config.yaml"]
          .as<std::string>());
  EXPECT_TRUE(mig["mig-configs"]["all-1g.6gb"].IsDefined());
  const YAML::Node hami = YAML::Load(text.at("hami-values.yaml"));
  const nlohmann::json nodeconfig = nlohmann::json::parse(
      hami["devicePlugin"]["nodeConfiguration"]["config"].as<std::string>());
  EXPECT_EQ(nodeconfig["nodeconfig"][0]["name"], "on-0");
  const std::vector<YAML::Node> kueue =
      YAML::LoadAll(text.at("kueue-queues.yaml"));
  ASSERT_EQ(kueue.size(), 3u);
  EXPECT_EQ(kueue[0]["spec"]["nodeLabels"]["team"].as<std::string>(), "yes");
  EXPECT_EQ(kueue[1]["spec"]["cohortName"].as<std::string>(), "0x1");
  EXPECT_EQ(kueue[2]["metadata"]["namespace"].as<std::string>(), "1e3");
  const std::string& script = text.at("node-setup.sh");
  // Pools are found by their label, never by the simulator's node names.
  EXPECT_NE(script.find("nodes_1=$(kubectl get nodes -l "
                        "gpushare.io/node-pool=true -o name)\n"),
            std::string::npos)
      << script;
  EXPECT_EQ(script.find("true-0"), std::string::npos);
  EXPECT_NE(script.find("  change label node \"$1\" example.com/x-1=0x1 "
                        "gpushare.io/node-pool=true "
                        "nvidia.com/device-plugin.config=true "
                        "nvidia.com/gpu.deploy.device-plugin=true team=yes "
                        "--overwrite\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("  change taint node \"$1\" "
                        "dedicated=null:NoSchedule --overwrite\n"),
            std::string::npos);
  EXPECT_NE(script.find("# Node changes of scenario 'evil'\\n$(touch "
                        "pwned)\\n`touch pwned`\"; rm -rf pwned-dir\\r# "
                        "x\\u2028y: z\\t\\x01' (written"),
            std::string::npos)
      << script;
}

}  // namespace
}  // namespace gpushare
