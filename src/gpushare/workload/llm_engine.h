// LlmEngine: the memory model of an LLM serving engine (vLLM semantics) that
// an inference class runs (`engine:` in docs/scenario.md, docs/model.md
// §6.7).
//
// Contract: plain values checked by the scenario reader (ranges, weights
// that fit some GPU). At start the engine pre-allocates
// gpu_memory_utilization of the memory it sees — the whole GPU or MIG
// instance without memory isolation, the HAMi gpumem or MPS pinned limit
// with it — and keeps for its KV cache what is left of that after the
// weights and the activation/CUDA-context reserve, in whole blocks of
// kKvBlockTokens tokens (vLLM's default --block-size). No block left:
// the engine fails at start, as vLLM raises "No available memory for the
// cache blocks". Units are in the names (GiB = 2^30 bytes, MiB = 2^20).

#ifndef GPUSHARE_WORKLOAD_LLM_ENGINE_H_
#define GPUSHARE_WORKLOAD_LLM_ENGINE_H_

#include <cstdint>

#include "gpushare/workload/distribution.h"

namespace gpushare {

// vLLM's defaults (gpu_memory_utilization: vllm/config/cache.py
// CacheConfig at commit 002f10e0; docs/model.md §6.7 gives the sources).
inline constexpr double kDefaultGpuMemoryUtilization = 0.92;
inline constexpr int kDefaultMaxNumSeqs = 256;
inline constexpr int64_t kDefaultMaxNumBatchedTokens = 8192;
inline constexpr int kKvBlockTokens = 16;
// CUDA context (200-500 MB per process, research notes, uncertain) plus
// the activations of a profiled forward pass; a documented assumption.
inline constexpr double kDefaultActivationReserveGib = 1.0;

// How an engine admits new prompts into its running batch (docs/model.md
// §6.8, "Scheduling"): vLLM V1's token budget per step shared by decode
// tokens and prefill chunks; older vLLM's multi-step scheduling (new
// requests only every `scheduler_steps` decode steps, then a prefill step);
// SGLang's prefill-priority admission (a prefill batch at the next step,
// ahead of decode).
enum class LlmScheduling { kChunkedPrefill, kMultiStep, kEager };
// "chunked_prefill", "multi_step", "eager".
const char* LlmSchedulingName(LlmScheduling s);

struct LlmEngine {
  // Weights each GPU of the pod holds (the model's over its tensor-parallel
  // size), GiB.
  double weights_gib = 0;
  // Parameters each GPU of the pod computes with (billions); 0: the
  // weights at 2 bytes a parameter (BF16). Give it for a quantised model.
  double params_billion = 0;
  // KV cache shape: 2 (K and V) x layers x kv_heads x head_dim x dtype_bytes
  // bytes per token.
  int layers = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int dtype_bytes = 2;
  // The share of the seen memory it pre-allocates when given; with
  // memory_utilization_auto it is the engine kind's default (0.92 vLLM,
  // 1.0 TGI), which applies on an isolated grant, and a time-sliced GPU
  // gets the fraction the emitted pod patch sets instead
  // (engine_memory_fraction.h).
  double gpu_memory_utilization = kDefaultGpuMemoryUtilization;
  bool memory_utilization_auto = false;
  int max_num_seqs = kDefaultMaxNumSeqs;
  int64_t max_num_batched_tokens = kDefaultMaxNumBatchedTokens;
  double activation_reserve_gib = kDefaultActivationReserveGib;
  LlmScheduling scheduling = LlmScheduling::kChunkedPrefill;
  // multi_step's n (vLLM --num-scheduler-steps); 1 under the others.
  int scheduler_steps = 1;
  // CPU and scheduling time per scheduler invocation, and per request
  // (tokenizer, HTTP, detokenizer), ms; < 0: the model parameter of its
  // scheduling (ModelParams::LlmStepOverheadMs, llm_request_overhead_ms).
  double step_overhead_ms = -1;
  double request_overhead_ms = -1;
  // Tokens per request.
  Distribution prompt_tokens = Distribution::Constant(512);
  Distribution output_tokens = Distribution::Constant(256);

  int64_t KvBytesPerToken() const;
  // Parameters (not billions): params_billion, else weights bytes / 2.
  double Params() const;
  // What it pre-allocates of `visible_mib`: floor(utilization x visible),
  // with gpu_memory_utilization or the `utilization` given.
  int64_t FootprintMib(int64_t visible_mib) const;
  int64_t FootprintMib(int64_t visible_mib, double utilization) const;
  // Tokens its KV cache holds with `visible_mib` visible, in whole blocks;
  // <= 0 when nothing is left for the cache (the engine cannot start).
  int64_t KvCapacityTokens(int64_t visible_mib) const;
  int64_t KvCapacityTokens(int64_t visible_mib, double utilization) const;
  // Sequences it runs at once: max_num_seqs, or fewer when the cache
  // cannot hold that many of mean prompt + mean output tokens.
  int64_t MaxConcurrentSeqs(int64_t kv_tokens) const;
};

// The mean of a token-count distribution, as the average of its quantiles
// at the midpoints of 1,000 equal steps: exact for constants, within 0.1 %
// for the others, and the same on every seed.
double LlmMeanTokens(const Distribution& d);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_LLM_ENGINE_H_
