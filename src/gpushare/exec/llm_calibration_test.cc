// docs/model.md §6.8's calibration table: each row's model number,
// recomputed from the step model with the published setup, so the table
// cannot drift from the code. Rows marked "fit" set a constant (their ids
// are those of the published-figures table); the others are checks.

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/exec/llm_step_model.h"

namespace gpushare {
namespace {

constexpr double kCalibrationGib = 1024.0 * 1024.0 * 1024.0;

// A dense Llama-style model: parameters (billions) in `dtype`, its layers,
// KV heads of 128, hidden size, sharded over `tp` GPUs, KV in `kv_bytes`.
LlmEngine Model(double params_billion, LlmWeightsDtype dtype, int layers,
                int kv_heads, int hidden, int tp = 1, int kv_bytes = 2) {
  LlmEngine e;
  e.params_billion = params_billion;
  e.weights_dtype = dtype;
  e.weights_gib = params_billion * 1e9 * LlmBytesPerParam(dtype) /
                  kCalibrationGib / tp;
  e.layers = layers;
  e.kv_heads = kv_heads;
  e.head_dim = 128;
  e.hidden_size = hidden;
  e.tensor_parallel = tp;
  e.dtype_bytes = kv_bytes;
  return e;
}

constexpr LlmWeightsDtype kBf16 = LlmWeightsDtype::kBf16;
constexpr LlmWeightsDtype kFp8 = LlmWeightsDtype::kFp8;

// Llama-3.1-8B (Meta's config.json): 32 layers, 8 KV heads, hidden 4,096.
LlmEngine Llama8b() { return Model(8.03, kBf16, 32, 8, 4096); }
// Llama-2-70B in FP8: 80 layers, 8 KV heads, hidden 8,192, KV in 16 bits.
LlmEngine Llama70bFp8() { return Model(68.98, kFp8, 80, 8, 8192); }

LlmDevice Whole(const char* model) {
  static const Catalog catalog = Catalog::Builtin();
  const GpuModel& m = *catalog.Find(model);
  return {m.relative_speed, 1, m.memory_bandwidth_gb_s, 1, m.fp8_tflops,
          m.interconnect_gb_s};
}

// Milliseconds of a static batch (TensorRT-LLM gptSessionBenchmark,
// lmdeploy's static runs): `batch` prompts of `in` tokens in one prefill
// step, then out − 1 decode steps of the batch.
double StaticBatchMs(const LlmEngine& e, const LlmDevice& d, double batch,
                     double in, double out) {
  const ModelParams p;
  LlmStep prefill;
  prefill.prefill_tokens = batch * in;
  prefill.prefill_seqs = batch;
  double ms = LlmStepMs(e, d, p, prefill);
  for (double j = 1; j < out; ++j) {
    ms += LlmDecodeStepMs(e, d, p, batch, in + j);
  }
  return ms;
}

// Output tokens per second of such a batch, over `per` GPUs.
double StaticBatchRate(const LlmEngine& e, const LlmDevice& d, double batch,
                       double in, double out, double per = 1) {
  return batch * out / (StaticBatchMs(e, d, batch, in, out) / 1000) / per;
}

// Output tokens per second of an engine fed without limit (trtllm-bench
// throughput) whose steps are full: of the 8,192 tokens a step, B = 8,192
// · out / (in + out) decode and the rest prefill B / out prompts.
double OfflineRate(const LlmEngine& e, const LlmDevice& d, double in,
                   double out) {
  const double batch = 8192 * out / (in + out);
  LlmStep s;
  s.decode_seqs = batch;
  s.decode_context = in + out / 2;
  s.prefill_seqs = batch / out;
  s.prefill_tokens = s.prefill_seqs * in;
  return batch / (LlmStepMs(e, d, ModelParams{}, s) / 1000);
}

TEST(LlmCalibrationTest, Llama8bBatchOneDecodeOnA100) {
  const double ms =
      LlmDecodeStepMs(Llama8b(), Whole("A100-40GB"), ModelParams{}, 1, 1088);
  EXPECT_NEAR(1000 / ms, 71.98, 0.05);  // published ~75 tok/s: -4 %
}

TEST(LlmCalibrationTest, Llama8bBatchOneTpotOnH100) {
  EXPECT_NEAR(
      LlmDecodeStepMs(Llama8b(), Whole("H100-80GB"), ModelParams{}, 1, 512),
      6.419, 0.005);  // published 6.48 ms: -1 %
}

TEST(LlmCalibrationTest, H100OverA100BatchOneDecode) {
  const LlmEngine mistral = Model(7.24, kBf16, 32, 8, 4096);
  const ModelParams p;
  EXPECT_NEAR(LlmDecodeStepMs(mistral, Whole("A100-80GB"), p, 1, 512) /
                  LlmDecodeStepMs(mistral, Whole("H100-80GB"), p, 1, 512),
              1.643, 0.005);  // published "double": -18 %
}

TEST(LlmCalibrationTest, Llama70bFp8OnH200AndH100) {
  const double h200 =
      StaticBatchRate(Llama70bFp8(), Whole("H200-141GB"), 32, 2048, 128);
  const double h100 =
      StaticBatchRate(Llama70bFp8(), Whole("H100-80GB"), 8, 2048, 128);
  EXPECT_NEAR(h200, 325.2, 0.5);          // published 303 tok/s: +7 %
  EXPECT_NEAR(h200 / h100, 1.941, 0.005);  // published 1.9x: +2 %
  const ModelParams p;
  EXPECT_DOUBLE_EQ(
      LlmPromptMs(Llama70bFp8(), Whole("H200-141GB"), p, 2048, 0, 0),
      LlmPromptMs(Llama70bFp8(), Whole("H100-80GB"), p, 2048, 0, 0));
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

// Fit rows of llm_prefill_flops_efficiency (0.73) and
// llm_fp8_flops_efficiency (0.5).
TEST(LlmCalibrationTest, PrefillEfficiencyRows) {
  const ModelParams p;
  // lmd-13b-a100-b1-2048-ttft: Llama-2-13B (40 layers, 40 KV heads,
  // hidden 5,120), one 2,048-token prompt in one step: 242 ms published.
  LlmEngine l13 = Model(13.02, kBf16, 40, 40, 5120);
  l13.max_num_batched_tokens = 4096;
  EXPECT_NEAR(LlmPromptMs(l13, Whole("A100-80GB"), p, 2048, 0, 0), 241.69,
              0.05);
  // trtpo-8b-h100-2048-128: Llama-3.1-8B FP8 (KV in FP8), 3,450 tok/s.
  const LlmEngine l8 = Model(8.03, kFp8, 32, 8, 4096, 1, 1);
  EXPECT_NEAR(OfflineRate(l8, Whole("H100-80GB"), 2048, 128), 3017.3, 0.5);
  // trtperf-7b-l40s-b32-2048-128: Llama-2-7B FP8 (32 KV heads, FP8 KV),
  // static batch 32: 581 tok/s.
  const LlmEngine l7 = Model(6.74, kFp8, 32, 32, 4096, 1, 1);
  EXPECT_NEAR(StaticBatchRate(l7, Whole("L40S"), 32, 2048, 128), 558.3, 0.5);
}

// Fit rows of llm_allreduce_latency_us (40) and
// llm_allreduce_bandwidth_efficiency (1).
TEST(LlmCalibrationTest, TensorParallelRows) {
  const ModelParams p;
  // vllmci-70b-h200tp4-b8-e2e: Llama-3-70B BF16 on 4 H200s, batch 8, 32
  // in, 128 out: 2,077.53 ms published.
  const LlmEngine v70 = Model(70.55, kBf16, 80, 8, 8192, 4);
  EXPECT_NEAR(StaticBatchMs(v70, Whole("H200-141GB"), 8, 32, 128), 2089.5,
              0.5);
  // lmd-70b-a100tp4-b16-128-2048 and -b64-: Llama-2-70B BF16 on 4
  // A100-80GB: 482.99 and 1,391.8 tok/s published.
  const LlmEngine l70 = Model(68.98, kBf16, 80, 8, 8192, 4);
  EXPECT_NEAR(StaticBatchRate(l70, Whole("A100-80GB"), 16, 128, 2048), 528.0,
              0.5);
  EXPECT_NEAR(StaticBatchRate(l70, Whole("A100-80GB"), 64, 128, 2048),
              1861.1, 0.5);
  // nim-70b-h100tp2-5000-500-c1-ttft: Llama-3.3-70B FP8 on 2 H100s, one
  // 5,000-token prompt: 406.77 ms published.
  const LlmEngine n70 = Model(70.6, kFp8, 80, 8, 8192, 2, 1);
  EXPECT_NEAR(LlmPromptMs(n70, Whole("H100-80GB"), p, 5000, 0, 0), 414.97,
              0.05);
}

}  // namespace
}  // namespace gpushare
