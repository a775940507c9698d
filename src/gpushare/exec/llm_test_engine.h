// Test fixtures shared by the LLM serving tests (not part of the library):
// the Llama-3-8B-like engine their numbers are computed by hand for, and
// model parameters without the engines' CPU overheads.

#ifndef GPUSHARE_EXEC_LLM_TEST_ENGINE_H_
#define GPUSHARE_EXEC_LLM_TEST_ENGINE_H_

#include "gpushare/exec/model_params.h"
#include "gpushare/workload/distribution.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

// 15 GiB of weights (8.05e9 parameters at 2 bytes), 32 layers, 8 KV heads
// of 128 in 16 bits (128 KiB of KV cache a token), 512-token prompts and
// 256-token outputs, scheduled by `scheduling` (multi_step: 10 steps).
inline LlmEngine Llama8bTestEngine(
    LlmScheduling scheduling = LlmScheduling::kChunkedPrefill) {
  LlmEngine e;
  e.weights_gib = 15;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.prompt_tokens = Distribution::Constant(512);
  e.output_tokens = Distribution::Constant(256);
  e.scheduling = scheduling;
  if (scheduling == LlmScheduling::kMultiStep) e.scheduler_steps = 10;
  return e;
}

// ModelParams with every LLM CPU overhead (per step, per sequence, per
// request) at 0: the GPU's part alone.
inline ModelParams NoLlmOverheads() {
  ModelParams p;
  p.llm_step_overhead_chunked_prefill_ms = 0;
  p.llm_step_overhead_multi_step_ms = 0;
  p.llm_step_overhead_eager_ms = 0;
  p.llm_step_overhead_per_seq_ms = 0;
  p.llm_request_overhead_ms = 0;
  return p;
}

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LLM_TEST_ENGINE_H_
