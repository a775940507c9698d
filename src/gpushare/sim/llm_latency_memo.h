// LlmLatencyMemo: the last LlmServingLatency (exec/llm_serving_latency.h)
// of one engine, kept while its inputs stay the same.
//
// An engine's latency depends only on its engine, its device, its model
// parameters and its serving inputs (request rate, sequences at once,
// contexts taking turns, time slice); between the events that change its
// share of the device those are the same at every sample, so Simulation
// keeps one memo per engine pod (and one for the pod as if alone) and
// computes the latency again only when an input changes.
//
// Contract: Get() returns exactly LlmServingLatency(engine, device, params,
// in) — the same bits: the cached value is returned only when every number
// of `device` and `in` has the same bit pattern as at the call that
// computed it and `engine` and `params` are the same objects. The engine
// and the parameters must not change while a memo refers to them (a
// Simulation's pods and pool parameters do not). One entry: bounded and
// deterministic. Not thread-safe (a Simulation runs on one thread).

#ifndef GPUSHARE_SIM_LLM_LATENCY_MEMO_H_
#define GPUSHARE_SIM_LLM_LATENCY_MEMO_H_

#include <cstdint>

#include "gpushare/exec/llm_serving_latency.h"
#include "gpushare/exec/llm_step_model.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

class LlmLatencyMemo {
 public:
  const LlmLatency& Get(const LlmEngine& engine, const LlmDevice& device,
                        const ModelParams& params, const LlmServingInputs& in);

  // How many times Get() computed the latency (for tests).
  int64_t computations() const { return computations_; }

 private:
  bool valid_ = false;
  const LlmEngine* engine_ = nullptr;
  const ModelParams* params_ = nullptr;
  LlmDevice device_;
  LlmServingInputs in_;
  LlmLatency value_;
  int64_t computations_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_LLM_LATENCY_MEMO_H_
