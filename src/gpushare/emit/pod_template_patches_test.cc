#include "gpushare/emit/pod_template_patches.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace pod_template_patches_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Two pools: MIG (tainted) and HAMi. `svc` pods need 6 or 30 GB (1g.10gb or
// 3g.40gb), `jobs` a quarter GPU with 4 distinct footprints, `huge` more
// memory than any MIG instance.
const char kScenario[] =
    "name: p\n"
    "cluster:\n"
    "  pools:\n"
    "    - name: mig\n"
    "      gpu: H100-80GB\n"
    "      nodes: 1\n"
    "      taints: [{key: dedicated, value: mig, effect: NoSchedule}]\n"
    "      sharing: {scheme: mig, mig_strategy: mixed,\n"
    "                mig_config: all-balanced}\n"
    "    - {name: vgpu, gpu: A100-80GB, nodes: 1, sharing: {scheme: hami}}\n"
    "workload:\n"
    "  classes:\n"
    "    - name: svc\n"
    "      class: inference\n"
    "      count: 8\n"
    "      work_s: 0\n"
    "      lifetime_s: 60\n"
    "      gpus: 0.5\n"
    "      gpu_memory_mib: {choice: [[6000, 1], [30000, 1]]}\n"
    "      node_selector: {gpushare.io/node-pool: mig}\n"
    "      tolerations: [{key: dedicated, operator: Equal, value: mig,\n"
    "                     effect: NoSchedule}]\n"
    "    - name: jobs\n"
    "      class: batch\n"
    "      count: 40\n"
    "      gpus: 0.25\n"
    "      gpu_memory_mib: {choice: [[1000, 1], [2000, 1], [3000, 1],\n"
    "                                [4000, 1]]}\n"
    "      sm_demand: 0.3\n"
    "      node_selector: {gpushare.io/node-pool: vgpu}\n"
    "    - name: huge\n"
    "      class: batch\n"
    "      count: 2\n"
    "      gpus: 0.5\n"
    "      gpu_memory_mib: 90000\n"
    "      node_selector: {gpushare.io/node-pool: mig}\n"
    "      tolerations: [{key: dedicated, operator: Exists}]\n";

TEST(PodTemplatePatchesTest, OnePatchPerDistinctRequest) {
  const Scenario s = ReadScenarioYaml(kScenario, "p.yaml", TestCatalog());
  const std::string text = PodTemplatePatchesYaml(s, TestCatalog(), 3);
  const std::vector<YAML::Node> docs = YAML::LoadAll(text);
  // 2 svc patches, 3 jobs patches (a fourth summarized), none for huge
  // (the header is comments only).
  ASSERT_EQ(docs.size(), 5u) << text;
  std::map<std::string, int> limits;
  for (int d = 0; d <= 1; ++d) {
    const YAML::Node spec = docs[d]["spec"]["template"]["spec"];
    EXPECT_EQ(spec["nodeSelector"]["gpushare.io/node-pool"].as<std::string>(),
              "mig");
    EXPECT_EQ(spec["tolerations"][0]["effect"].as<std::string>(), "NoSchedule");
    EXPECT_FALSE(spec["schedulerName"].IsDefined());
    const YAML::Node l = spec["containers"][0]["resources"]["limits"];
    ASSERT_EQ(l.size(), 1u);
    for (const auto& kv : l) {
      limits[kv.first.as<std::string>()] = kv.second.as<int>();
    }
  }
  EXPECT_EQ(limits,
            (std::map<std::string, int>{{"nvidia.com/mig-1g.10gb", 1},
                                        {"nvidia.com/mig-3g.40gb", 1}}));
  for (int d = 2; d <= 4; ++d) {
    const YAML::Node spec = docs[d]["spec"]["template"]["spec"];
    EXPECT_EQ(spec["schedulerName"].as<std::string>(), "hami-scheduler");
    const YAML::Node l = spec["containers"][0]["resources"]["limits"];
    EXPECT_EQ(l["nvidia.com/gpu"].as<int>(), 1);
    EXPECT_EQ(l["nvidia.com/gpucores"].as<int>(), 30);
    const int mem = l["nvidia.com/gpumem"].as<int>();
    EXPECT_TRUE(mem == 1000 || mem == 2000 || mem == 3000 || mem == 4000);
  }
  EXPECT_NE(text.find("# class jobs: 1 more distinct requests cover"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# class huge: 2 pods cannot run:"), std::string::npos)
      << text;
  EXPECT_NE(text.find("on pool vgpu (vGPU (HAMi))"), std::string::npos);
  // Deterministic.
  EXPECT_EQ(PodTemplatePatchesYaml(s, TestCatalog(), 3), text);
}

// An exclusive A100-80GB pool, a HAMi L4 pool, then `more` pools, all in
// zone a; `web` asks for a whole GPU holding 30 GB, in zone a.
Scenario MixedPools(const std::string& more) {
  return ReadScenarioYaml(
      "name: p\n"
      "cluster:\n"
      "  pools:\n"
      "    - {name: whole, gpu: A100-80GB, nodes: 1, labels: {zone: a},\n"
      "       sharing: {scheme: exclusive}}\n"
      "    - {name: vgpu, gpu: L4, nodes: 1, labels: {zone: a},\n"
      "       sharing: {scheme: hami}}\n" +
          more +
          "workload:\n"
          "  classes:\n"
          "    - {name: web, class: inference, count: 4, gpus: 1,\n"
          "       gpu_memory_mib: 30000, work_s: 0, lifetime_s: 60,\n"
          "       node_selector: {zone: a}}\n",
      "p.yaml", TestCatalog());
}

// Pools that mix schemes: `web` pods (no selector) are written for the first
// pool, exclusive; the HAMi pool advertises nvidia.com/gpu too, where one
// would be a whole-memory vGPU, so the patch pins them with a nodeSelector
// on gpushare.io/node-pool, beside the class's own selector.
TEST(PodTemplatePatchesTest, PinsRequestsThatMeanSomethingElseElsewhere) {
  const Scenario s = MixedPools("");
  const std::string text = PodTemplatePatchesYaml(s, TestCatalog(), 3);
  const std::vector<YAML::Node> docs = YAML::LoadAll(text);
  ASSERT_EQ(docs.size(), 1u) << text;
  const YAML::Node spec = docs[0]["spec"]["template"]["spec"];
  EXPECT_EQ(spec["nodeSelector"]["gpushare.io/node-pool"].as<std::string>(),
            "whole");
  EXPECT_EQ(spec["nodeSelector"]["zone"].as<std::string>(), "a");
  EXPECT_EQ(
      spec["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].as<int>(),
      1);
  EXPECT_FALSE(spec["affinity"].IsDefined());

  // A second exclusive pool of 80 GB GPUs reads the request alike: the
  // patch allows both, by required node affinity.
  const Scenario two = MixedPools(
      "    - {name: h100, gpu: H100-80GB, nodes: 1, labels: {zone: a},\n"
      "       sharing: {scheme: exclusive}}\n");
  const std::vector<YAML::Node> both =
      YAML::LoadAll(PodTemplatePatchesYaml(two, TestCatalog(), 3));
  ASSERT_EQ(both.size(), 1u);
  const YAML::Node s2 = both[0]["spec"]["template"]["spec"];
  EXPECT_FALSE(s2["nodeSelector"]["gpushare.io/node-pool"].IsDefined());
  EXPECT_EQ(s2["nodeSelector"]["zone"].as<std::string>(), "a");
  const YAML::Node in = s2["affinity"]["nodeAffinity"]
                          ["requiredDuringSchedulingIgnoredDuringExecution"]
                          ["nodeSelectorTerms"][0]["matchExpressions"][0];
  EXPECT_EQ(in["key"].as<std::string>(), "gpushare.io/node-pool");
  EXPECT_EQ(in["operator"].as<std::string>(), "In");
  EXPECT_EQ(in["values"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"whole", "h100"}));

  // Imported pods with their own required affinity: a patch replaces the
  // list of terms whole, so it carries each of their terms with the pin.
  Scenario traced = two;
  traced.workload.classes.clear();
  auto pods = std::make_shared<std::vector<Pod>>();
  Pod p;
  p.name = "svc-0";
  p.tenant_class = "svc";
  p.workload_class = WorkloadClass::kInference;
  p.cpu_milli = 1000;
  p.memory_mib = 1024;
  p.needs.gpus = 1;
  p.needs.gpu_memory_mib = 30000;
  p.needs.sm_demand = 0.5;
  NodeSelectorRequirement zone;
  zone.key = "zone";
  zone.op = NodeSelectorRequirement::Operator::kIn;
  zone.values = {"a", "b"};
  NodeSelectorRequirement spot;
  spot.key = "spot";
  spot.op = NodeSelectorRequirement::Operator::kDoesNotExist;
  p.required_affinity = {{{zone}}, {{spot}}};
  pods->push_back(p);
  traced.workload.trace.pods = pods;
  const std::vector<YAML::Node> imported =
      YAML::LoadAll(PodTemplatePatchesYaml(traced, TestCatalog(), 3));
  ASSERT_EQ(imported.size(), 1u);
  const YAML::Node terms =
      imported[0]["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]
              ["requiredDuringSchedulingIgnoredDuringExecution"]
              ["nodeSelectorTerms"];
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_EQ(terms[0]["matchExpressions"][0]["key"].as<std::string>(), "zone");
  EXPECT_EQ(terms[0]["matchExpressions"][0]["values"].size(), 2u);
  EXPECT_EQ(terms[1]["matchExpressions"][0]["operator"].as<std::string>(),
            "DoesNotExist");
  EXPECT_FALSE(terms[1]["matchExpressions"][0]["values"].IsDefined());
  for (size_t t = 0; t < 2; ++t) {
    const YAML::Node pin = terms[t]["matchExpressions"][1];
    EXPECT_EQ(pin["key"].as<std::string>(), "gpushare.io/node-pool");
    EXPECT_EQ(pin["values"].as<std::vector<std::string>>(),
              (std::vector<std::string>{"whole", "h100"}));
  }
}

}  // namespace
}  // namespace pod_template_patches_test
}  // namespace gpushare
