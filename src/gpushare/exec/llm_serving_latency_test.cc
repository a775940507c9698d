// Continuous batching by hand (docs/model.md §6.8): the Llama-3-8B-like
// engine of llm_step_model_test.cc, prompts of 512 and outputs of 256
// tokens, on a whole A100-40GB (1,555 GB/s): a = 15 GiB / (1,555e9 x 0.75
// B/s) = 13.810184 ms per step for the weights; prefill of 512 tokens at
// 312e12 x 0.73 FLOP/s: 2 x 8.053e9 x 512 (weights, 36.206 ms) + 4 x 32 x
// 4,579.5 x 512²/2 (attention, hidden size estimated from the parameters:
// 0.337 ms) = 36.543589 ms. The CPU overheads are
// set to 0 here (llm_scheduling_test.cc checks them), and the scheduling is
// vLLM V1's chunked prefill: a prompt's first step takes the larger of its
// compute and the step's reads (a roofline), after half a step's wait on
// average while a batch runs.

#include "gpushare/exec/llm_serving_latency.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "gpushare/exec/llm_test_engine.h"

namespace gpushare {
namespace {

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
  const LlmLatency l = LlmServingLatency(Llama8bTestEngine(), LlmDevice{},
                                         NoLlmOverheads(), Serving(0, 256));
  ASSERT_FALSE(l.saturated);
  // The prompt's compute outlasts the weights' read: max(36.54, 13.81).
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
  // rho_p) = 15.515568, at p99 with B + 2.326 sqrt(B) = 14.499813 sequences
  // 16.024298. (The compute piece of the roofline, 0.0723 ms a sequence
  // and no fixed part, gives B = 0: the reads decide.)
  const LlmLatency l = LlmServingLatency(Llama8bTestEngine(), LlmDevice{},
                                         NoLlmOverheads(), Serving(2, 256));
  ASSERT_FALSE(l.saturated);
  EXPECT_NEAR(l.batch, 7.943971, 1e-5);
  EXPECT_NEAR(l.tpot_p50_ms, 15.515568, 1e-5);
  EXPECT_NEAR(l.tpot_p99_ms, 16.024298, 1e-5);
  // One chunk of 512 tokens behind the prompts still waiting for their
  // prefill (first come, first served: an M/D/1 queue's mean backlog,
  // rho_p / (2 (1 - rho_p)) x 512 = 20.186 tokens) in one step of the
  // batch, max(p(532.186) = 37.998146, 13.810184 + 0.071928 B = 14.381578),
  // after the wait for the next step: a batch runs with beta = 1 - e^-B =
  // 0.999645, the wait is uniform over a step's wall time 15.515568: p50
  // 15.515568 (0.5 - 0.000355) / 0.999645 = 7.755030, p99 15.360357.
  EXPECT_NEAR(l.ttft_p50_ms, 45.753176, 1e-5);
  EXPECT_NEAR(l.ttft_p99_ms, 53.358503, 1e-5);
  // Slot time 36.543589 + 256 x 15.515568 = 4,008.528882 ms: 8.017058
  // Erlangs.
  EXPECT_NEAR(l.utilization, 8.017058 / 256, 1e-7);
  // Busy: 0.073087 + 0.926913 (1 - e^-7.943971).
  EXPECT_NEAR(l.busy, 0.999671, 1e-6);
}

TEST(LlmServingLatencyTest, KvFullRequestsWait) {
  // Slot time S = 4,008.528882 ms, offered load A = 8.017058 Erlangs.
  // 15 slots: P(wait) = 0.019638 > 1 %: p99 waits ln(0.019638 / 0.01) S /
  // (15 - A) = 387.403 ms; 16 slots: P(wait) = 0.009193 < 1 %, no p99
  // wait; 12 slots: P(wait) = 0.141554, 2,667.124 ms; 8 slots: saturated.
  const LlmEngine e = Llama8bTestEngine();
  const LlmLatency roomy =
      LlmServingLatency(e, LlmDevice{}, NoLlmOverheads(), Serving(2, 256));
  const LlmLatency fifteen =
      LlmServingLatency(e, LlmDevice{}, NoLlmOverheads(), Serving(2, 15));
  const LlmLatency sixteen =
      LlmServingLatency(e, LlmDevice{}, NoLlmOverheads(), Serving(2, 16));
  const LlmLatency twelve =
      LlmServingLatency(e, LlmDevice{}, NoLlmOverheads(), Serving(2, 12));
  const LlmLatency eight =
      LlmServingLatency(e, LlmDevice{}, NoLlmOverheads(), Serving(2, 8));
  EXPECT_NEAR(fifteen.wait_probability, 0.019638, 1e-6);
  EXPECT_NEAR(fifteen.ttft_p99_ms - roomy.ttft_p99_ms, 387.403, 1e-3);
  EXPECT_NEAR(sixteen.wait_probability, 0.009193, 1e-6);
  EXPECT_NEAR(sixteen.ttft_p99_ms, roomy.ttft_p99_ms, 1e-9);
  EXPECT_NEAR(twelve.wait_probability, 0.141554, 1e-6);
  EXPECT_NEAR(twelve.ttft_p99_ms - roomy.ttft_p99_ms, 2667.124, 1e-3);
  EXPECT_EQ(twelve.ttft_p50_ms, roomy.ttft_p50_ms);  // P(wait) < 0.5
  EXPECT_TRUE(eight.saturated);
  EXPECT_TRUE(std::isinf(eight.ttft_p99_ms));
}

TEST(LlmServingLatencyTest, TtftGrowsWithPromptLength) {
  LlmEngine longer = Llama8bTestEngine();
  longer.prompt_tokens = Distribution::Constant(2048);
  const LlmLatency l = LlmServingLatency(longer, LlmDevice{}, NoLlmOverheads(),
                                         Serving(0, 256));
  // Still one chunk: 4 x the weights' compute (144.825 ms) and 16 x the
  // attention's (5.397 ms) = 150.222340.
  EXPECT_NEAR(l.ttft_p50_ms, 150.222340, 1e-4);
}

TEST(LlmServingLatencyTest, TtftGrowsWithTimeSliceNeighbours) {
  LlmServingInputs in = Serving(0, 256);
  in.contexts = 4;  // 3 others' turns of 1.024 + 0.2 ms, p99 of uniform
  const LlmLatency l =
      LlmServingLatency(Llama8bTestEngine(), LlmDevice{}, NoLlmOverheads(), in);
  EXPECT_NEAR(l.ttft_p99_ms, 36.543589 + 0.99 * 3 * 1.224, 1e-5);
  EXPECT_NEAR(l.ttft_p50_ms, 36.543589 + 0.5 * 3 * 1.224, 1e-5);
  // A quarter time share: every step and prefill 4 x as long.
  LlmDevice quarter;
  quarter.share = 0.25;
  const LlmLatency q = LlmServingLatency(Llama8bTestEngine(), quarter,
                                         NoLlmOverheads(), Serving(0, 256));
  EXPECT_NEAR(q.ttft_p50_ms, 4 * 36.543589, 1e-4);
  EXPECT_NEAR(q.tpot_p50_ms, 4 * 13.810184, 1e-5);
}

TEST(LlmServingLatencyTest, NoKvCacheIsSaturated) {
  EXPECT_TRUE(LlmServingLatency(Llama8bTestEngine(), LlmDevice{},
                                NoLlmOverheads(), Serving(1, 0))
                  .saturated);
}

}  // namespace
}  // namespace gpushare
