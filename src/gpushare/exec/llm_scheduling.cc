#include "gpushare/exec/llm_scheduling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpushare {
namespace {

// vLLM V1: the next step, chunks of what the batch's decode tokens leave,
// each step as long as the whole batch's.
double ChunkedPrefillMs(const LlmEngine& engine, const LlmDevice& device,
                        const ModelParams& params, const LlmStepState& s,
                        double prompt, double q) {
  const double chunk = std::max(
      1.0, static_cast<double>(engine.max_num_batched_tokens) - s.batch);
  // The prompts ahead of it in the waiting queue (first come, first
  // served): the mean backlog of an M/D/1 queue of prefill work at load
  // ρ_p, ρ_p / (2(1 − ρ_p)) prompts of P̄ tokens.
  const double rho = std::clamp(1 - 1 / std::max(1.0, s.stretch), 0.0, 1.0);
  const double ahead = rho * std::max(1.0, s.stretch) / 2 * s.prompt_mean;
  const double tokens = prompt + ahead;
  const double steps = std::max(1.0, std::ceil(tokens / chunk));
  return LlmAdmissionWaitMs(s.step_ms * s.stretch, s.busy, q) +
         std::max(LlmPrefillMs(engine, device, params, tokens),
                  steps * s.memory_ms) +
         steps * (s.step_ms - s.memory_ms);
}

// A prefill batch of `tokens` in prefill-only steps of at most M tokens.
double PrefillBatchMs(const LlmEngine& engine, const LlmDevice& device,
                      const ModelParams& params, const LlmStepState& s,
                      double tokens) {
  const double budget =
      std::max(1.0, static_cast<double>(engine.max_num_batched_tokens));
  const double steps = std::max(1.0, std::ceil(tokens / budget));
  return std::max(LlmPrefillMs(engine, device, params, tokens),
                  steps * s.weights_ms) +
         steps * (s.step_overhead_ms + s.allreduce_ms);
}

// SGLang: prefill-priority, at the next step, with the step's arrivals.
double EagerMs(const LlmEngine& engine, const LlmDevice& device,
               const ModelParams& params, const LlmStepState& s,
               double prompt, double q) {
  const double step = s.step_ms * s.stretch;
  const double others = s.arrivals_per_ms * step * s.prompt_mean;
  return LlmAdmissionWaitMs(step, s.busy, q) +
         PrefillBatchMs(engine, device, params, s, prompt + others);
}

// vLLM 0.6 multi-step: admitted at the end of a group of n decode steps.
double MultiStepMs(const LlmEngine& engine, const LlmDevice& device,
                   const ModelParams& params, const LlmStepState& s,
                   double prompt, double q) {
  const double n = std::max(1, engine.scheduler_steps);
  const double group = n * s.step_ms * s.stretch;
  const double others = s.arrivals_per_ms * group * s.prompt_mean;
  return LlmAdmissionWaitMs(group, s.busy, q) +
         PrefillBatchMs(engine, device, params, s, prompt + others);
}

}  // namespace

double LlmPrefillStepsPerDecodeStep(const LlmEngine& engine,
                                    double arrivals_per_ms,
                                    double step_wall_ms) {
  const double lambda = std::max(0.0, arrivals_per_ms);
  if (!(lambda > 0) || !std::isfinite(step_wall_ms)) return 0;
  switch (engine.scheduling) {
    case LlmScheduling::kChunkedPrefill:
      return 0;
    case LlmScheduling::kEager:
      return 1 - std::exp(-lambda * step_wall_ms);
    case LlmScheduling::kMultiStep: {
      const double n = std::max(1, engine.scheduler_steps);
      return (1 - std::exp(-lambda * n * step_wall_ms)) / n;
    }
  }
  return 0;
}

double LlmAdmissionWaitMs(double interval_ms, double busy, double q) {
  const double b = std::clamp(busy, 0.0, 1.0);
  if (!(b > 0)) return 0;
  return interval_ms * std::max(0.0, q - (1 - b)) / b;
}

double LlmStepOverheadMs(const LlmEngine& engine, const ModelParams& params) {
  if (engine.step_overhead_ms >= 0) return engine.step_overhead_ms;
  switch (engine.scheduling) {
    case LlmScheduling::kChunkedPrefill:
      return params.llm_step_overhead_chunked_prefill_ms;
    case LlmScheduling::kMultiStep:
      return params.llm_step_overhead_multi_step_ms;
    case LlmScheduling::kEager:
      return params.llm_step_overhead_eager_ms;
  }
  return 0;
}

double LlmRequestOverheadMs(const LlmEngine& engine,
                            const ModelParams& params) {
  return engine.request_overhead_ms >= 0 ? engine.request_overhead_ms
                                         : params.llm_request_overhead_ms;
}

double LlmFirstTokenMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, const LlmStepState& state,
                       double prompt, double q) {
  if (!std::isfinite(state.step_ms) || !std::isfinite(state.stretch)) {
    return std::numeric_limits<double>::infinity();
  }
  switch (engine.scheduling) {
    case LlmScheduling::kChunkedPrefill:
      return ChunkedPrefillMs(engine, device, params, state, prompt, q);
    case LlmScheduling::kMultiStep:
      return MultiStepMs(engine, device, params, state, prompt, q);
    case LlmScheduling::kEager:
      return EagerMs(engine, device, params, state, prompt, q);
  }
  return ChunkedPrefillMs(engine, device, params, state, prompt, q);
}

}  // namespace gpushare
