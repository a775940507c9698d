// LlmServingLatency: TTFT, TPOT and request latency (p50/p99) of an LLM
// serving engine with continuous batching over one sampling interval
// (docs/model.md §6.8). Analytic: no event per request or token.
//
// Requests arrive as a Poisson stream of rate λ (per second) with prompt
// and output token counts from the engine's distributions (means P̄, Ō).
// A request holds a KV slot from admission to its last token; the engine
// runs at most c = max concurrent sequences at once (LlmEngine::
// MaxConcurrentSeqs: max_num_seqs, or fewer when the KV cache is full), so
// requests beyond c wait in the engine's queue.
//
//   decode step     t(B) = a + b·B   (llm_step_model.h: a reads the
//                                     weights, b the KV of one sequence
//                                     at P̄ + Ō/2 tokens of context; plus
//                                     the CPU: o/n in a, o_s in b, and the
//                                     prefill-only steps' stall f·π in a,
//                                     llm_scheduling.h)
//   prefill load    ρ_p  = λ · prefill_ms(P̄) / 1000
//   running batch   B    = λ·Ō·t(B) / (1000·(1 − ρ_p))      (Little's law)
//                        = k·a / (1 − k·b),  k = λ·Ō / (1000·(1 − ρ_p))
//   slot time       S    = prefill_ms(P̄) + Ō · t(B) / (1 − ρ_p)
//   KV slots        an M/M/c queue with offered load A = λ·S / 1000:
//                   P(wait) = Erlang C(c, A), wait q-quantile
//                   max(0, ln(P(wait) / (1 − q))) · S / (c − A)
//   TTFT(q)  = r + wait(q) + first token(P_q, q) + q·W
//   TPOT(q)  = t(B_q) / (1 − ρ_p),  B_50 = B, B_99 = min(c, B + 2.326·√B)
//   latency(q) = TTFT(q) + (O_q − 1) · TPOT(q)
//
// first token (llm_scheduling.h) is the wait for the engine's next
// admission point and the steps that prefill the prompt under its
// scheduling policy; r the per-request overhead; o, o_s and r come from
// the engine or ModelParams (docs/model.md §6.8, "Overheads").
// P_q, O_q are the q-quantiles of the token distributions, W = (k − 1) ·
// (t_slice + t_switch) the turn wait of k ≥ 2 contexts taking turns (as
// §6.5; it delays the first token, and is averaged into the share for the
// rest).
// Quantiles of sums are sums of quantiles: an upper-bound style
// approximation, as §6.5. utilization = A / c (KV slot occupancy).
//
// Saturated (every value +inf, as InferenceLatency): ρ_p ≥ 1, k·b ≥ 1,
// B ≥ c or A ≥ c (the queue grows without bound), or c ≤ 0 (the engine
// has no KV cache). λ = 0: a lone request, no wait, B = 0.
//
// Contract: a pure, deterministic function; Erlang C takes O(c) time at
// most, and stops once no arrival can wait (a few hundred servers past
// the load, where Erlang B underflows to 0).

#ifndef GPUSHARE_EXEC_LLM_SERVING_LATENCY_H_
#define GPUSHARE_EXEC_LLM_SERVING_LATENCY_H_

#include <cstdint>

#include "gpushare/exec/llm_step_model.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

struct LlmServingInputs {
  double request_rate = 0;     // λ, requests per second
  int64_t max_seqs = 0;        // c: sequences the engine runs at once
  int contexts = 1;            // contexts taking turns on the device
  double time_slice_ms = 1.024;
  double context_switch_ms = 0.2;
};

struct LlmLatency {
  double ttft_p50_ms = 0;
  double ttft_p99_ms = 0;
  double tpot_p50_ms = 0;
  double tpot_p99_ms = 0;
  double p50_ms = 0;      // whole request: TTFT + (O − 1) · TPOT
  double p99_ms = 0;
  double batch = 0;       // B: mean sequences decoding
  double wait_probability = 0;  // a request waits for a KV slot
  double utilization = 0;       // A / c
  // Share of time the engine keeps its device busy: ρ_p + (1 − ρ_p) ·
  // P(a sequence is running) = ρ_p + (1 − ρ_p)(1 − e^−B); 1 saturated.
  double busy = 0;
  bool saturated = false;
};

LlmLatency LlmServingLatency(const LlmEngine& engine, const LlmDevice& device,
                             const ModelParams& params,
                             const LlmServingInputs& in);

// Erlang C: the probability that an arrival waits in an M/M/c queue with
// offered load `load` (< c) Erlangs; 1 when load >= c.
double ErlangC(int64_t servers, double load);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LLM_SERVING_LATENCY_H_
