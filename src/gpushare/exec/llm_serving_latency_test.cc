// Continuous batching by hand (docs/model.md §6.8): the Llama-3-8B-like
// engine of llm_step_model_test.cc (hidden size estimated: sqrt(8.05e9 /
// (12 x 32)) = 4,579.47), prompts of 512 and outputs of 256 tokens, on a
// whole A100-40GB (1,555 GB/s): a = 13.810184 ms per step for the weights,
// the compute of a 512-token prompt 36.543589 ms (2 x 8.05e9 x 512 FLOP
// plus 4 x 32 x 4,579.47 x 512 x 256 of attention over 312e12 x 0.73) —
// larger than its step's reads (13.867727 ms), so a lone prompt's step is
// its compute (the roofline).

#include "gpushare/exec/llm_serving_latency.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace gpushare {
namespace {

LlmEngine ServingTestEngine() {
  LlmEngine e;
  e.weights_gib = 15;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.prompt_tokens = Distribution::Constant(512);
  e.output_tokens = Distribution::Constant(256);
  return e;
}

LlmServingInputs Serving(double rate, int64_t seqs) {
  LlmServingInputs in;
  in.request_rate = rate;
  in.max_seqs = seqs;
  return in;
}

TEST(LlmServingLatencyTest, ErlangCByHand) {
  EXPECT_DOUBLE_EQ(ErlangC(1, 0.5), 0.5);  // M/M/1: P(wait) = rho
  EXPECT_NEAR(ErlangC(2, 1), 1.0 / 3, 1e-12);
  EXPECT_EQ(ErlangC(2, 2), 1);
  EXPECT_EQ(ErlangC(4, 0), 0);
}

TEST(LlmServingLatencyTest, ErlangCOfManyServersStopsOnceNoneWait) {
  // Erlang B at 10 Erlangs underflows to 0 after a few hundred servers and
  // stays there: 2^40 KV slots (max_num_seqs is up to 2^20, but the
  // recursion must not walk them all at every sample) answer 0 at once.
  EXPECT_EQ(ErlangC(int64_t{1} << 40, 10), 0);
  EXPECT_GT(ErlangC(20, 10), 0.0);
}

TEST(LlmServingLatencyTest, ALoneRequest) {
  const LlmLatency l = LlmServingLatency(ServingTestEngine(), LlmDevice{},
                                         ModelParams{}, Serving(0, 256));
  ASSERT_FALSE(l.saturated);
  EXPECT_NEAR(l.ttft_p50_ms, 36.543589, 1e-5);
  EXPECT_NEAR(l.ttft_p99_ms, 36.543589, 1e-5);
  EXPECT_NEAR(l.tpot_p50_ms, 13.810184, 1e-5);
  EXPECT_NEAR(l.p50_ms, 36.543589 + 255 * 13.810184, 1e-3);
  EXPECT_EQ(l.batch, 0);
  EXPECT_EQ(l.busy, 0);
}

TEST(LlmServingLatencyTest, ContinuousBatchingAtTwoRequestsPerSecond) {
  // rho_p = 2 x 36.543589 / 1000 = 0.073087; k = 2 x 256 / (1000 (1 -
  // rho_p)) = 0.552371; b = 640 tokens x 131,072 B / 1,166.25e9 B/s =
  // 0.071928 ms; B = k a / (1 - k b) = 7.943971; TPOT = (a + b B) / (1 -
  // rho_p) = 15.515568, at p99 with B + 2.326 sqrt(B) = 16.024298.
  const LlmLatency l = LlmServingLatency(ServingTestEngine(), LlmDevice{},
                                         ModelParams{}, Serving(2, 256));
  ASSERT_FALSE(l.saturated);
  EXPECT_NEAR(l.batch, 7.943971, 1e-5);
  EXPECT_NEAR(l.tpot_p50_ms, 15.515568, 1e-5);
  EXPECT_NEAR(l.tpot_p99_ms, 16.024298, 1e-5);
  // One chunk of 512 tokens beside B decoding sequences: one compute-bound
  // roofline step, no KV wait.
  EXPECT_NEAR(l.ttft_p50_ms, 37.118435, 1e-5);
  EXPECT_NEAR(l.ttft_p99_ms, 37.118435, 1e-5);
  EXPECT_NEAR(l.utilization, 8.017058 / 256, 1e-7);
  // Busy: 0.073087 + 0.926913 (1 - e^-7.943971).
  EXPECT_NEAR(l.busy, 0.999671, 1e-6);
}

TEST(LlmServingLatencyTest, KvFullRequestsWait) {
  // Slot time S = 4,008.528882 ms, offered load A = 8.017058 Erlangs.
  // 15 slots: P(wait) = 0.019638 > 1 %: p99 waits ln(0.019638 / 0.01) S /
  // (15 - A) = 387.403 ms; 12 slots: 2,667.124 ms; 8 slots: saturated.
  const LlmEngine e = ServingTestEngine();
  const LlmLatency roomy =
      LlmServingLatency(e, LlmDevice{}, ModelParams{}, Serving(2, 256));
  const LlmLatency fifteen =
      LlmServingLatency(e, LlmDevice{}, ModelParams{}, Serving(2, 15));
  const LlmLatency twelve =
      LlmServingLatency(e, LlmDevice{}, ModelParams{}, Serving(2, 12));
  const LlmLatency eight =
      LlmServingLatency(e, LlmDevice{}, ModelParams{}, Serving(2, 8));
  EXPECT_NEAR(fifteen.wait_probability, 0.019638, 1e-6);
  EXPECT_NEAR(fifteen.ttft_p99_ms - roomy.ttft_p99_ms, 387.403, 1e-3);
  EXPECT_NEAR(twelve.ttft_p99_ms - roomy.ttft_p99_ms, 2667.124, 1e-3);
  EXPECT_EQ(twelve.ttft_p50_ms, roomy.ttft_p50_ms);  // P(wait) < 0.5
  EXPECT_TRUE(eight.saturated);
  EXPECT_TRUE(std::isinf(eight.ttft_p99_ms));
}

TEST(LlmServingLatencyTest, TtftGrowsWithPromptLength) {
  LlmEngine longer = ServingTestEngine();
  longer.prompt_tokens = Distribution::Constant(2048);
  const LlmLatency l = LlmServingLatency(longer, LlmDevice{}, ModelParams{},
                                         Serving(0, 256));
  // One chunk: 4 x the linear compute and 16 x the attention of 512.
  EXPECT_NEAR(l.ttft_p50_ms, 150.222340, 1e-5);
}

TEST(LlmServingLatencyTest, TtftGrowsWithTimeSliceNeighbours) {
  LlmServingInputs in = Serving(0, 256);
  in.contexts = 4;  // 3 others' turns of 1.024 + 0.2 ms, p99 of uniform
  const LlmLatency l =
      LlmServingLatency(ServingTestEngine(), LlmDevice{}, ModelParams{}, in);
  EXPECT_NEAR(l.ttft_p99_ms, 36.543589 + 0.99 * 3 * 1.224, 1e-5);
  EXPECT_NEAR(l.ttft_p50_ms, 36.543589 + 0.5 * 3 * 1.224, 1e-5);
  // A quarter time share: every step and prefill 4 x as long.
  LlmDevice quarter;
  quarter.share = 0.25;
  const LlmLatency q = LlmServingLatency(ServingTestEngine(), quarter,
                                         ModelParams{}, Serving(0, 256));
  EXPECT_NEAR(q.ttft_p50_ms, 4 * 36.543589, 1e-4);
  EXPECT_NEAR(q.tpot_p50_ms, 4 * 13.810184, 1e-5);
}

TEST(LlmServingLatencyTest, NoKvCacheIsSaturated) {
  EXPECT_TRUE(LlmServingLatency(ServingTestEngine(), LlmDevice{},
                                ModelParams{}, Serving(1, 0))
                  .saturated);
}

}  // namespace
}  // namespace gpushare
