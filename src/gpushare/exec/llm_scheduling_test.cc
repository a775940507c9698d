// Scheduling policies and overheads by hand (docs/model.md §6.8): the
// engine of llm_serving_latency_test.cc (Llama-3-8B-like, 512-token prompts,
// 256-token outputs) on a whole A100-40GB: weights' read w = 13.810184 ms,
// one sequence's KV at 640 tokens 0.071928 ms, prefill of 512 tokens
// p(512) = 52.861136 ms (0.103244 ms a token). At 2 requests/s: rho_p =
// 0.105722, stretch 1.118220, k = 0.572529.

#include "gpushare/exec/llm_scheduling.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpushare/exec/llm_serving_latency.h"

namespace gpushare {
namespace {

LlmEngine SchedulingTestEngine(LlmScheduling scheduling) {
  LlmEngine e;
  e.weights_gib = 15;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.prompt_tokens = Distribution::Constant(512);
  e.output_tokens = Distribution::Constant(256);
  e.scheduling = scheduling;
  if (scheduling == LlmScheduling::kMultiStep) e.scheduler_steps = 10;
  return e;
}

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
  return LlmServingLatency(SchedulingTestEngine(scheduling), LlmDevice{},
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
  // No batch runs: admitted at once; one step of max(p(512), w) = 52.861136.
  for (LlmScheduling s : {LlmScheduling::kChunkedPrefill,
                          LlmScheduling::kMultiStep, LlmScheduling::kEager}) {
    const LlmLatency l = At(s, Overheads(0, 0, 0), 0);
    EXPECT_NEAR(l.ttft_p50_ms, 52.861136, 1e-5) << LlmSchedulingName(s);
    EXPECT_NEAR(l.tpot_p50_ms, 13.810184, 1e-5) << LlmSchedulingName(s);
  }
}

TEST(LlmSchedulingTest, EachPolicysTtftAtTwoRequestsPerSecond) {
  // B = 8.246323 under each (no overheads: no prefill-only stall, since
  // p(512) outlasts w); a decode step's wall time T = 16.106100 ms; a batch
  // runs with beta = 0.999738.
  const ModelParams none = Overheads(0, 0, 0);
  // chunked_prefill: wait over T (p50 8.050937, p99 15.944996) + one step
  // of 512 prompt tokens beside the batch, max(52.861136, 14.403322).
  const LlmLatency chunked = At(LlmScheduling::kChunkedPrefill, none, 2);
  EXPECT_NEAR(chunked.ttft_p50_ms, 60.912073, 1e-5);
  EXPECT_NEAR(chunked.ttft_p99_ms, 68.806132, 1e-5);
  // eager: the same wait, then a prefill-only step of 512 + lambda T P =
  // 512 + 0.002 x 16.106100 x 512 = 528.492 tokens: 54.563710 ms.
  const LlmLatency eager = At(LlmScheduling::kEager, none, 2);
  EXPECT_NEAR(eager.ttft_p50_ms, 62.614847, 1e-5);
  EXPECT_NEAR(eager.ttft_p99_ms, 70.508906, 1e-5);
  // multi_step (10 steps): admitted at a group's end, G = 10 T = 161.061 ms
  // (p50 wait 80.509 ms, p99 159.450 ms), then a prefill step of 512 +
  // 0.002 x 161.061 x 512 = 676.927 tokens: 69.888873 ms.
  const LlmLatency multi = At(LlmScheduling::kMultiStep, none, 2);
  EXPECT_NEAR(multi.ttft_p50_ms, 150.398246, 1e-5);
  EXPECT_NEAR(multi.ttft_p99_ms, 229.338833, 1e-5);
  // TPOT is the batch's: the same under the three.
  EXPECT_NEAR(chunked.tpot_p50_ms, 16.106100, 1e-5);
  EXPECT_NEAR(multi.tpot_p50_ms, 16.106100, 1e-5);
  EXPECT_NEAR(eager.tpot_p50_ms, 16.106100, 1e-5);
}

TEST(LlmSchedulingTest, StepOverheadsGrowTpotWithTheBatch) {
  // o = 1 ms a step, o_s = 0.1 ms a sequence, r = 2 ms a request.
  const ModelParams p = Overheads(1, 0.1, 2);
  // Alone: TPOT w + o = 14.810184; TTFT r + max(p(512), w) + o = 55.861136.
  const LlmLatency alone = At(LlmScheduling::kChunkedPrefill, p, 0);
  EXPECT_NEAR(alone.tpot_p50_ms, 14.810184, 1e-5);
  EXPECT_NEAR(alone.ttft_p50_ms, 55.861136, 1e-5);
  // At 2/s: a = 14.810184, b = 0.071928 + 0.1 = 0.171928: B = k a / (1 - k
  // b) = 8.479251 / 0.901566 = 9.405034; TPOT (a + b B) x stretch =
  // 18.369208 (16.106100 without overheads: +14 %, of which o_s B = 1.617
  // ms a step grows with the batch).
  const LlmLatency chunked = At(LlmScheduling::kChunkedPrefill, p, 2);
  EXPECT_NEAR(chunked.batch, 9.405034, 1e-5);
  EXPECT_NEAR(chunked.tpot_p50_ms, 18.369208, 1e-5);
  EXPECT_NEAR(chunked.ttft_p50_ms, 65.985487, 1e-5);
  // multi_step pays o once every 10 steps: a = w + 0.1.
  const LlmLatency multi = At(LlmScheduling::kMultiStep, p, 2);
  EXPECT_NEAR(At(LlmScheduling::kMultiStep, p, 0).tpot_p50_ms, 13.910184,
              1e-5);
  EXPECT_NEAR(multi.tpot_p50_ms, 17.289188, 1e-5);
  // eager stalls the batch by f = o = 1 ms per prefill-only step, after
  // 1 - e^(-lambda T) of the steps: TPOT above chunked prefill's.
  const LlmLatency eager = At(LlmScheduling::kEager, p, 2);
  EXPECT_NEAR(eager.tpot_p50_ms, 18.414055, 1e-5);
  EXPECT_GT(eager.tpot_p50_ms, chunked.tpot_p50_ms);
}

TEST(LlmSchedulingTest, AnEnginesOwnOverheadsReplaceTheModels) {
  LlmEngine e = SchedulingTestEngine(LlmScheduling::kChunkedPrefill);
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
      SchedulingTestEngine(LlmScheduling::kChunkedPrefill);
  const LlmEngine eager = SchedulingTestEngine(LlmScheduling::kEager);
  const LlmEngine multi = SchedulingTestEngine(LlmScheduling::kMultiStep);
  EXPECT_EQ(LlmPrefillStepsPerDecodeStep(chunked, 0.002, 16), 0);
  EXPECT_NEAR(LlmPrefillStepsPerDecodeStep(eager, 0.002, 16),
              1 - std::exp(-0.032), 1e-12);
  EXPECT_NEAR(LlmPrefillStepsPerDecodeStep(multi, 0.002, 16),
              (1 - std::exp(-0.32)) / 10, 1e-12);
  EXPECT_EQ(LlmPrefillStepsPerDecodeStep(eager, 0, 16), 0);
}

}  // namespace
}  // namespace gpushare
