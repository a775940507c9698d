// The step model by hand (docs/model.md §6.8): Llama-3-8B-like engine,
// 15 GiB of weights (8,053,063,680 parameters at 2 bytes), hidden size
// 4,096, 131,072 KV bytes per token, default efficiencies (0.73 of the
// dense 16-bit peak, 0.5 of the FP8 peak, 0.75 of peak bandwidth, all-
// reduces of 40 µs plus a ring over the full link, the matrix products and
// attention in sequence).

#include "gpushare/exec/llm_step_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpushare/exec/llm_test_engine.h"

namespace gpushare {
namespace {

LlmEngine StepTestEngine() {
  LlmEngine e = Llama8bTestEngine();
  e.hidden_size = 4096;
  return e;
}

TEST(LlmStepModelTest, PrefillIsLinearAndAttentionFlopsOverCompute) {
  // 2 x 8,053,063,680 x 1,000 = 1.610612736e13 FLOP through the weights
  // plus 4 x 32 layers x 4,096 x (1,000 x 500 attended positions) =
  // 2.62144e11 of attention, over 312e12 x 0.73 FLOP/s: 71.8663 ms.
  LlmDevice a100;
  EXPECT_NEAR(LlmPrefillMs(StepTestEngine(), a100, ModelParams{}, 1000),
              71.866313, 1e-5);
  // An H100 (s = 3.17) on half its SMs with a 0.5 time share: x 1/(3.17/4).
  LlmDevice shared{3.17, 0.5, 3350, 0.5};
  EXPECT_NEAR(LlmPrefillMs(StepTestEngine(), shared, ModelParams{}, 1000),
              71.866313 * 4 / 3.17, 1e-5);
}

TEST(LlmStepModelTest, AStepIsTwoRooflinesInSequence) {
  // A lone prompt of 286 tokens on an H100: the matrix products' compute
  // (2 x 8,053,063,680 FLOP a token over 989.04e12 x 0.73 FLOP/s: 6.379997
  // ms) against the weights' read (16,106,127,360 B over 3,350e9 x 0.75
  // B/s: 6.410399 ms), then attention's compute (4 x 32 x 4,096 x 286 x 143
  // positions: 0.029699 ms) against its KV writes (286 x 131,072 B:
  // 0.014920 ms). The step is the sum of the two maxima, 6.440098 ms; one
  // roofline over the whole step (llm_kernel_overlap 1) would take the
  // larger of all compute (6.409695) and all memory (6.425319).
  const LlmEngine e = StepTestEngine();
  LlmDevice h100{3.17, 1, 3350, 1};
  LlmStep step;
  step.prefill_tokens = 286;
  LlmStepTime t = LlmStepTiming(e, h100, ModelParams{}, step);
  EXPECT_NEAR(t.linear_ms, 6.379997, 1e-5);
  EXPECT_NEAR(t.weights_ms, 6.410399, 1e-5);
  EXPECT_NEAR(t.attention_ms, 0.029699, 1e-5);
  EXPECT_NEAR(t.kv_ms, 0.014920, 1e-5);
  EXPECT_NEAR(t.compute_ms, 6.409695, 1e-5);
  EXPECT_NEAR(t.memory_ms, 6.425319, 1e-5);
  EXPECT_FALSE(t.compute_bound());
  EXPECT_NEAR(t.ms, 6.440098, 1e-5);
  ModelParams overlapped;
  overlapped.llm_kernel_overlap = 1;
  EXPECT_NEAR(LlmStepMs(e, h100, overlapped, step), 6.425319, 1e-5);
  // The matrix products outlast the weights' read from 288 tokens
  // (6.424612 ms of compute against 6.410399).
  step.prefill_tokens = 287;
  t = LlmStepTiming(e, h100, ModelParams{}, step);
  EXPECT_LT(t.linear_ms, t.weights_ms);
  step.prefill_tokens = 288;
  t = LlmStepTiming(e, h100, ModelParams{}, step);
  EXPECT_NEAR(t.linear_ms, 6.424612, 1e-5);
  EXPECT_GT(t.linear_ms, t.weights_ms);
  step.prefill_tokens = 1024;
  EXPECT_NEAR(LlmStepMs(e, h100, ModelParams{}, step), 23.223782, 1e-5);
  // 1,024 prompt tokens beside 10 decoding sequences of 1,000 tokens: the
  // products of 1,034 tokens (23.066141 ms), then attention's KV reads
  // (0.575100 ms) outlast its compute (0.387979): 23.641241 ms, where one
  // roofline would hide the reads under the compute (23.454121 ms).
  step.decode_seqs = 10;
  step.decode_context = 1000;
  t = LlmStepTiming(e, h100, ModelParams{}, step);
  EXPECT_NEAR(t.ms, 23.641241, 1e-5);
  EXPECT_NEAR(LlmStepMs(e, h100, overlapped, step), 23.454121, 1e-5);
  EXPECT_DOUBLE_EQ(t.allreduce_ms, 0);  // one GPU
}

TEST(LlmStepModelTest, Fp8PrefillsAtTheFp8PeakWhereTheGpuHasOne) {
  LlmEngine bf16 = StepTestEngine();
  bf16.params_billion = 8.05306368;
  LlmEngine fp8 = bf16;
  fp8.weights_dtype = LlmWeightsDtype::kFp8;
  fp8.weights_gib = 7.5;
  const ModelParams p;
  // A100: no FP8 tensor cores (catalog fp8_tflops 0): the 16-bit rate.
  LlmDevice a100{1, 1, 2039, 1, 0, 300};
  EXPECT_DOUBLE_EQ(LlmPrefillMs(fp8, a100, p, 2048),
                   LlmPrefillMs(bf16, a100, p, 2048));
  EXPECT_NEAR(LlmPrefillMs(bf16, a100, p, 2048), 149.652531, 1e-5);
  // H100: 2 x 8.05e9 x 2,048 FLOP over 1,979e12 x 0.5 = 33.3354 ms, plus
  // attention at the 16-bit rate (4 x 32 x 4,096 x 2,048 x 1,024 over
  // 989.04e12 x 0.73 = 1.5229 ms); in 16 bits 47.2090 ms.
  LlmDevice h100{3.17, 1, 3350, 1, 1979, 450};
  EXPECT_NEAR(LlmPrefillMs(fp8, h100, p, 2048), 34.858241, 1e-5);
  EXPECT_NEAR(LlmPrefillMs(bf16, h100, p, 2048), 47.209000, 1e-5);
  // Decode reads half the bytes.
  EXPECT_NEAR(LlmDecodeStepMs(fp8, h100, p, 0, 0),
              LlmDecodeStepMs(bf16, h100, p, 0, 0) / 2, 1e-9);
}

TEST(LlmStepModelTest, TensorParallelFourAllReducesEveryLayer) {
  // Llama-3.3-70B in FP8 on 4 H100s: 70.6e9 parameters, 80 layers, hidden
  // 8,192, 8 KV heads (2 a GPU), weights 70.6e9 B / 4 a GPU.
  LlmEngine e;
  e.params_billion = 70.6;
  e.weights_dtype = LlmWeightsDtype::kFp8;
  e.tensor_parallel = 4;
  e.hidden_size = 8192;
  e.layers = 80;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.weights_gib = 70.6e9 / (1024.0 * 1024 * 1024) / 4;
  EXPECT_EQ(e.KvBytesPerToken(), 2 * 80 * 2 * 128 * 2);
  LlmDevice h100{3.17, 1, 3350, 1, 1979, 450};
  LlmStep step;
  step.decode_seqs = 100;
  step.decode_context = 1000;
  const LlmStepTime t = LlmStepTiming(e, h100, ModelParams{}, step);
  // Each all-reduce: 100 tokens x 8,192 x 2 B = 1,638,400 B; a ring moves
  // 2 x 3/4 of it over 450 GB/s: 5.4613 µs, plus 40 µs; 160 of them.
  EXPECT_NEAR(t.allreduce_ms, 160 * (0.0054613333 + 0.040), 1e-7);
  // Memory: (17,650,000,000 B + 100 x 1,000 x 81,920 B) / (3,350e9 x 0.75).
  EXPECT_NEAR(t.memory_ms, 10.285373, 1e-5);
  // Weights 7.024876 ms outlast the products' 3.567458 ms (FP8 at 1,979e12
  // x 0.5 x 4); the KV reads 3.260498 ms outlast attention's 0.090770 ms.
  EXPECT_NEAR(t.ms, 10.285373 + 7.273813, 1e-5);
  // A lone engine on one GPU has none.
  e.tensor_parallel = 1;
  EXPECT_DOUBLE_EQ(LlmStepTiming(e, h100, ModelParams{}, step).allreduce_ms,
                   0);
}

TEST(LlmStepModelTest, APromptIsPrefilledInChunksOfTheTokenBudget) {
  // 20,000 tokens with max_num_batched_tokens 8,192: chunks of 8,192,
  // 8,192 (8,192 cached) and 3,616 (16,384 cached), each a step.
  const LlmEngine e = StepTestEngine();
  LlmDevice h100{3.17, 1, 3350, 1};
  const ModelParams p;
  double sum = 0;
  for (double c : {0.0, 8192.0}) {
    LlmStep s;
    s.prefill_tokens = 8192;
    s.prefill_context = c;
    sum += LlmStepMs(e, h100, p, s);
  }
  LlmStep last;
  last.prefill_tokens = 3616;
  last.prefill_context = 16384;
  sum += LlmStepMs(e, h100, p, last);
  EXPECT_NEAR(LlmPromptMs(e, h100, p, 20000, 0, 0), sum, 1e-9);
  EXPECT_NEAR(sum, 591.385901, 1e-5);
  // Beside 192 decoding sequences the chunks are 8,000 tokens.
  EXPECT_NEAR(LlmPromptMs(e, h100, p, 20000, 192, 600), 604.486086, 1e-5);
  // A short prompt alone is one memory-bound step: the weights' read.
  EXPECT_NEAR(LlmPromptMs(e, h100, p, 100, 0, 0),
              LlmDecodeStepMs(e, h100, p, 0, 0) +
                  100 * 131072 / (3350e9 * 0.75) * 1000,
              1e-9);
}

TEST(LlmStepModelTest, DecodeStepReadsWeightsAndTheBatchKv) {
  LlmDevice h100{3.17, 1, 3350, 1};
  // 16,106,127,360 B over 3,350e9 x 0.75 B/s.
  EXPECT_NEAR(LlmDecodeStepMs(StepTestEngine(), h100, ModelParams{}, 0, 0),
              6.410399, 1e-5);
  // Plus 10 sequences x 1,000 tokens x 131,072 B.
  EXPECT_NEAR(LlmDecodeStepMs(StepTestEngine(), h100, ModelParams{}, 10, 1000),
              6.932079, 1e-5);
}

TEST(LlmStepModelTest, DecodeScalesWithTheGrantsBandwidth) {
  const LlmEngine e = StepTestEngine();
  LlmDevice h100{3.17, 1, 3350, 1};
  LlmDevice h200{3.17, 1, 4800, 1};
  EXPECT_NEAR(LlmDecodeStepMs(e, h100, ModelParams{}, 4, 600) /
                  LlmDecodeStepMs(e, h200, ModelParams{}, 4, 600),
              4800.0 / 3350, 1e-12);
  // Prefill is compute: the same relative speed, the same time.
  EXPECT_DOUBLE_EQ(LlmPrefillMs(e, h100, ModelParams{}, 512),
                   LlmPrefillMs(e, h200, ModelParams{}, 512));
}

TEST(LlmStepModelTest, EdgesAreInfiniteOrClamped) {
  const LlmEngine e = StepTestEngine();
  LlmDevice none{1, 1, 1555, 0};
  EXPECT_TRUE(std::isinf(LlmPrefillMs(e, none, ModelParams{}, 10)));
  EXPECT_TRUE(std::isinf(LlmDecodeStepMs(e, none, ModelParams{}, 1, 10)));
  LlmDevice a100;
  a100.bandwidth_gb_s = 0;  // not in the catalog: s x 1,555 GB/s
  EXPECT_NEAR(LlmDecodeStepMs(e, a100, ModelParams{}, -3, 10), 13.810184,
              1e-5);
  EXPECT_EQ(LlmPrefillMs(e, a100, ModelParams{}, -5), 0);
}

TEST(LlmStepModelTest, UnknownBandwidthOfAMigInstanceIsItsShare) {
  // A --catalog MIG model without memory_bandwidth_gb_s: its instances
  // report 0, and a half-GPU instance (f = 0.5) of an s = 1 GPU is taken
  // as 0.5 x 1,555 GB/s, not the whole GPU's: the weights alone (15 GiB)
  // take 16,106,127,360 B / (777.5e9 B/s x 0.75) = 27.6206 ms.
  const LlmEngine e = StepTestEngine();
  LlmDevice half{1, 0.5, 0, 1};
  EXPECT_NEAR(LlmDecodeStepMs(e, half, ModelParams{}, 0, 0), 27.620368,
              1e-5);
  half.bandwidth_gb_s = 777.5;  // the same, given
  EXPECT_NEAR(LlmDecodeStepMs(e, half, ModelParams{}, 0, 0), 27.620368,
              1e-5);
}

TEST(LlmStepModelTest, ParamsDefaultToWeightsAtTheirDtypesBytes) {
  LlmEngine e = StepTestEngine();
  EXPECT_DOUBLE_EQ(e.Params(), 15.0 * 1024 * 1024 * 1024 / 2);
  e.weights_dtype = LlmWeightsDtype::kInt4;  // half a byte a parameter
  EXPECT_DOUBLE_EQ(e.Params(), 15.0 * 1024 * 1024 * 1024 * 2);
  e.tensor_parallel = 2;  // weights_gib is each GPU's
  EXPECT_DOUBLE_EQ(e.Params(), 15.0 * 1024 * 1024 * 1024 * 4);
  e.params_billion = 8.03;
  EXPECT_DOUBLE_EQ(e.Params(), 8.03e9);
}

}  // namespace
}  // namespace gpushare
