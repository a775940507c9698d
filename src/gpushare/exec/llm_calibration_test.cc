// docs/model.md §6.8's calibration table: each row's model number,
// recomputed from the step model with the published setup, so the table
// cannot drift from the code.

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/exec/llm_step_model.h"

namespace gpushare {
namespace {

constexpr double kCalibrationGib = 1024.0 * 1024.0 * 1024.0;

// Llama-3.1-8B (Meta's config.json): 8.03e9 parameters in 16 bits, 32
// layers, 8 KV heads of 128.
LlmEngine Llama8b() {
  LlmEngine e;
  e.params_billion = 8.03;
  e.weights_gib = 8.03e9 * 2 / kCalibrationGib;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  return e;
}

// Llama-2-70B in FP8 (1 byte a parameter), 80 layers, 8 KV heads of 128,
// KV in 16 bits.
LlmEngine Llama70bFp8() {
  LlmEngine e;
  e.params_billion = 70;
  e.weights_gib = 70e9 / kCalibrationGib;
  e.layers = 80;
  e.kv_heads = 8;
  e.head_dim = 128;
  return e;
}

LlmDevice Whole(const char* model) {
  static const Catalog catalog = Catalog::Builtin();
  const GpuModel& m = *catalog.Find(model);
  return {m.relative_speed, 1, m.memory_bandwidth_gb_s, 1};
}

// Output tokens per second of `batch` requests of 2,048 + 128 tokens run
// together: every prefill, then 128 decode steps at 2,112 tokens of context.
double BatchThroughput(const LlmDevice& d, double batch) {
  const ModelParams p;
  const LlmEngine e = Llama70bFp8();
  const double ms = batch * LlmPrefillMs(e, d, p, 2048) +
                    128 * LlmDecodeStepMs(e, d, p, batch, 2048 + 64);
  return batch * 128 / (ms / 1000);
}

TEST(LlmCalibrationTest, Llama8bBatchOneDecodeOnA100) {
  const double ms =
      LlmDecodeStepMs(Llama8b(), Whole("A100-40GB"), ModelParams{}, 1, 1088);
  EXPECT_NEAR(1000 / ms, 72.0, 0.05);  // published ~75 tok/s: -4 %
}

TEST(LlmCalibrationTest, Llama8bBatchOneTpotOnH100) {
  EXPECT_NEAR(
      LlmDecodeStepMs(Llama8b(), Whole("H100-80GB"), ModelParams{}, 1, 512),
      6.42, 0.005);  // published 6.48 ms: -1 %
}

TEST(LlmCalibrationTest, H100OverA100BatchOneDecode) {
  LlmEngine mistral = Llama8b();  // Mistral-7B: 7.24e9 parameters, same KV
  mistral.params_billion = 7.24;
  mistral.weights_gib = 7.24e9 * 2 / kCalibrationGib;
  const ModelParams p;
  EXPECT_NEAR(LlmDecodeStepMs(mistral, Whole("A100-80GB"), p, 1, 512) /
                  LlmDecodeStepMs(mistral, Whole("H100-80GB"), p, 1, 512),
              1.64, 0.005);  // published "double": -18 %
}

TEST(LlmCalibrationTest, Llama70bFp8OnH200AndH100) {
  const double h200 = BatchThroughput(Whole("H200-141GB"), 32);
  const double h100 = BatchThroughput(Whole("H100-80GB"), 8);
  EXPECT_NEAR(h200, 188, 0.5);           // published 303 tok/s: -38 %
  EXPECT_NEAR(h200 / h100, 1.56, 0.005);  // published 1.9x: -18 %
  const ModelParams p;
  EXPECT_DOUBLE_EQ(LlmPrefillMs(Llama70bFp8(), Whole("H200-141GB"), p, 2048),
                   LlmPrefillMs(Llama70bFp8(), Whole("H100-80GB"), p, 2048));
}

TEST(LlmCalibrationTest, H100MigHalfAgainstWhole) {
  static const Catalog catalog = Catalog::Builtin();
  const GpuModel& h100 = *catalog.Find("H100-80GB");
  const MigProfile& half =
      h100.mig->profiles[h100.mig->FindProfile("3g.40gb")];
  LlmDevice mig{h100.relative_speed,
                static_cast<double>(half.sms) / h100.sms,
                h100.InstanceBandwidthGbS(half), 1};
  const ModelParams p;
  const LlmEngine e = Llama8b();
  EXPECT_NEAR(LlmDecodeStepMs(e, Whole("H100-80GB"), p, 1, 512) /
                  LlmDecodeStepMs(e, mig, p, 1, 512),
              0.50, 1e-12);  // 4 of 8 memory slices
  EXPECT_NEAR(LlmPrefillMs(e, Whole("H100-80GB"), p, 512) /
                  LlmPrefillMs(e, mig, p, 512),
              60.0 / 132, 1e-12);
}

}  // namespace
}  // namespace gpushare
