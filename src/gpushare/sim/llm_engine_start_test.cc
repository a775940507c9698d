// LLM engines at start (docs/model.md §6.7): what they pre-allocate of the
// memory they see, OOM at start when engines on a GPU without memory
// isolation together pre-allocate more than it has, and KV capacity per
// pod by hand under time-slicing, MIG and HAMi.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace llm_engine_start_test {
namespace {

// One H100-80GB (81,559 MiB) with `sharing`, and `count` chat services of
// 600 s whose engine holds `weights_gib` and pre-allocates `utilization`;
// each asks `request_mib` (HAMi gpumem, the MIG profile).
SimulationResult RunEngines(const std::string& sharing, int count,
                            const std::string& utilization,
                            double weights_gib, int request_mib = 8192) {
  const std::string text = R"(horizon_s: 300
cluster:
  pools:
    - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,
       sharing: )" + sharing + R"(}
workload:
  horizon_s: 1
  classes:
    - name: chat
      class: inference
      count: )" + std::to_string(count) + R"(
      lifetime_s: 600
      request_rate: 1
      gpu_ms_per_request: 10
      gpu_memory_mib: )" + std::to_string(request_mib) + R"(
      restart_policy: Never
      engine:
        weights_gib: )" + std::to_string(weights_gib) + R"(
        gpu_memory_utilization: )" + utilization + R"(
        kv_cache: {layers: 32, kv_heads: 8, head_dim: 128, dtype_bytes: 2}
)";
  static const Catalog catalog = Catalog::Builtin();
  return testing_scenarios::RunAndCollect(
      ReadScenarioYaml(text, "engines.yaml", catalog));
}

constexpr const char* kTimeSlicing = "{scheme: time-slicing, replicas: 4}";

TEST(LlmEngineStartTest, FourUncappedEnginesOnOneTimeSlicedGpuFail) {
  // Each pre-allocates 0.9 x 81,559 = 73,403 MiB of the card it sees: the
  // first fits, the other three OOM at start (no memory isolation).
  const SimulationResult r = RunEngines(kTimeSlicing, 4, "0.9", 15);
  int running = 0;
  int oom = 0;
  for (const PodRecord& p : r.pod_records) {
    running += p.outcome == PodOutcome::kRunning;
    oom += p.oom_kills;
    if (p.oom_kills > 0) {
      EXPECT_EQ(p.outcome, PodOutcome::kFailed);
      EXPECT_EQ(p.message,
                "CUDA out of memory: 73403 MiB in use of 81559 MiB, "
                "allocating 73403 MiB (no memory isolation)");
    }
  }
  EXPECT_EQ(running, 1);
  EXPECT_EQ(oom, 3);
  EXPECT_EQ(r.oom_kills, 3);
}

TEST(LlmEngineStartTest, FourEnginesCappedAtOneFifthAllStart) {
  // 0.2 x 81,559 = 16,311 MiB each, 65,244 MiB for four. KV by hand:
  // 16,311 - 6 GiB weights - 1 GiB reserve = 9,143 MiB = 4,571 blocks of
  // 2 MiB (16 tokens x 128 KiB) = 73,136 tokens; / (512 + 256) = 95 at once.
  const SimulationResult r = RunEngines(kTimeSlicing, 4, "0.2", 6);
  EXPECT_EQ(r.oom_kills, 0);
  for (const PodRecord& p : r.pod_records) {
    EXPECT_EQ(p.outcome, PodOutcome::kRunning) << p.name << " " << p.message;
    EXPECT_EQ(p.kv_cache_tokens, 73136);
    EXPECT_EQ(p.max_concurrent_seqs, 95);
  }
}

TEST(LlmEngineStartTest, NoRoomForKvBlocksFailsAtStart) {
  // `auto` on a time-sliced card: the class's 8,192 MiB over 81,559 is
  // 0.10 (the pod patch's cap), 8,155 MiB < Llama-3-8B's 15 GiB + 1 GiB.
  // (An explicit 0.10 is refused at load: it can start on no GPU.)
  const SimulationResult r = RunEngines(kTimeSlicing, 1, "auto", 15);
  ASSERT_EQ(r.pod_records.size(), 1u);
  const PodRecord& p = r.pod_records[0];
  EXPECT_EQ(p.outcome, PodOutcome::kFailed);
  EXPECT_EQ(p.oom_kills, 1);
  EXPECT_EQ(p.kv_cache_tokens, 0);
  EXPECT_EQ(p.max_concurrent_seqs, 0);
  EXPECT_EQ(p.message,
            "engine failed at start: no available memory for the cache "
            "blocks (8155 MiB pre-allocated of 81559 MiB seen, 15 GiB of "
            "weights and 1 GiB reserved)");
}

TEST(LlmEngineStartTest, AnEngineSeesItsMigInstance) {
  // A 30,000-MiB request gets 3g.40gb (40,448 MiB) of all-balanced: 0.9 of
  // it is 36,403 MiB; 20,019 MiB for KV = 10,009 blocks = 160,144 tokens.
  const SimulationResult r = RunEngines(
      "{scheme: mig, mig_strategy: mixed, mig_config: all-balanced}", 1,
      "0.9", 15, 30000);
  const PodRecord& p = r.pod_records[0];
  ASSERT_EQ(p.outcome, PodOutcome::kRunning) << p.message;
  EXPECT_EQ(p.kv_cache_tokens, 160144);
  EXPECT_EQ(p.max_concurrent_seqs, 208);  // 160,144 / 768
}

TEST(LlmEngineStartTest, AnEngineSeesItsHamiLimit) {
  // gpumem 20,000 MiB: 0.9 of it is 18,000; 1,616 MiB for KV = 808 blocks.
  const SimulationResult r =
      RunEngines("{scheme: hami}", 1, "0.9", 15, 20000);
  const PodRecord& p = r.pod_records[0];
  ASSERT_EQ(p.outcome, PodOutcome::kRunning) << p.message;
  EXPECT_EQ(p.kv_cache_tokens, 808 * 16);
  EXPECT_EQ(p.max_concurrent_seqs, 16);  // 12,928 / 768
}

TEST(LlmEngineStartTest, AutoOnATimeSlicedGpuIsTheClassRequestOverIt) {
  // 20,000 / 81,559 = 0.2452: 0.24 (the pod patch's cap), 19,574 MiB;
  // 3,190 MiB for KV = 1,595 blocks = 25,520 tokens; / 768 = 33 at once.
  const SimulationResult r = RunEngines(kTimeSlicing, 1, "auto", 15, 20000);
  const PodRecord& p = r.pod_records[0];
  ASSERT_EQ(p.outcome, PodOutcome::kRunning) << p.message;
  EXPECT_EQ(p.kv_cache_tokens, 25520);
  EXPECT_EQ(p.max_concurrent_seqs, 33);
}

TEST(LlmEngineStartTest, AutoOnAnIsolatedGrantIsTheKindsDefault) {
  // HAMi gpumem 20,000 MiB: vLLM's 0.92 of it, 18,400 MiB; 2,016 MiB for
  // KV = 1,008 blocks = 16,128 tokens; / 768 = 21 at once.
  const SimulationResult r =
      RunEngines("{scheme: hami}", 1, "auto", 15, 20000);
  const PodRecord& p = r.pod_records[0];
  ASSERT_EQ(p.outcome, PodOutcome::kRunning) << p.message;
  EXPECT_EQ(p.kv_cache_tokens, 16128);
  EXPECT_EQ(p.max_concurrent_seqs, 21);
}

}  // namespace
}  // namespace llm_engine_start_test
}  // namespace gpushare
