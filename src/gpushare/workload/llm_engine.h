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
//
// A tensor-parallel engine (tensor_parallel N > 1) runs on N GPUs of its
// pod: each holds weights_gib (the model's weights over N) and the KV
// cache of max(1, kv_heads / N) of its KV heads (vLLM shards KV heads and
// replicates them when there are fewer than N).

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

// How the weights are stored, which sets their bytes per parameter and the
// tensor rate of the matrix products (docs/model.md §6.8): bf16 and fp16
// 2 bytes at the 16-bit rate; fp8 1 byte at the GPU's FP8 rate where it
// has one (Ada, Hopper, Blackwell), else the 16-bit rate (weight-only
// FP8, as vLLM's Marlin kernels on Ampere); int8 1 byte and int4 half a
// byte, weight-only (dequantised to 16 bits: the 16-bit rate).
enum class LlmWeightsDtype { kBf16, kFp16, kFp8, kInt8, kInt4 };

// Bytes a parameter of `dtype` takes: 2, 2, 1, 1, 0.5.
double LlmBytesPerParam(LlmWeightsDtype dtype);
// True for fp8: its matrix products run on FP8 tensor cores where the GPU
// has them.
bool LlmFp8Compute(LlmWeightsDtype dtype);

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
  // Weights each GPU of the pod holds (the model's over tensor_parallel),
  // GiB.
  double weights_gib = 0;
  // The model's parameters (all its GPUs together), billions; 0: the
  // weights (weights_gib x tensor_parallel) at weights_dtype's bytes a
  // parameter.
  double params_billion = 0;
  LlmWeightsDtype weights_dtype = LlmWeightsDtype::kBf16;
  // GPUs the model is sharded over (1, 2, 4 or 8): the pod's GPUs.
  int tensor_parallel = 1;
  // The model's hidden size (config.json hidden_size); 0: unknown
  // (HiddenSize() estimates it).
  int hidden_size = 0;
  // KV cache shape: 2 (K and V) x layers x kv_heads x head_dim x dtype_bytes
  // bytes per token (the whole model's; KvBytesPerToken is one GPU's).
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

  // KV bytes per token on one GPU: 2 x layers x max(1, kv_heads /
  // tensor_parallel) x head_dim x dtype_bytes.
  int64_t KvBytesPerToken() const;
  // The model's parameters (not billions): params_billion, else
  // weights_gib x tensor_parallel GiB at weights_dtype's bytes a parameter.
  double Params() const;
  // hidden_size, else sqrt(Params() / (12 x layers)) (a dense transformer
  // has about 12 x hidden² parameters a layer: within 12 % of Llama-3's
  // 4,096 and 8,192 for its 8B and 70B models).
  double HiddenSize() const;
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
// for the others, and the same on every seed. The means of the last 8
// distributions asked are kept per thread (the same bits again).
double LlmMeanTokens(const Distribution& d);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_LLM_ENGINE_H_
