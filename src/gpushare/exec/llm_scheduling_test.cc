// Scheduling policies and overheads by hand (docs/model.md §6.8): the
// engine of llm_serving_latency_test.cc (Llama-3-8B-like, 512-token prompts,
// 256-token outputs) on a whole A100-40GB: weights' read w = 13.810184 ms,
// one sequence's KV at 640 tokens 0.071928 ms, prefill of 512 tokens
// p(512) = 36.543589 ms (weights 36.206 ms + attention 0.337 ms, as
// llm_serving_latency_test.cc). At 2 requests/s: rho_p = 0.073087, stretch
// 1.078850, k = 0.552371.

#include "gpushare/exec/llm_scheduling.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpushare/exec/llm_serving_latency.h"

#include "gpushare/exec/llm_test_engine.h"

namespace gpushare {
namespace {

ModelParams Overheads(double step, double per_seq, double request) {
  ModelParams p;
  p.llm_step_overhead_chunked_prefill_ms = step;
  p.llm_step_overhead_multi_step_ms = step;
  p.llm_step_overhead_eager_ms = step;
  p.llm_step_overhead_per_seq_ms = per_seq;
  p.llm_request_overhead_ms = request;
  return p;
}

LlmLatency At(LlmScheduling scheduling, const ModelParams& params,
              double rate) {
  LlmServingInputs in;
  in.request_rate = rate;
  in.max_seqs = 256;
  return LlmServingLatency(Llama8bTestEngine(scheduling), LlmDevice{},
                           params, in);
}

TEST(LlmSchedulingTest, AdmissionWaitIsUniformWhileABatchRuns) {
  EXPECT_DOUBLE_EQ(LlmAdmissionWaitMs(10, 1, 0.5), 5);
  EXPECT_DOUBLE_EQ(LlmAdmissionWaitMs(10, 1, 0.99), 9.9);
  // Idle 40 % of the time: the median arrival is started at once; the p99
  // waits (0.99 - 0.4) / 0.6 of the interval.
  EXPECT_DOUBLE_EQ(LlmAdmissionWaitMs(10, 0.6, 0.3), 0);
  EXPECT_NEAR(LlmAdmissionWaitMs(10, 0.6, 0.99), 9.833333, 1e-6);
  EXPECT_EQ(LlmAdmissionWaitMs(10, 0, 0.99), 0);
}

TEST(LlmSchedulingTest, ALoneRequestIsTheSameUnderEveryPolicy) {
  // No batch runs: admitted at once; one step of max(p(512), w) = 36.543589.
  for (LlmScheduling s : {LlmScheduling::kChunkedPrefill,
                          LlmScheduling::kMultiStep, LlmScheduling::kEager}) {
    const LlmLatency l = At(s, Overheads(0, 0, 0), 0);
    EXPECT_NEAR(l.ttft_p50_ms, 36.543589, 1e-5) << LlmSchedulingName(s);
    EXPECT_NEAR(l.tpot_p50_ms, 13.810184, 1e-5) << LlmSchedulingName(s);
  }
}

TEST(LlmSchedulingTest, EachPolicysTtftAtTwoRequestsPerSecond) {
  // B = k w / (1 - k b) = 7.943971 under each (no overheads: no
  // prefill-only stall, since p(512) outlasts w); a decode step's wall time
  // T = (w + b B) x stretch = 15.515568 ms; a batch runs with beta =
  // 0.999645.
  const ModelParams none = Overheads(0, 0, 0);
  // chunked_prefill: wait over T (p50 7.755030, p99 15.360357) + one step
  // of 512 prompt tokens behind the M/D/1 backlog of prompts waiting for
  // prefill (rho_p / (2 (1 - rho_p)) x 512 = 20.186 tokens) beside the
  // batch, max(p(532.186) = 37.998146, 14.381578).
  const LlmLatency chunked = At(LlmScheduling::kChunkedPrefill, none, 2);
  EXPECT_NEAR(chunked.ttft_p50_ms, 45.753176, 1e-5);
  EXPECT_NEAR(chunked.ttft_p99_ms, 53.358503, 1e-5);
  // eager: the same wait, then a prefill-only step of 512 + lambda T P =
  // 512 + 0.002 x 15.515568 x 512 = 527.888 tokens: 37.688371 ms.
  const LlmLatency eager = At(LlmScheduling::kEager, none, 2);
  EXPECT_NEAR(eager.ttft_p50_ms, 45.443401, 1e-5);
  EXPECT_NEAR(eager.ttft_p99_ms, 53.048728, 1e-5);
  // multi_step (10 steps): admitted at a group's end, G = 10 T = 155.156 ms
  // (p50 wait 77.550 ms, p99 153.604 ms), then a prefill step of 512 +
  // 0.002 x 155.156 x 512 = 670.879 tokens: 48.020641 ms.
  const LlmLatency multi = At(LlmScheduling::kMultiStep, none, 2);
  EXPECT_NEAR(multi.ttft_p50_ms, 125.570944, 1e-5);
  EXPECT_NEAR(multi.ttft_p99_ms, 201.624209, 1e-5);
  // TPOT is the batch's: the same under the three.
  EXPECT_NEAR(chunked.tpot_p50_ms, 15.515568, 1e-5);
  EXPECT_NEAR(multi.tpot_p50_ms, 15.515568, 1e-5);
  EXPECT_NEAR(eager.tpot_p50_ms, 15.515568, 1e-5);
}

TEST(LlmSchedulingTest, StepOverheadsGrowTpotWithTheBatch) {
  // o = 1 ms a step, o_s = 0.1 ms a sequence, r = 2 ms a request.
  const ModelParams p = Overheads(1, 0.1, 2);
  // Alone: TPOT w + o = 14.810184; TTFT r + max(p(512), w) + o = 39.543589.
  const LlmLatency alone = At(LlmScheduling::kChunkedPrefill, p, 0);
  EXPECT_NEAR(alone.tpot_p50_ms, 14.810184, 1e-5);
  EXPECT_NEAR(alone.ttft_p50_ms, 39.543589, 1e-5);
  // At 2/s: a = 14.810184, b = 0.071928 + 0.1 = 0.171928: B = k a / (1 - k
  // b) = 8.180735 / 0.905032 = 9.039151; TPOT (a + b B) x stretch =
  // 17.654592 (15.515568 without overheads: +14 %, of which o_s B = 0.904
  // ms a step grows with the batch). TTFT p50: r 2 + wait 8.824 + max(p,
  // w + 0.071928 B = 14.460 ms) 37.998146 (the prompt behind the 20.186
  // tokens of backlog) + the step's CPU part o + o_s B = 1.904 ms:
  // 50.728310.
  const LlmLatency chunked = At(LlmScheduling::kChunkedPrefill, p, 2);
  EXPECT_NEAR(chunked.batch, 9.039151, 1e-5);
  EXPECT_NEAR(chunked.tpot_p50_ms, 17.654592, 1e-5);
  EXPECT_NEAR(chunked.ttft_p50_ms, 50.728310, 1e-5);
  // multi_step pays o once every 10 steps: a = w + 0.1.
  const LlmLatency multi = At(LlmScheduling::kMultiStep, p, 2);
  EXPECT_NEAR(At(LlmScheduling::kMultiStep, p, 0).tpot_p50_ms, 13.910184,
              1e-5);
  // With pi = (1 - e^(-0.002 x 10 T)) / 10 prefill-only steps a decode
  // step, each stalling f = o = 1 ms: a = 13.938458, B = 8.507107, TPOT
  // 16.615444.
  EXPECT_NEAR(multi.tpot_p50_ms, 16.615444, 1e-5);
  // eager stalls the batch by f = o = 1 ms per prefill-only step, after
  // 1 - e^(-lambda T) of the steps: TPOT above chunked prefill's.
  const LlmLatency eager = At(LlmScheduling::kEager, p, 2);
  // a = 14.810184 + 1 - e^(-0.002 T) = 14.844957, B = 9.060374: 17.696044.
  EXPECT_NEAR(eager.tpot_p50_ms, 17.696044, 1e-5);
  EXPECT_GT(eager.tpot_p50_ms, chunked.tpot_p50_ms);
}

TEST(LlmSchedulingTest, AnEnginesOwnOverheadsReplaceTheModels) {
  LlmEngine e = Llama8bTestEngine(LlmScheduling::kChunkedPrefill);
  e.step_overhead_ms = 1;
  e.request_overhead_ms = 2;
  const ModelParams p = Overheads(7, 0, 9);
  EXPECT_EQ(LlmStepOverheadMs(e, p), 1);
  EXPECT_EQ(LlmRequestOverheadMs(e, p), 2);
  e.step_overhead_ms = -1;
  e.request_overhead_ms = -1;
  EXPECT_EQ(LlmStepOverheadMs(e, p), 7);
  EXPECT_EQ(LlmRequestOverheadMs(e, p), 9);
}

TEST(LlmSchedulingTest, PrefillOnlyStepsPerDecodeStep) {
  const LlmEngine chunked =
      Llama8bTestEngine(LlmScheduling::kChunkedPrefill);
  const LlmEngine eager = Llama8bTestEngine(LlmScheduling::kEager);
  const LlmEngine multi = Llama8bTestEngine(LlmScheduling::kMultiStep);
  EXPECT_EQ(LlmPrefillStepsPerDecodeStep(chunked, 0.002, 16), 0);
  EXPECT_NEAR(LlmPrefillStepsPerDecodeStep(eager, 0.002, 16),
              1 - std::exp(-0.032), 1e-12);
  EXPECT_NEAR(LlmPrefillStepsPerDecodeStep(multi, 0.002, 16),
              (1 - std::exp(-0.32)) / 10, 1e-12);
  EXPECT_EQ(LlmPrefillStepsPerDecodeStep(eager, 0, 16), 0);
}

}  // namespace
}  // namespace gpushare
