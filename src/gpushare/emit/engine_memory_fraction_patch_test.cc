// `gpu_memory_utilization: auto`: what the simulation's engines
// pre-allocate is what the emitted pod patch caps them at (docs/emit.md,
// docs/model.md §6.7). Reads both: the fraction in the patch's env, and the
// KV cache the simulated engine was left with.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/test_scenarios.h"
#include "gpushare/workload/engine_memory_fraction.h"

namespace gpushare {
namespace engine_memory_fraction_patch_test {
namespace {

// An H100-80GB (81,559 MiB) time-sliced pool and one under HAMi; an
// engine class on each asking `request_mib`.
Scenario TwoSchemes(int request_mib) {
  static const Catalog catalog = Catalog::Builtin();
  const std::string engine =
      "      engine: {weights_gib: 15, kv_cache: {layers: 32, kv_heads: 8, "
      "head_dim: 128}}\n";
  const auto klass = [&](const char* name, const char* pool) {
    return std::string("    - name: ") + name +
           "\n      class: inference\n      count: 1\n      lifetime_s: "
           "600\n      request_rate: 1\n      gpu_ms_per_request: 10\n"
           "      gpu_memory_mib: " +
           std::to_string(request_mib) +
           "\n      node_selector: {gpushare.io/node-pool: " + pool + "}\n" +
           engine;
  };
  return ReadScenarioYaml(
      "horizon_s: 300\ncluster:\n  pools:\n"
      "    - {name: ts, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n"
      "    - {name: vgpu, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: hami}}\n"
      "workload:\n  horizon_s: 1\n  classes:\n" +
          klass("sliced", "ts") + klass("isolated", "vgpu"),
      "fraction.yaml", catalog);
}

// KV tokens of Llama-3-8B (15 GiB, 1 GiB reserved, 2-MiB blocks of 16
// tokens) in floor(fraction x visible) MiB.
int64_t KvTokens(double fraction, int64_t visible_mib) {
  const int64_t footprint = static_cast<int64_t>(
      std::floor(fraction * static_cast<double>(visible_mib) + 1e-9));
  return std::max<int64_t>(0, (footprint - 16384) / 2) * 16;
}

TEST(EngineMemoryFractionPatchTest, SimulatedEnginesTakeWhatThePatchSets) {
  for (int request : {20000, 30000, 50000}) {
    const Scenario s = TwoSchemes(request);
    static const Catalog catalog = Catalog::Builtin();
    const std::vector<YAML::Node> docs =
        YAML::LoadAll(PodTemplatePatchesYaml(s, catalog));
    ASSERT_EQ(docs.size(), 2u);
    const YAML::Node env =
        docs[0]["spec"]["template"]["spec"]["containers"][0]["env"];
    ASSERT_TRUE(env.IsSequence());
    ASSERT_EQ(env[0]["name"].as<std::string>(),
              "GPUSHARE_GPU_MEMORY_FRACTION");
    const double patched = std::stod(env[0]["value"].as<std::string>());
    // The one function both call.
    EXPECT_DOUBLE_EQ(patched, AutoGpuMemoryUtilization(true, 0.92, request,
                                                       81559));
    // HAMi isolates memory: no cap; the engine takes vLLM's 0.92 of gpumem.
    EXPECT_FALSE(
        docs[1]["spec"]["template"]["spec"]["containers"][0]["env"]
            .IsDefined());
    const SimulationResult r = testing_scenarios::RunAndCollect(s);
    ASSERT_EQ(r.pod_records.size(), 2u);
    for (const PodRecord& p : r.pod_records) {
      ASSERT_EQ(p.outcome, PodOutcome::kRunning) << p.message;
      if (p.tenant_class == "sliced") {
        EXPECT_EQ(p.kv_cache_tokens, KvTokens(patched, 81559)) << request;
      } else {
        EXPECT_EQ(p.kv_cache_tokens, KvTokens(0.92, request)) << request;
      }
    }
  }
}

TEST(EngineMemoryFractionTest, ByHand) {
  // 20,000 / 81,559 = 0.2452 -> 0.24; at least 0.01, at most 1.
  EXPECT_EQ(TimeSlicedEngineCapHundredths(20000, 81559), 24);
  EXPECT_EQ(TimeSlicedEngineCapHundredths(100, 81559), 1);
  EXPECT_EQ(TimeSlicedEngineCapHundredths(90000, 81559), 100);
  EXPECT_EQ(TimeSlicedEngineCapHundredths(0, 81559), 0);
  EXPECT_DOUBLE_EQ(AutoGpuMemoryUtilization(true, 0.92, 20000, 81559), 0.24);
  EXPECT_DOUBLE_EQ(AutoGpuMemoryUtilization(false, 0.92, 20000, 81559), 0.92);
  EXPECT_DOUBLE_EQ(AutoGpuMemoryUtilization(false, 1.0, 20000, 20000), 1.0);
  EXPECT_DOUBLE_EQ(AutoGpuMemoryUtilization(true, 0.92, 0, 81559), 0.92);
}

}  // namespace
}  // namespace engine_memory_fraction_patch_test
}  // namespace gpushare
