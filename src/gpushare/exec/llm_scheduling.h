// LlmScheduling's first token: how long a prompt that has its KV slot takes
// to its first token under its engine's scheduling policy (docs/model.md
// §6.8, "Scheduling"). Analytic, per interval, as llm_serving_latency.h.
//
// Given the running batch B, its decode step t(B) = m(B) + c(B) + f·π
// (m: the GPU's part, the weights' read w and the batch's KV; c: the CPU's,
// o/n + o_s·B; f·π: the prefill-only steps' stall, below), the prefill
// stretch 1/(1 − ρ_p), a decode step's wall time T = t(B)/(1 − ρ_p), the
// probability β = 1 − e^−B that a batch is running, and p(n) the compute
// of n prompt tokens (LlmPrefillMs). A step that carries prompt tokens
// takes the larger of their compute and its memory reads (a roofline):
//
//   chunked_prefill (vLLM V1)  the prompt joins the next step; each step's
//                              token budget M goes to the batch's B decode
//                              tokens first, the rest to prefill chunks in
//                              queue order, so the prompt waits for the
//                              prompts ahead of it (an M/D/1 queue's mean
//                              backlog ρ_p / (2(1 − ρ_p)) · P̄ tokens) and
//                              X = P + that spans k = ⌈X / (M − B)⌉ steps
//                              of the whole batch: admission over T, then
//                              max(p(X), k·m(B)) + k·(t(B) − m(B))
//   eager (SGLang)             the prompt is prefilled at the next step,
//                              ahead of decode, with the prompts that
//                              arrived during the step (λ·T·P̄ tokens), in
//                              prefill-only steps of at most M tokens,
//                              j = ⌈X / M⌉ of them for X tokens: admission
//                              over T, then max(p(X), j·w) + j·(o + a_r)
//   multi_step n (vLLM 0.6)    new requests are admitted only every n
//                              decode steps, a group of G = n·T: admission
//                              over G, then one prefill step of the prompts
//                              that arrived in the group (X = P + λ·G·P̄):
//                              max(p(X), j·w) + j·(o + a_r)
//
// where a_r is a tensor-parallel step's all-reduce latency (2·layers·α;
// 0 on one GPU), paid after a step's reads, and p(n) includes the
// all-reduces' bandwidth part (llm_step_model.h). Under chunked prefill
// m(B) is the reads alone, so t(B) − m(B) carries a_r and the CPU's part.
//
// The admission wait over an interval L: none when no batch runs (the
// engine starts the prompt at once), else uniform on [0, L]; its
// q-quantile is L · max(0, q − (1 − β)) / β.
//
// Prefill-only steps stall the batch: π per decode step (eager: 1 −
// e^(−λ·T), a step during which a prompt arrived is followed by one;
// multi_step: (1 − e^(−λ·G)) / n, one per group that saw an arrival;
// chunked_prefill: 0, its chunks ride in the decode steps), each by f.
//
// Contract: pure; a non-finite step gives +inf.

#ifndef GPUSHARE_EXEC_LLM_SCHEDULING_H_
#define GPUSHARE_EXEC_LLM_SCHEDULING_H_

#include "gpushare/exec/llm_step_model.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

// The engine's state during the interval (llm_serving_latency.cc).
struct LlmStepState {
  double batch = 0;             // B
  double step_ms = 0;           // t(B): the whole decode step
  double memory_ms = 0;         // m(B): its weights' and KV reads
  double weights_ms = 0;        // w
  double allreduce_ms = 0;      // a tensor-parallel step's all-reduce latency
  double step_overhead_ms = 0;  // o: one scheduler invocation
  double stretch = 1;           // 1 / (1 − ρ_p)
  double busy = 0;              // β: a batch is running
  double arrivals_per_ms = 0;   // λ / 1000
  double prompt_mean = 0;       // P̄
};

// Milliseconds from a prompt of `prompt` tokens getting its slot to its
// first token, at the q-quantile of its admission wait.
double LlmFirstTokenMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, const LlmStepState& state,
                       double prompt, double q);

// π above, for a decode step of wall time `step_wall_ms`.
double LlmPrefillStepsPerDecodeStep(const LlmEngine& engine,
                                    double arrivals_per_ms,
                                    double step_wall_ms);

// The q-quantile of a wait that is 0 with probability 1 − busy and else
// uniform on [0, interval_ms].
double LlmAdmissionWaitMs(double interval_ms, double busy, double q);

// The step overhead o of the engine (its own, else the model parameter of
// its scheduling) and the per-request overhead r, ms.
double LlmStepOverheadMs(const LlmEngine& engine, const ModelParams& params);
double LlmRequestOverheadMs(const LlmEngine& engine, const ModelParams& params);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LLM_SCHEDULING_H_
