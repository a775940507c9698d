// Continuous batching by hand (docs/model.md §6.8): the Llama-3-8B-like
// engine of llm_step_model_test.cc, prompts of 512 and outputs of 256
// tokens, on a whole A100-40GB (1,555 GB/s): a = 13.810184 ms per step for
// the weights, prefill of 512 tokens 52.861136 ms. The CPU overheads are
// set to 0 here (llm_scheduling_test.cc checks them), and the scheduling is
// vLLM V1's chunked prefill: a prompt's first step takes the larger of its
// compute and the step's reads (a roofline), after half a step's wait on
// average while a batch runs.

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

ModelParams NoOverheads() {
  ModelParams p;
  p.llm_step_overhead_chunked_prefill_ms = 0;
  p.llm_step_overhead_multi_step_ms = 0;
  p.llm_step_overhead_eager_ms = 0;
  p.llm_step_overhead_per_seq_ms = 0;
  p.llm_request_overhead_ms = 0;
  return p;
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
                                         NoOverheads(), Serving(0, 256));
  ASSERT_FALSE(l.saturated);
  // The prompt's compute outlasts the weights' read: max(52.86, 13.81).
  EXPECT_NEAR(l.ttft_p50_ms, 52.861136, 1e-5);
  EXPECT_NEAR(l.ttft_p99_ms, 52.861136, 1e-5);
  EXPECT_NEAR(l.tpot_p50_ms, 13.810184, 1e-5);
  EXPECT_NEAR(l.p50_ms, 52.861136 + 255 * 13.810184, 1e-3);
  EXPECT_EQ(l.batch, 0);
  EXPECT_EQ(l.busy, 0);
}

TEST(LlmServingLatencyTest, ContinuousBatchingAtTwoRequestsPerSecond) {
  // rho_p = 2 x 36.543589 / 1000 = 0.073087; k = 2 x 256 / (1000 (1 -
  // rho_p)) = 0.552371; b = 640 tokens x 131,072 B / 1,166.25e9 B/s =
  // 0.071928 ms; B = k a / (1 - k b) = 7.943971; TPOT = (a + b B) / (1 -
  // rho_p) = 15.515568, at p99 with B + 2.326 sqrt(B) = 16.024298.
  const LlmLatency l = LlmServingLatency(ServingTestEngine(), LlmDevice{},
                                         NoOverheads(), Serving(2, 256));
  ASSERT_FALSE(l.saturated);
  EXPECT_NEAR(l.batch, 8.246323, 1e-5);
  EXPECT_NEAR(l.tpot_p50_ms, 16.106100, 1e-5);
  EXPECT_NEAR(l.tpot_p99_ms, 16.643336, 1e-5);
  // One chunk of 512 tokens in one step of the batch, max(52.861136,
  // 14.403322) = 52.861136, after the wait for the next step: a batch runs
  // with beta = 1 - e^-B = 0.999738, the wait is uniform over a step's wall
  // time 16.106100: p50 16.106100 (0.5 - 0.000262) / 0.999738 = 8.050937,
  // p99 15.944996.
  EXPECT_NEAR(l.ttft_p50_ms, 60.912073, 1e-5);
  EXPECT_NEAR(l.ttft_p99_ms, 68.806132, 1e-5);
  EXPECT_NEAR(l.utilization, 8.352045 / 256, 1e-7);
  // Busy: 0.105722 + 0.894278 (1 - e^-8.246323).
  EXPECT_NEAR(l.busy, 0.999765, 1e-6);
}

TEST(LlmServingLatencyTest, KvFullRequestsWait) {
  // Slot time S = 4,008.528882 ms, offered load A = 8.017058 Erlangs.
  // 15 slots: P(wait) = 0.019638 > 1 %: p99 waits ln(0.019638 / 0.01) S /
  // (15 - A) = 387.403 ms; 12 slots: 2,667.124 ms; 8 slots: saturated.
  const LlmEngine e = ServingTestEngine();
  const LlmLatency roomy =
      LlmServingLatency(e, LlmDevice{}, NoOverheads(), Serving(2, 256));
  const LlmLatency sixteen =
      LlmServingLatency(e, LlmDevice{}, NoOverheads(), Serving(2, 16));
  const LlmLatency twelve =
      LlmServingLatency(e, LlmDevice{}, NoOverheads(), Serving(2, 12));
  const LlmLatency eight =
      LlmServingLatency(e, LlmDevice{}, NoOverheads(), Serving(2, 8));
  EXPECT_NEAR(sixteen.wait_probability, 0.013208, 1e-6);
  EXPECT_NEAR(sixteen.ttft_p99_ms - roomy.ttft_p99_ms, 151.921, 1e-3);
  EXPECT_NEAR(twelve.ttft_p99_ms - roomy.ttft_p99_ms, 3297.083, 1e-3);
  EXPECT_EQ(twelve.ttft_p50_ms, roomy.ttft_p50_ms);  // P(wait) < 0.5
  EXPECT_TRUE(eight.saturated);
  EXPECT_TRUE(std::isinf(eight.ttft_p99_ms));
}

TEST(LlmServingLatencyTest, TtftGrowsWithPromptLength) {
  LlmEngine longer = ServingTestEngine();
  longer.prompt_tokens = Distribution::Constant(2048);
  const LlmLatency l = LlmServingLatency(longer, LlmDevice{}, NoOverheads(),
                                         Serving(0, 256));
  // 4 x the prefill compute, still one chunk.
  EXPECT_NEAR(l.ttft_p50_ms, 4 * 52.861136, 1e-4);
}

TEST(LlmServingLatencyTest, TtftGrowsWithTimeSliceNeighbours) {
  LlmServingInputs in = Serving(0, 256);
  in.contexts = 4;  // 3 others' turns of 1.024 + 0.2 ms, p99 of uniform
  const LlmLatency l =
      LlmServingLatency(ServingTestEngine(), LlmDevice{}, NoOverheads(), in);
  EXPECT_NEAR(l.ttft_p99_ms, 52.861136 + 0.99 * 3 * 1.224, 1e-5);
  EXPECT_NEAR(l.ttft_p50_ms, 52.861136 + 0.5 * 3 * 1.224, 1e-5);
  // A quarter time share: every step and prefill 4 x as long.
  LlmDevice quarter;
  quarter.share = 0.25;
  const LlmLatency q = LlmServingLatency(ServingTestEngine(), quarter,
                                         NoOverheads(), Serving(0, 256));
  EXPECT_NEAR(q.ttft_p50_ms, 4 * 52.861136, 1e-4);
  EXPECT_NEAR(q.tpot_p50_ms, 4 * 13.810184, 1e-5);
}

TEST(LlmServingLatencyTest, NoKvCacheIsSaturated) {
  EXPECT_TRUE(LlmServingLatency(ServingTestEngine(), LlmDevice{},
                                NoOverheads(), Serving(1, 0))
                  .saturated);
}

}  // namespace
}  // namespace gpushare
