// LlmStepModel: how long an LLM serving engine's steps take on its grant
// (docs/model.md §6.8).
//
// A step of a continuous-batching engine (vLLM, TGI, TensorRT-LLM) runs
// every decoding sequence of its batch one token further and computes the
// prompt tokens of admitted requests (prefill) in chunks. Its matrix
// products and its attention are separate kernels, each a roofline (the
// longer of its compute and its memory traffic), run one after the other
// (v = llm_kernel_overlap of them overlaps as one roofline), plus the
// all-reduces of a tensor-parallel engine, which wait for both:
//
//   step_ms   = v·max(lin + att, wts + kv)
//               + (1 − v)·(max(lin, wts) + max(att, kv)) + allreduce_ms
//   lin = 2·P·T / (R_w·e_w·N·x)          att = 4·layers·H·A / (R_16·e_c·N·x)
//   wts = W / (BW·e_b·x)                 kv  = k·(B·L + S·C + n) / (BW·e_b·x)
//   compute_ms = lin + att, memory_ms = wts + kv
//   allreduce_ms = 2·layers · (α + 2(N − 1)/N · T·H·2 / (link · e_l)) / x
//
// with n prefill tokens and B decoding sequences (T = n + B tokens), P the
// model's parameters (LlmEngine::Params), H its hidden size
// (LlmEngine::HiddenSize), A = n·(C + n/(2·S)) + B·L the attended
// positions (the n prefill tokens are chunks of S prompts, each attending
// the C tokens of its prompt already cached and, causally, half of its
// chunk; a decode token attends its L tokens of context), R_w
// the tensor rate of the weights' matrix products (the GPU's dense FP8
// rate for fp8 weights where it has one, else its dense 16-bit rate 312
// TFLOPS × s), R_16 the 16-bit rate attention runs at, both × f (a MIG
// instance's SM fraction); W the bytes of weights and k the KV bytes per
// token one GPU holds (LlmEngine::KvBytesPerToken), BW one GPU's DRAM
// bandwidth (the GPU's, or a MIG instance's memory-slice share); N the
// tensor-parallel size (2 all-reduces a layer of the step's activations
// in 16 bits, as a ring); e_c, e_b, e_l, α the ModelParams
// llm_prefill_flops_efficiency, llm_decode_bandwidth_efficiency,
// llm_allreduce_bandwidth_efficiency and llm_allreduce_latency_us, e_w
// llm_fp8_flops_efficiency at the FP8 rate and e_c otherwise; and x
// the share of the device the engine gets from the share model (time
// share under time-slicing and HAMi, interference factor under MPS; 1
// alone).
//
// Contract: pure functions of their inputs. A device with no catalog
// bandwidth (0) is taken as s × f × the reference's 1,555 GB/s (a MIG
// instance's SM share standing for its memory slices); one with no link
// bandwidth (0) as PCIe Gen4's 32 GB/s. Non-positive shares, speeds or
// bandwidths give +infinity (the engine never advances); negative token,
// batch and context counts are taken as 0.

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
// A GPU-to-GPU link of unknown bandwidth: PCIe Gen4 x16, one direction.
inline constexpr double kFallbackLinkGbS = 32;

// What one GPU of an engine's grant gives it during an interval (a
// tensor-parallel engine has LlmEngine::tensor_parallel such GPUs; the
// slowest of them is given).
struct LlmDevice {
  double relative_speed = 1;  // s of the GPU model
  double sm_fraction = 1;     // f: instance SMs / GPU SMs (1: whole GPU)
  double bandwidth_gb_s = 0;  // peak DRAM GB/s of the GPU or MIG instance
  double share = 1;           // x: the share model's share of the device
  double fp8_tflops = 0;      // the GPU's dense FP8 tensor TFLOPS (0: none)
  double link_gb_s = 0;       // GPU-to-GPU GB/s per direction (0: unknown)
};

// One step's work: `prefill_tokens` prompt tokens, chunks of
// `prefill_seqs` prompts (split evenly; at least 1) that already have
// `prefill_context` tokens cached each (0: first chunks), and
// `decode_seqs` sequences decoding one token each with `decode_context`
// tokens of context.
struct LlmStep {
  double prefill_tokens = 0;
  double prefill_seqs = 1;
  double prefill_context = 0;
  double decode_seqs = 0;
  double decode_context = 0;
};

// The parts of a step's time, ms; `ms` as above.
struct LlmStepTime {
  double linear_ms = 0;     // the matrix products' compute
  double attention_ms = 0;  // attention's compute
  double weights_ms = 0;    // the weights' read
  double kv_ms = 0;         // the KV cache's reads and writes
  double compute_ms = 0;    // linear_ms + attention_ms
  double memory_ms = 0;     // weights_ms + kv_ms
  double allreduce_ms = 0;
  double ms = 0;
  bool compute_bound() const { return compute_ms > memory_ms; }
};

LlmStepTime LlmStepTiming(const LlmEngine& engine, const LlmDevice& device,
                          const ModelParams& params, const LlmStep& step);

// LlmStepTiming(...).ms.
double LlmStepMs(const LlmEngine& engine, const LlmDevice& device,
                 const ModelParams& params, const LlmStep& step);

// What prefilling a `tokens`-token prompt adds to the steps it rides on:
// its compute (from an empty cache) and the bandwidth part of its
// all-reduces — not the weights' read or the all-reduces' latency, which
// the steps pay anyway.
double LlmPrefillMs(const LlmEngine& engine, const LlmDevice& device,
                    const ModelParams& params, double tokens);

// Milliseconds of one decode step of `batch` sequences holding
// `context_tokens` tokens of KV cache each (weights read once per step):
// LlmStepMs of {0, 0, batch, context_tokens}.
double LlmDecodeStepMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, double batch,
                       double context_tokens);

// Milliseconds from a `prompt`-token prompt's first prefill step to its
// first token: the steps that prefill it in chunks of what
// max_num_batched_tokens leaves after `batch` decoding sequences (of
// `context` tokens each), each timed as one roofline step with them.
double LlmPromptMs(const LlmEngine& engine, const LlmDevice& device,
                   const ModelParams& params, double prompt, double batch,
                   double context);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LLM_STEP_MODEL_H_
