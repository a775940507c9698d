#include "gpushare/exec/llm_step_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpushare {
namespace {

constexpr double kLlmStepBytesPerGib = 1024.0 * 1024.0 * 1024.0;
// Activations travel between GPUs in 16 bits (BF16/FP16), whatever the
// weights are stored in.
constexpr double kActivationBytes = 2;
// Two all-reduces a layer: after attention and after the MLP.
constexpr double kAllReducesPerLayer = 2;
// LlmPromptMs times at most this many distinct chunk steps; longer
// prompts group their chunks, each group at its middle chunk's context.
constexpr double kMaxPromptSteps = 256;

double StepBandwidthGbS(const LlmDevice& device) {
  return device.bandwidth_gb_s > 0
             ? device.bandwidth_gb_s
             : device.relative_speed * device.sm_fraction *
                   kReferenceBandwidthGbS;
}

int TensorParallel(const LlmEngine& engine) {
  return std::max(1, engine.tensor_parallel);
}

// The all-reduces of a step of `tokens` tokens, before the share.
double AllReduceMs(const LlmEngine& engine, const LlmDevice& device,
                   const ModelParams& params, double tokens,
                   bool with_latency) {
  const int n = TensorParallel(engine);
  if (n <= 1) return 0;
  const double link =
      (device.link_gb_s > 0 ? device.link_gb_s : kFallbackLinkGbS) * 1e9 *
      params.llm_allreduce_bandwidth_efficiency;
  const double bytes = tokens * engine.HiddenSize() * kActivationBytes;
  const double ring_s = 2.0 * (n - 1) / n * bytes / link;
  const double each_ms =
      ring_s * 1000 +
      (with_latency ? params.llm_allreduce_latency_us / 1000 : 0);
  return kAllReducesPerLayer * engine.layers * each_ms;
}

// Milliseconds of compute of `linear_tokens` through the weights (the
// matrix products) and of `attended` query-key positions of attention, on
// all N GPUs, before the share.
struct ComputeParts {
  double linear_ms = 0;
  double attention_ms = 0;
};

ComputeParts ComputeMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, double linear_tokens,
                       double attended) {
  const double f = device.sm_fraction * TensorParallel(engine);
  const double rate16 = kReferenceDenseTflops * 1e12 * device.relative_speed *
                        f * params.llm_prefill_flops_efficiency;
  const double rate_w =
      LlmFp8Compute(engine.weights_dtype) && device.fp8_tflops > 0
          ? device.fp8_tflops * 1e12 * f * params.llm_fp8_flops_efficiency
          : rate16;
  ComputeParts c;
  if (!(rate16 > 0) || !(rate_w > 0)) {
    c.linear_ms = c.attention_ms = std::numeric_limits<double>::infinity();
    return c;
  }
  const double linear_flops = 2 * engine.Params() * linear_tokens;
  const double attention_flops =
      4.0 * engine.layers * engine.HiddenSize() * attended;
  c.linear_ms = linear_flops / rate_w * 1000;
  c.attention_ms = attention_flops / rate16 * 1000;
  return c;
}

}  // namespace

LlmStepTime LlmStepTiming(const LlmEngine& engine, const LlmDevice& device,
                          const ModelParams& params, const LlmStep& step) {
  const double inf = std::numeric_limits<double>::infinity();
  const double n = std::max(0.0, step.prefill_tokens);
  const double c = std::max(0.0, step.prefill_context);
  const double b = std::max(0.0, step.decode_seqs);
  const double l = std::max(0.0, step.decode_context);
  LlmStepTime t;
  const double bytes_per_s = StepBandwidthGbS(device) * 1e9 *
                             params.llm_decode_bandwidth_efficiency *
                             device.share;
  if (!(device.share > 0) || !(bytes_per_s > 0)) {
    t.linear_ms = t.attention_ms = t.weights_ms = t.kv_ms = inf;
    t.compute_ms = t.memory_ms = t.allreduce_ms = t.ms = inf;
    return t;
  }
  const double seqs = std::max(1.0, step.prefill_seqs);
  const double attended = n * (c + n / (2 * seqs)) + b * l;
  const ComputeParts compute = ComputeMs(engine, device, params, n + b, attended);
  t.linear_ms = compute.linear_ms / device.share;
  t.attention_ms = compute.attention_ms / device.share;
  t.compute_ms = t.linear_ms + t.attention_ms;
  const double kv = static_cast<double>(engine.KvBytesPerToken());
  t.weights_ms =
      engine.weights_gib * kLlmStepBytesPerGib / bytes_per_s * 1000;
  t.kv_ms = kv * (b * l + seqs * c + n) / bytes_per_s * 1000;
  t.memory_ms = t.weights_ms + t.kv_ms;
  t.allreduce_ms =
      AllReduceMs(engine, device, params, n + b, /*with_latency=*/true) /
      device.share;
  // The matrix products and attention are separate kernels: each waits for
  // the longer of its own compute and reads; a fraction v of the two
  // (llm_kernel_overlap) overlaps as one roofline.
  const double v = params.llm_kernel_overlap;
  const double overlapped = std::max(t.compute_ms, t.memory_ms);
  const double sequential = std::max(t.linear_ms, t.weights_ms) +
                            std::max(t.attention_ms, t.kv_ms);
  t.ms = v * overlapped + (1 - v) * sequential + t.allreduce_ms;
  return t;
}

double LlmStepMs(const LlmEngine& engine, const LlmDevice& device,
                 const ModelParams& params, const LlmStep& step) {
  return LlmStepTiming(engine, device, params, step).ms;
}

double LlmPrefillMs(const LlmEngine& engine, const LlmDevice& device,
                    const ModelParams& params, double tokens) {
  const double n = std::max(0.0, tokens);
  if (!(device.share > 0)) return std::numeric_limits<double>::infinity();
  const ComputeParts compute = ComputeMs(engine, device, params, n, n * n / 2);
  return (compute.linear_ms + compute.attention_ms +
          AllReduceMs(engine, device, params, n, /*with_latency=*/false)) /
         device.share;
}

double LlmDecodeStepMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, double batch,
                       double context_tokens) {
  LlmStep step;
  step.decode_seqs = batch;
  step.decode_context = context_tokens;
  return LlmStepMs(engine, device, params, step);
}

double LlmPromptMs(const LlmEngine& engine, const LlmDevice& device,
                   const ModelParams& params, double prompt, double batch,
                   double context) {
  const double p = std::max(0.0, prompt);
  const double b = std::max(0.0, batch);
  const double chunk = std::max(
      1.0, static_cast<double>(engine.max_num_batched_tokens) - b);
  LlmStep step;
  step.decode_seqs = b;
  step.decode_context = context;
  if (p <= chunk) {
    step.prefill_tokens = p;
    return LlmStepMs(engine, device, params, step);
  }
  const double full = std::floor(p / chunk);
  const double rest = p - full * chunk;
  // Full chunks, in at most kMaxPromptSteps groups of `per` chunks each.
  const double per = std::ceil(full / kMaxPromptSteps);
  double ms = 0;
  step.prefill_tokens = chunk;
  for (double first = 0; first < full; first += per) {
    const double count = std::min(per, full - first);
    step.prefill_context = (first + (count - 1) / 2) * chunk;
    ms += count * LlmStepMs(engine, device, params, step);
  }
  if (rest > 0) {
    step.prefill_tokens = rest;
    step.prefill_context = full * chunk;
    ms += LlmStepMs(engine, device, params, step);
  }
  return ms;
}

}  // namespace gpushare
