// LlmStepModel: how long an LLM serving engine's steps take on its grant
// (docs/model.md §6.8).
//
// A step of a continuous-batching engine (vLLM, TGI) runs every sequence of
// its batch one token further, and the prompt tokens of newly admitted
// requests (prefill) in chunks of at most max_num_batched_tokens. Prefill
// is bound by compute, decode by memory bandwidth:
//
//   prefill_ms(n)     = n · 2 · params / (R · s · f · e_c · x)
//   decode_step_ms(B) = (W + B · L · k) / (BW · e_b · x)
//
// with params the engine's parameters (LlmEngine::Params()), R the
// reference's dense BF16 tensor TFLOPS (A100: 312; the catalog's
// relative_speed s is TFLOPS / 312), f the domain's SM fraction (a MIG
// instance's SMs over the GPU's), W the weight bytes, B sequences, L the
// tokens of context each holds, k KV bytes per token, BW the grant's peak
// DRAM bandwidth (the GPU's, or a MIG instance's memory-slice share of
// it), e_c and e_b the achieved fractions of peak (ModelParams
// llm_prefill_flops_efficiency, llm_decode_bandwidth_efficiency), and x the
// share of the device the engine gets from the share model (time share
// under time-slicing and HAMi, interference factor under MPS; 1 alone).
//
// Contract: pure functions of their inputs. A device with no catalog
// bandwidth (0) is taken as s × f × the reference's 1,555 GB/s (a MIG
// instance's SM share standing for its memory slices). Non-positive
// shares, speeds or bandwidths give +infinity (the engine never
// advances); negative token and batch counts are taken as 0.

#ifndef GPUSHARE_EXEC_LLM_STEP_MODEL_H_
#define GPUSHARE_EXEC_LLM_STEP_MODEL_H_

#include "gpushare/exec/model_params.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

// The reference GPU (A100, relative speed 1): dense BF16 tensor TFLOPS
// (NVIDIA A100 datasheet; catalog/gpus.yaml defines relative_speed as
// TFLOPS / 312) and the A100-40GB's DRAM bandwidth, GB/s.
inline constexpr double kReferenceDenseTflops = 312;
inline constexpr double kReferenceBandwidthGbS = 1555;

// What an engine's grant gives it during an interval.
struct LlmDevice {
  double relative_speed = 1;  // s of the GPU model
  double sm_fraction = 1;     // f: instance SMs / GPU SMs (1: whole GPU)
  double bandwidth_gb_s = 0;  // peak DRAM GB/s of the GPU or MIG instance
  double share = 1;           // x: the share model's share of the device
};

// Milliseconds of compute to prefill `tokens` prompt tokens.
double LlmPrefillMs(const LlmEngine& engine, const LlmDevice& device,
                    const ModelParams& params, double tokens);

// Milliseconds of one decode step of `batch` sequences holding
// `context_tokens` tokens of KV cache each (weights read once per step).
double LlmDecodeStepMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, double batch,
                       double context_tokens);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LLM_STEP_MODEL_H_
