#include "gpushare/emit/pod_template_patches.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace pod_template_patches_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// The quantities a patch's ResourceList asks (its non-null entries).
std::map<std::string, int> Asked(const YAML::Node& list) {
  std::map<std::string, int> out;
  for (const auto& kv : list) {
    if (!kv.second.IsNull()) out[kv.first.as<std::string>()] = kv.second.as<int>();
  }
  return out;
}

// The names a patch's ResourceList deletes (its null entries).
std::vector<std::string> Deleted(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const auto& kv : list) {
    if (kv.second.IsNull()) out.push_back(kv.first.as<std::string>());
  }
  return out;
}

// Two pools: MIG (tainted) and HAMi. `svc` pods need 6 or 30 GB, `jobs` a
// quarter GPU with 4 distinct footprints and ask their median
// (request_percentile 50), `huge` more memory than any MIG instance.
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
    "      request_percentile: 50\n"
    "      node_selector: {gpushare.io/node-pool: vgpu}\n"
    "    - name: huge\n"
    "      class: batch\n"
    "      count: 2\n"
    "      gpus: 0.5\n"
    "      gpu_memory_mib: 90000\n"
    "      node_selector: {gpushare.io/node-pool: mig}\n"
    "      tolerations: [{key: dedicated, operator: Exists}]\n";

// A workload has one pod template: each class asks one size per pool (its
// request_percentile of footprints), so one patch per class and pool — the
// MIG class the smallest profile holding its p95 (30 GB: 3g.40gb), the
// HAMi class its median as gpumem, with a comment counting its pods above
// it, which are OOM-killed when they start.
TEST(PodTemplatePatchesTest, OnePatchPerClassAndPool) {
  const Scenario s = ReadScenarioYaml(kScenario, "p.yaml", TestCatalog());
  const std::string text = PodTemplatePatchesYaml(s, TestCatalog(), 3);
  const std::vector<YAML::Node> docs = YAML::LoadAll(text);
  // One svc patch, one jobs patch, none for huge (the header is comments
  // only).
  ASSERT_EQ(docs.size(), 2u) << text;
  const YAML::Node svc = docs[0]["spec"]["template"]["spec"];
  EXPECT_EQ(svc["nodeSelector"]["gpushare.io/node-pool"].as<std::string>(),
            "mig");
  EXPECT_EQ(svc["tolerations"][0]["effect"].as<std::string>(), "NoSchedule");
  EXPECT_EQ(svc["schedulerName"].as<std::string>(), "default-scheduler");
  const YAML::Node svc_limits = svc["containers"][0]["resources"]["limits"];
  EXPECT_EQ(Asked(svc_limits),
            (std::map<std::string, int>{{"nvidia.com/mig-3g.40gb", 1}}));
  const YAML::Node jobs = docs[1]["spec"]["template"]["spec"];
  EXPECT_EQ(jobs["schedulerName"].as<std::string>(), "hami-scheduler");
  const YAML::Node l = jobs["containers"][0]["resources"]["limits"];
  EXPECT_EQ(l["nvidia.com/gpu"].as<int>(), 1);
  EXPECT_EQ(l["nvidia.com/gpucores"].as<int>(), 30);
  EXPECT_EQ(l["nvidia.com/gpumem"].as<int>(), 2000);
  EXPECT_NE(text.find("# class svc (inference) on pool mig (MIG): 8 of its 8 "
                      "pods (100.0%)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# class jobs (batch) on pool vgpu (vGPU (HAMi)): 40 of "
                      "its 40 pods (100.0%)\n# "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(" of them need more than the 2000 MiB it grants (up to "
                      "4000 MiB): OOM-killed\n# at start under vGPU (HAMi)'s "
                      "memory limit"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("more distinct requests"), std::string::npos) << text;
  EXPECT_NE(text.find("# class huge: 2 pods cannot run:"), std::string::npos)
      << text;
  // Deterministic.
  EXPECT_EQ(PodTemplatePatchesYaml(s, TestCatalog(), 3), text);
}

// Trace pods keep their own requests (docs/model.md §3): a job list whose
// four jobs of one class have four footprints gives four requests under
// HAMi, the first two as patches (max_per_class 2), the rest summarized.
TEST(PodTemplatePatchesTest, TracePodsKeepTheirOwnRequests) {
  const std::string csv = ::testing::TempDir() + "/patches_jobs.csv";
  {
    std::ofstream f(csv);
    f << "name,tenant_class,workload_class,arrival_s,gpus,gpu_memory_mib,"
         "sm_demand,duty,work_s,lifetime_s,cpu_milli,memory_mib,priority,"
         "node_selector\n";
    for (int i = 0; i < 4; ++i) {
      f << "j" << i << ",eval,batch," << i << ",0.25," << (i + 1) * 1000
        << ",0.3,1,60,0,1000,1024,0,\n";
    }
  }
  const Scenario s = ReadScenarioYaml(
      "name: p\n"
      "cluster:\n"
      "  pools:\n"
      "    - {name: vgpu, gpu: A100-80GB, nodes: 1, sharing: {scheme: hami}}\n"
      "workload:\n"
      "  trace: {format: jobs, file: \"" + csv + "\"}\n",
      "p.yaml", TestCatalog());
  const std::string text = PodTemplatePatchesYaml(s, TestCatalog(), 2);
  const std::vector<YAML::Node> docs = YAML::LoadAll(text);
  ASSERT_EQ(docs.size(), 2u) << text;
  std::vector<int> mem;
  for (const YAML::Node& d : docs) {
    mem.push_back(d["spec"]["template"]["spec"]["containers"][0]["resources"]
                   ["limits"]["nvidia.com/gpumem"]
                       .as<int>());
  }
  std::sort(mem.begin(), mem.end());
  EXPECT_EQ(mem, (std::vector<int>{1000, 2000})) << text;
  EXPECT_NE(text.find("# class eval: 2 more distinct requests cover 2 pods "
                      "(nvidia.com/gpu 1..1, nvidia.com/gpucores 30..30, "
                      "nvidia.com/gpumem 3000..4000)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("OOM-killed\n# at start"), std::string::npos) << text;
}

// LLM engines on shared GPUs (docs/emit.md): inference classes on a
// time-sliced pool carry their engine's memory cap — the class's request
// (p95 footprint) over the GPU's memory, rounded down — as an env variable;
// engine: tgi sets TGI's own CUDA_MEMORY_FRACTION; not under HAMi (memory
// isolated) nor for a batch class without an engine.
TEST(PodTemplatePatchesTest, InferenceOnTimeSlicingCarriesTheEngineCap) {
  const Scenario s = ReadScenarioYaml(
      "name: p\n"
      "cluster:\n"
      "  pools:\n"
      "    - {name: ts, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n"
      "    - {name: vgpu, gpu: A100-80GB, nodes: 1, sharing: {scheme: hami}}\n"
      "workload:\n"
      "  classes:\n"
      "    - {name: chat, class: inference, count: 4, work_s: 0,\n"
      "       lifetime_s: 60, gpus: 0.25, gpu_memory_mib: {uniform: [6000, "
      "16000]},\n"
      "       node_selector: {gpushare.io/node-pool: ts}}\n"
      "    - {name: tgi, class: inference, engine: tgi, count: 4, work_s: 0,\n"
      "       lifetime_s: 60, gpus: 0.25, gpu_memory_mib: 20000,\n"
      "       node_selector: {gpushare.io/node-pool: ts}}\n"
      "    - {name: sliced, class: inference, count: 4, work_s: 0,\n"
      "       lifetime_s: 60, gpus: 0.25, gpu_memory_mib: 20000,\n"
      "       node_selector: {gpushare.io/node-pool: vgpu}}\n"
      "    - {name: batch, class: batch, count: 4, gpus: 0.25,\n"
      "       gpu_memory_mib: 20000, node_selector: {gpushare.io/node-pool: "
      "ts}}\n"
      "    - {name: vllm, class: batch, engine: vllm, count: 4, gpus: 0.25,\n"
      "       gpu_memory_mib: 1000, node_selector: {gpushare.io/node-pool: "
      "ts}}\n",
      "p.yaml", TestCatalog());
  const std::string text = PodTemplatePatchesYaml(s, TestCatalog());
  const std::vector<YAML::Node> docs = YAML::LoadAll(text);
  ASSERT_EQ(docs.size(), 5u) << text;
  const auto env = [&](int d) {
    return docs[d]["spec"]["template"]["spec"]["containers"][0]["env"];
  };
  // chat: p95 of 6000..16000 is 15500 MiB, 0.1892 of 81920: 0.18.
  ASSERT_TRUE(env(0).IsSequence()) << text;
  EXPECT_EQ(env(0)[0]["name"].as<std::string>(),
            "GPUSHARE_GPU_MEMORY_FRACTION");
  EXPECT_EQ(env(0)[0]["value"].as<std::string>(), "0.18");
  EXPECT_NE(text.find("Cap: 0.18 (15500 MiB, the class's request, of 81920 "
                      "MiB)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# vLLM: add --gpu-memory-utilization=$(GPUSHARE_GPU_"
                      "MEMORY_FRACTION) to its args;\n# TGI: "
                      "--cuda-memory-fraction"),
            std::string::npos)
      << text;
  // tgi: 20000 / 81920 = 0.244: 0.24, in TGI's own variable.
  EXPECT_EQ(env(1)[0]["name"].as<std::string>(), "CUDA_MEMORY_FRACTION");
  EXPECT_EQ(env(1)[0]["value"].as<std::string>(), "0.24");
  // HAMi isolates memory; a batch class names no engine.
  EXPECT_FALSE(env(2).IsDefined()) << text;
  EXPECT_FALSE(env(3).IsDefined()) << text;
  // A class that names its engine is capped whatever its class: 1000 MiB is
  // 0.012, at least 0.01.
  EXPECT_EQ(env(4)[0]["value"].as<std::string>(), "0.01");
  EXPECT_NE(text.find("to the container's args once"), std::string::npos);
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
  EXPECT_TRUE(s2["nodeSelector"]["gpushare.io/node-pool"].IsNull());
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

// Five pools, `a`..`e`, each given `sharing` (and `devices`) by the caller,
// and one class per pool of 8 GB, a third of the SMs, selecting its pool.
Scenario FivePools(const std::string& name, const std::string& a,
                   const std::string& b, const std::string& c,
                   const std::string& d, const std::string& e) {
  std::string yaml = "name: " + name + "\ncluster:\n  pools:\n";
  const std::pair<const char*, std::string> pools[] = {
      {"a", a}, {"b", b}, {"c", c}, {"d", d}, {"e", e}};
  for (const auto& [pool, spec] : pools) {
    yaml += std::string("    - {name: ") + pool +
            ", gpu: A100-80GB, nodes: 1, " + spec + "}\n";
  }
  yaml += "workload:\n  classes:\n";
  for (const auto& [pool, spec] : pools) {
    yaml += std::string("    - {name: ") + pool +
            "-jobs, class: batch, count: 4, gpus: 0.25, gpu_memory_mib: "
            "8000,\n       sm_demand: 0.3, node_selector: "
            "{gpushare.io/node-pool: " +
            pool + "}}\n";
  }
  return ReadScenarioYaml(yaml, name + ".yaml", TestCatalog());
}

const char kHami[] = "sharing: {scheme: hami}";
const char kMig1g[] =
    "sharing: {scheme: mig, mig_strategy: mixed, mig_config: all-1g.10gb}";
const char kExclusive[] = "sharing: {scheme: exclusive}";
const char kRenamed[] =
    "sharing: {scheme: time-slicing, replicas: 4, rename_by_default: true}";
const char kDra[] = "devices: dra, sharing: {scheme: exclusive}";

// The patch document of class `name` in `text`.
YAML::Node PatchOf(const std::string& text, const std::string& name) {
  const std::string marker = "# class " + name + " (";
  size_t at = text.find(marker);
  if (at == std::string::npos) return YAML::Node();
  size_t end = text.find("\n---\n", at);
  return YAML::Load(text.substr(at, end == std::string::npos
                                        ? std::string::npos
                                        : end - at));
}

// Patches only add (issue 53): a strategic merge merges resources.limits
// key by key. So each patch sets to null every GPU resource name of the
// cluster — today's pools and the plan's — its class does not ask now, in
// limits and requests alike: HAMi's four names and nvidia.com/gpu for a
// class moved to MIG, the MIG profile and the renamed time-slicing
// resource for one that stays on HAMi.
TEST(PodTemplatePatchesTest, PatchesDeleteTheKeysOfTheSchemesTheyLeave) {
  const Scenario today =
      FivePools("today", kHami, kHami, kMig1g, kDra, kRenamed);
  const Scenario plan =
      FivePools("plan", kMig1g, kRenamed, kExclusive, kExclusive, kHami);
  const std::string text =
      PodTemplatePatchesYaml(plan, TestCatalog(), 3, &today);
  const YAML::Node a = PatchOf(text, "a-jobs")["spec"]["template"]["spec"];
  ASSERT_TRUE(a.IsMap()) << text;
  const YAML::Node res = a["containers"][0]["resources"];
  EXPECT_EQ(Asked(res["limits"]),
            (std::map<std::string, int>{{"nvidia.com/mig-1g.10gb", 1}}));
  EXPECT_EQ(Deleted(res["limits"]),
            (std::vector<std::string>{
                "nvidia.com/gpu", "nvidia.com/gpu.shared", "nvidia.com/gpucores",
                "nvidia.com/gpumem", "nvidia.com/gpumem-percentage",
                "nvidia.com/priority"}))
      << text;
  // Requests equal limits for extended resources: the same entries.
  EXPECT_EQ(YAML::Dump(res["requests"]), YAML::Dump(res["limits"]));
  // b: HAMi → renamed time-slicing.
  const YAML::Node b = PatchOf(text, "b-jobs")["spec"]["template"]["spec"]
                           ["containers"][0]["resources"]["limits"];
  EXPECT_EQ(Asked(b),
            (std::map<std::string, int>{{"nvidia.com/gpu.shared", 1}}));
  EXPECT_TRUE(b["nvidia.com/gpu"].IsNull());
  EXPECT_TRUE(b["nvidia.com/mig-1g.10gb"].IsNull());
  EXPECT_TRUE(b["nvidia.com/gpumem"].IsNull());
  // e: renamed time-slicing → HAMi keeps nvidia.com/gpu and adds gpumem
  // and gpucores; the renamed name goes.
  const YAML::Node e = PatchOf(text, "e-jobs")["spec"]["template"]["spec"]
                           ["containers"][0]["resources"]["limits"];
  EXPECT_EQ(Asked(e), (std::map<std::string, int>{{"nvidia.com/gpu", 1},
                                                  {"nvidia.com/gpucores", 30},
                                                  {"nvidia.com/gpumem", 8000}}));
  EXPECT_EQ(Deleted(e), (std::vector<std::string>{
                            "nvidia.com/gpu.shared", "nvidia.com/gpumem-percentage",
                            "nvidia.com/mig-1g.10gb", "nvidia.com/priority"}));
  // Without `today` the plan's own pools give the names: the DRA pool is
  // gone, so no claim is deleted.
  const std::string alone = PodTemplatePatchesYaml(plan, TestCatalog(), 3);
  EXPECT_EQ(alone.find("$patch"), std::string::npos) << alone;
  EXPECT_EQ(alone.find("claims"), std::string::npos) << alone;
}

// A class leaving DRA deletes the pod's claim by name ($patch: delete, in
// resourceClaims, which merges by name) and its container's claims (no
// patch strategy: null deletes the list); a class getting a claim sets the
// other of resourceClaimName / resourceClaimTemplateName to null, and no
// GPU extended resource.
TEST(PodTemplatePatchesTest, ClaimsAreDeletedWhereAClassLeavesDra) {
  const Scenario today =
      FivePools("today", kDra, kExclusive, kExclusive, kExclusive, kExclusive);
  const Scenario plan =
      FivePools("plan", kExclusive, kDra, kExclusive, kExclusive, kExclusive);
  const std::string text =
      PodTemplatePatchesYaml(plan, TestCatalog(), 3, &today);
  const YAML::Node a = PatchOf(text, "a-jobs")["spec"]["template"]["spec"];
  ASSERT_TRUE(a["resourceClaims"].IsSequence()) << text;
  EXPECT_EQ(a["resourceClaims"][0]["name"].as<std::string>(), "gpu");
  EXPECT_EQ(a["resourceClaims"][0]["$patch"].as<std::string>(), "delete");
  EXPECT_EQ(a["resourceClaims"][0].size(), 2u);
  EXPECT_TRUE(a["containers"][0]["resources"]["claims"].IsNull());
  EXPECT_EQ(Asked(a["containers"][0]["resources"]["limits"]),
            (std::map<std::string, int>{{"nvidia.com/gpu", 1}}));
  const YAML::Node b = PatchOf(text, "b-jobs")["spec"]["template"]["spec"];
  EXPECT_EQ(b["resourceClaims"][0]["resourceClaimTemplateName"]
                .as<std::string>(),
            "b-jobs-b-gpu");
  EXPECT_TRUE(b["resourceClaims"][0]["resourceClaimName"].IsNull());
  EXPECT_EQ(b["containers"][0]["resources"]["claims"][0]["name"]
                .as<std::string>(),
            "gpu");
  EXPECT_TRUE(Asked(b["containers"][0]["resources"]["limits"]).empty());
  EXPECT_TRUE(b["containers"][0]["resources"]["limits"]["nvidia.com/gpu"]
                  .IsNull());
  EXPECT_NE(text.find("# DRA runs in the cluster"), std::string::npos);
}

// HAMi's webhook sends every pod asking nvidia.com/gpu to hami-scheduler
// (forceOverwriteDefaultScheduler), which fails on nodes HAMi did not
// register. Where HAMi runs — a HAMi pool today or in the plan — pods of
// the other pools carry hami.io/webhook: ignore (the webhook's
// objectSelector) and schedulerName default-scheduler; HAMi pools' pods
// delete the label and name hami-scheduler. Without HAMi, no label.
TEST(PodTemplatePatchesTest, OtherPoolsOptOutOfHamisWebhook) {
  const Scenario today =
      FivePools("today", kHami, kExclusive, kExclusive, kExclusive, kExclusive);
  const Scenario plan = FivePools("plan", kMig1g, kHami, kRenamed, kExclusive,
                                  kDra);
  const std::string text =
      PodTemplatePatchesYaml(plan, TestCatalog(), 3, &today);
  for (const char* name : {"a-jobs", "c-jobs", "d-jobs", "e-jobs"}) {
    const YAML::Node t = PatchOf(text, name)["spec"]["template"];
    ASSERT_TRUE(t.IsMap()) << name << "\n" << text;
    EXPECT_EQ(t["metadata"]["labels"]["hami.io/webhook"].as<std::string>(),
              "ignore")
        << name;
    EXPECT_EQ(t["spec"]["schedulerName"].as<std::string>(),
              "default-scheduler")
        << name;
  }
  const YAML::Node b = PatchOf(text, "b-jobs")["spec"]["template"];
  EXPECT_TRUE(b["metadata"]["labels"]["hami.io/webhook"].IsNull());
  EXPECT_EQ(b["spec"]["schedulerName"].as<std::string>(), "hami-scheduler");
  EXPECT_NE(text.find("hami.io/webhook: ignore,\n# which the webhook's "
                      "objectSelector skips"),
            std::string::npos)
      << text;
  // HAMi only today: the plan leaves it, its release may still run.
  const Scenario off = FivePools("off", kMig1g, kExclusive, kExclusive,
                                 kExclusive, kExclusive);
  const std::string leaving =
      PodTemplatePatchesYaml(off, TestCatalog(), 3, &today);
  EXPECT_EQ(PatchOf(leaving, "a-jobs")["spec"]["template"]["metadata"]
                   ["labels"]["hami.io/webhook"]
                       .as<std::string>(),
            "ignore");
  // No HAMi anywhere: no label, the scheduler still set.
  const std::string none = PodTemplatePatchesYaml(off, TestCatalog(), 3);
  EXPECT_EQ(none.find("hami.io/webhook"), std::string::npos) << none;
  EXPECT_EQ(PatchOf(none, "a-jobs")["spec"]["template"]["spec"]
                   ["schedulerName"]
                       .as<std::string>(),
            "default-scheduler");
}

}  // namespace
}  // namespace pod_template_patches_test
}  // namespace gpushare
