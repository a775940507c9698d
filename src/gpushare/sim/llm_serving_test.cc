// LLM engines' token timing in whole runs (docs/model.md §6.8): the
// grant's bandwidth decides decode (H200 against H100, a MIG 3g instance
// against its whole GPU), and TTFT grows with the prompt and with
// time-slice neighbours.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace llm_serving_test {
namespace {

// One `gpu` with `sharing`: a Llama-3-8B chat engine at `rate` requests/s
// with `prompt`-token prompts pre-allocating `utilization` of what it sees,
// and `neighbours` busy batch pods.
SimulationResult RunChat(const std::string& gpu, const std::string& sharing,
                         double rate, int prompt, int neighbours = 0,
                         double utilization = 0.9) {
  std::string text = R"(horizon_s: 300
sample_interval_s: 60
cluster:
  pools:
    - {name: p, gpu: )" + gpu + R"(, nodes: 1, gpus_per_node: 1,
       sharing: )" + sharing + R"(}
workload:
  horizon_s: 1
  classes:
    - name: chat
      class: inference
      count: 1
      lifetime_s: 600
      request_rate: )" + std::to_string(rate) + R"(
      gpu_ms_per_request: 20
      gpu_memory_mib: 30000
      slo_ttft_p99_ms: 1000
      slo_tpot_p99_ms: 50
      engine:
        weights_gib: 15
        gpu_memory_utilization: )" + std::to_string(utilization) + R"(
        kv_cache: {layers: 32, kv_heads: 8, head_dim: 128}
        prompt_tokens: )" + std::to_string(prompt) + R"(
        output_tokens: 256
)";
  if (neighbours > 0) {
    text += R"(    - name: crunch
      class: batch
      count: )" + std::to_string(neighbours) + R"(
      work_s: 100000
      gpu_memory_mib: 4000
)";
  }
  static const Catalog catalog = Catalog::Builtin();
  return testing_scenarios::RunAndCollect(
      ReadScenarioYaml(text, "chat.yaml", catalog));
}

const PodRecord& Chat(const SimulationResult& r GS_LIFETIMEBOUND) {
  for (const PodRecord& p : r.pod_records) {
    if (p.tenant_class == "chat") return p;
  }
  ADD_FAILURE() << "no chat pod";
  return r.pod_records.front();
}

constexpr const char* kExclusive = "{scheme: exclusive}";

TEST(LlmServingTest, DecodeBoundServiceIsFasterOnH200ByTheBandwidthRatio) {
  const PodRecord h100 = Chat(RunChat("H100-80GB", kExclusive, 1, 512));
  const PodRecord h200 = Chat(RunChat("H200-141GB", kExclusive, 1, 512));
  ASSERT_GT(h100.latency_samples, 0);
  ASSERT_GT(h200.tpot_p50_ms, 0);
  // 4,800 / 3,350 GB/s = 1.433; the batch's KV reads shift it a little.
  EXPECT_NEAR(h100.tpot_p50_ms / h200.tpot_p50_ms, 4800.0 / 3350,
              0.1 * 4800 / 3350);
  EXPECT_LT(h200.p99_ms, h100.p99_ms);
  EXPECT_EQ(h100.slo_ttft_p99_ms, 1000);
  EXPECT_EQ(h100.slo_attainment, 1);
}

TEST(LlmServingTest, MigThreeGInstanceGetsItsMemorySlicesBandwidth) {
  // A 30,000-MiB request gets 3g.40gb of all-balanced: 4 of 8 memory
  // slices, half the bandwidth, so twice the decode step's reads (nearly no
  // batch at 0.1 requests/s), 6.4104 ms of weights against 12.8208 ms; the
  // CPU's 0.4 ms a step (llm_step_overhead_chunked_prefill_ms) stays:
  // (12.8208 + 0.4) / (6.4104 + 0.4) = 1.941.
  const PodRecord whole = Chat(RunChat("H100-80GB", kExclusive, 0.1, 512));
  const PodRecord mig = Chat(RunChat(
      "H100-80GB", "{scheme: mig, mig_strategy: mixed, mig_config: "
                   "all-balanced}", 0.1, 512));
  ASSERT_GT(mig.latency_samples, 0) << mig.message;
  EXPECT_NEAR(mig.tpot_p50_ms / whole.tpot_p50_ms, 1.941, 0.01);
}

TEST(LlmServingTest, TtftGrowsWithPromptLength) {
  const PodRecord short_prompt =
      Chat(RunChat("H100-80GB", kExclusive, 1, 256));
  const PodRecord long_prompt =
      Chat(RunChat("H100-80GB", kExclusive, 1, 4096));
  EXPECT_GT(long_prompt.ttft_p99_ms, 4 * short_prompt.ttft_p99_ms);
}

TEST(LlmServingTest, TtftGrowsWithTimeSliceNeighbours) {
  const std::string ts = "{scheme: time-slicing, replicas: 4}";
  const PodRecord alone = Chat(RunChat("H100-80GB", ts, 1, 512, 0, 0.3));
  const PodRecord crowded = Chat(RunChat("H100-80GB", ts, 1, 512, 3, 0.3));
  ASSERT_GT(crowded.latency_samples, 0) << crowded.message;
  EXPECT_GT(crowded.ttft_p99_ms, 1.5 * alone.ttft_p99_ms);
  EXPECT_GT(crowded.tpot_p50_ms, alone.tpot_p50_ms);
  EXPECT_GT(crowded.neighbour_missed_samples + crowded.slo_met_samples, 0);
}

}  // namespace
}  // namespace llm_serving_test
}  // namespace gpushare
