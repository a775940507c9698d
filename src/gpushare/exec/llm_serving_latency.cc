#include "gpushare/exec/llm_serving_latency.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpushare {
namespace {

constexpr double kServingZ99 = 2.326;  // standard normal 0.99 quantile

LlmLatency SaturatedLlmLatency() {
  const double inf = std::numeric_limits<double>::infinity();
  LlmLatency l;
  l.ttft_p50_ms = l.ttft_p99_ms = l.tpot_p50_ms = l.tpot_p99_ms = inf;
  l.p50_ms = l.p99_ms = l.batch = l.utilization = inf;
  l.wait_probability = 1;
  l.busy = 1;
  l.saturated = true;
  return l;
}

}  // namespace

double ErlangC(int64_t servers, double load) {
  if (servers <= 0 || !(load < static_cast<double>(servers))) return 1;
  if (!(load > 0)) return 0;
  // Erlang B by its stable recursion, then C from B.
  double b = 1;
  for (int64_t k = 1; k <= servers && b > 0; ++k) {
    // Once B underflows to 0 it stays 0 (a few hundred servers past the
    // load): stop rather than walk up to 2^20 KV slots.
    b = load * b / (static_cast<double>(k) + load * b);
  }
  const double c = static_cast<double>(servers);
  return c * b / (c - load * (1 - b));
}

LlmLatency LlmServingLatency(const LlmEngine& engine, const LlmDevice& device,
                             const ModelParams& params,
                             const LlmServingInputs& in) {
  const double lambda = std::max(0.0, in.request_rate);
  const double c = static_cast<double>(in.max_seqs);
  if (in.max_seqs <= 0) return SaturatedLlmLatency();
  const double prompt_mean = LlmMeanTokens(engine.prompt_tokens);
  const double output_mean = LlmMeanTokens(engine.output_tokens);
  const double context = prompt_mean + output_mean / 2;
  const double a = LlmDecodeStepMs(engine, device, params, 0, 0);
  const double b = LlmDecodeStepMs(engine, device, params, 1, context) - a;
  const double prefill_mean = LlmPrefillMs(engine, device, params, prompt_mean);
  const double rho_prefill = lambda * prefill_mean / 1000;
  if (!std::isfinite(a) || !std::isfinite(prefill_mean) ||
      !(rho_prefill < 1)) {
    return SaturatedLlmLatency();
  }
  const double k = lambda * output_mean / (1000 * (1 - rho_prefill));
  if (!(k * b < 1)) return SaturatedLlmLatency();
  const double batch = k * a / (1 - k * b);
  const double stretch = 1 / (1 - rho_prefill);
  const double slot_ms =
      prefill_mean + output_mean * (a + b * batch) * stretch;
  const double load = lambda * slot_ms / 1000;
  if (!(batch < c) || !(load < c)) return SaturatedLlmLatency();

  LlmLatency l;
  l.batch = batch;
  l.busy = std::min(1.0, rho_prefill + (1 - rho_prefill) *
                                           (1 - std::exp(-batch)));
  l.utilization = load / c;
  l.wait_probability = ErlangC(in.max_seqs, load);
  const double turn_ms =
      in.contexts >= 2 ? (in.contexts - 1) *
                             (std::max(0.0, in.time_slice_ms) +
                              std::max(0.0, in.context_switch_ms))
                       : 0;
  auto ttft = [&](double q) {
    double wait = 0;
    if (l.wait_probability > 1 - q) {
      wait = std::log(l.wait_probability / (1 - q)) * slot_ms / (c - load);
    }
    const double prompt = engine.prompt_tokens.Quantile(q);
    // The roofline steps that prefill it beside the batch (llm_step_model.h).
    return wait +
           LlmPromptMs(engine, device, params, prompt, batch, context) +
           q * turn_ms;
  };
  const double batch_p99 =
      std::min(c, batch + kServingZ99 * std::sqrt(batch));
  l.ttft_p50_ms = ttft(0.5);
  l.ttft_p99_ms = ttft(0.99);
  l.tpot_p50_ms = (a + b * batch) * stretch;
  l.tpot_p99_ms = (a + b * batch_p99) * stretch;
  l.p50_ms = l.ttft_p50_ms +
             std::max(0.0, engine.output_tokens.Quantile(0.5) - 1) *
                 l.tpot_p50_ms;
  l.p99_ms = l.ttft_p99_ms +
             std::max(0.0, engine.output_tokens.Quantile(0.99) - 1) *
                 l.tpot_p99_ms;
  return l;
}

}  // namespace gpushare
