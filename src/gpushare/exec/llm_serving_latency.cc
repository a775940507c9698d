#include "gpushare/exec/llm_serving_latency.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpushare/exec/llm_scheduling.h"

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
  // The GPU's part of a decode step, m(B) = w + b_kv·B (the weights' read,
  // each sequence's KV read), and the CPU's, c(B) = o/n + o_s·B (o per
  // scheduler invocation, once every n steps under multi_step; o_s per
  // sequence per step).
  const LlmStepTime empty_step =
      LlmStepTiming(engine, device, params, LlmStep{});
  const double weights_ms = empty_step.ms;
  const double kv_ms =
      LlmDecodeStepMs(engine, device, params, 1, context) - weights_ms;
  const double step_overhead = LlmStepOverheadMs(engine, params);
  const double steps_per_schedule =
      engine.scheduling == LlmScheduling::kMultiStep
          ? std::max(1, engine.scheduler_steps)
          : 1;
  const double prefill_mean = LlmPrefillMs(engine, device, params, prompt_mean);
  const double rho_prefill = lambda * prefill_mean / 1000;
  if (!std::isfinite(weights_ms) || !std::isfinite(prefill_mean) ||
      !(rho_prefill < 1)) {
    return SaturatedLlmLatency();
  }
  const double b = kv_ms + params.llm_step_overhead_per_seq_ms;
  // At a large batch the decode step is compute-bound (a roofline): the
  // step's other piece is a_c + b_c·B, a_c the all-reduces' latency and
  // the CPU's o/n, b_c one decode token's compute and all-reduce traffic
  // (LlmStepTiming of one sequence) and o_s. t(B) is the larger piece; B
  // solves B = k·t(B), whose least root is the larger of the pieces'
  // (t is convex).
  LlmStep one_seq;
  one_seq.decode_seqs = 1;
  one_seq.decode_context = context;
  const LlmStepTime one = LlmStepTiming(engine, device, params, one_seq);
  // Under sequential kernels (llm_kernel_overlap v < 1) the KV reads add
  // to the matrix products' compute rather than hide under it.
  const double v = params.llm_kernel_overlap;
  const double b_compute = one.linear_ms +
                           v * one.attention_ms +
                           (1 - v) * std::max(one.attention_ms, one.kv_ms) +
                           (one.allreduce_ms - empty_step.allreduce_ms) +
                           params.llm_step_overhead_per_seq_ms;
  const double stretch = 1 / (1 - rho_prefill);
  const double k = lambda * output_mean / (1000 * (1 - rho_prefill));
  if (!(k * b < 1) || !(k * b_compute < 1)) return SaturatedLlmLatency();
  // A prefill-only step (eager, multi_step) stalls the batch beyond its
  // compute (in ρ_p) by f = o + max(0, w − p(P̄)) (its own invocation, and
  // the weights' read where it outlasts the prompt's compute); π of them
  // per decode step: a = w + o/n + f·π. π depends on the step's length:
  // three rounds of the fixed point (π moves a by well under 1 % after the
  // second).
  const double stall_ms =
      step_overhead + std::max(0.0, weights_ms - prefill_mean);
  const double fixed_ms = weights_ms + step_overhead / steps_per_schedule;
  const double fixed_compute_ms =
      empty_step.allreduce_ms + step_overhead / steps_per_schedule;
  double a = fixed_ms;
  double a_compute = fixed_compute_ms;
  auto solve = [&] {
    return std::max(k * a / (1 - k * b),
                    k * a_compute / (1 - k * b_compute));
  };
  auto step_at = [&](double batch_size) {
    return std::max(a + b * batch_size, a_compute + b_compute * batch_size);
  };
  double batch = solve();
  for (int round = 0; round < 3; ++round) {
    const double pi = LlmPrefillStepsPerDecodeStep(engine, lambda / 1000,
                                                   step_at(batch) * stretch);
    a = fixed_ms + stall_ms * pi;
    a_compute = fixed_compute_ms + stall_ms * pi;
    batch = solve();
  }
  const double step_ms = step_at(batch);
  const double slot_ms = prefill_mean + output_mean * step_ms * stretch;
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
  LlmStepState state;
  state.batch = batch;
  state.step_ms = step_ms;
  // The reads alone (a tensor-parallel step's all-reduce latency,
  // empty_step.allreduce_ms, is paid after them, not overlapped).
  state.memory_ms = empty_step.memory_ms + kv_ms * batch;
  state.weights_ms = empty_step.memory_ms;
  state.allreduce_ms = empty_step.allreduce_ms;
  state.step_overhead_ms = step_overhead;
  state.stretch = stretch;
  state.busy = 1 - std::exp(-batch);
  state.arrivals_per_ms = lambda / 1000;
  state.prompt_mean = prompt_mean;
  const double request_ms = LlmRequestOverheadMs(engine, params);
  auto ttft = [&](double q) {
    double wait = 0;
    if (l.wait_probability > 1 - q) {
      wait = std::log(l.wait_probability / (1 - q)) * slot_ms / (c - load);
    }
    const double prompt = engine.prompt_tokens.Quantile(q);
    return request_ms + wait +
           LlmFirstTokenMs(engine, device, params, state, prompt, q) +
           q * turn_ms;
  };
  const double batch_p99 =
      std::min(c, batch + kServingZ99 * std::sqrt(batch));
  l.ttft_p50_ms = ttft(0.5);
  l.ttft_p99_ms = ttft(0.99);
  l.tpot_p50_ms = step_ms * stretch;
  l.tpot_p99_ms = step_at(batch_p99) * stretch;
  l.p50_ms = l.ttft_p50_ms +
             std::max(0.0, engine.output_tokens.Quantile(0.5) - 1) *
                 l.tpot_p50_ms;
  l.p99_ms = l.ttft_p99_ms +
             std::max(0.0, engine.output_tokens.Quantile(0.99) - 1) *
                 l.tpot_p99_ms;
  return l;
}

}  // namespace gpushare
