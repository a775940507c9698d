// The step model by hand (docs/model.md §6.8): Llama-3-8B-like engine,
// 15 GiB of weights (8,053,063,680 parameters at 2 bytes), 131,072 KV
// bytes per token, default efficiencies (prefill 0.5 of peak FLOPS, decode
// 0.75 of peak bandwidth).

#include "gpushare/exec/llm_step_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpushare {
namespace {

LlmEngine StepTestEngine() {
  LlmEngine e;
  e.weights_gib = 15;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.dtype_bytes = 2;
  return e;
}

TEST(LlmStepModelTest, PrefillIsTokensTimesTwoParamsOverCompute) {
  // 1,000 x 2 x 8.05306368e9 = 1.610612736e13 FLOP over 312e12 x 0.5.
  LlmDevice a100;
  EXPECT_NEAR(LlmPrefillMs(StepTestEngine(), a100, ModelParams{}, 1000),
              103.244406, 1e-5);
  // An H100 (s = 3.17) on half its SMs with a 0.5 time share: x 1/(3.17/4).
  LlmDevice shared{3.17, 0.5, 3350, 0.5};
  EXPECT_NEAR(LlmPrefillMs(StepTestEngine(), shared, ModelParams{}, 1000),
              103.244406 * 4 / 3.17, 1e-5);
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

TEST(LlmStepModelTest, ParamsDefaultToWeightsAtTwoBytes) {
  LlmEngine e = StepTestEngine();
  EXPECT_DOUBLE_EQ(e.Params(), 15.0 * 1024 * 1024 * 1024 / 2);
  e.params_billion = 8.03;
  EXPECT_DOUBLE_EQ(e.Params(), 8.03e9);
}

}  // namespace
}  // namespace gpushare
