#include "gpushare/workload/llm_engine.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace gpushare {
namespace {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
constexpr int64_t kBytesPerMib = int64_t{1} << 20;
// A dense transformer layer holds about 12 x hidden² parameters (4 x
// hidden² of attention, 8 x hidden² of MLP).
constexpr double kParamsPerLayerOverHiddenSquared = 12;

bool SameTokenBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// Whether two distributions are the same in every parameter, to the bit.
bool SameDistribution(const Distribution& a, const Distribution& b) {
  if (a.kind != b.kind || !SameTokenBits(a.value, b.value) ||
      !SameTokenBits(a.min, b.min) || !SameTokenBits(a.max, b.max) ||
      !SameTokenBits(a.mean, b.mean) || !SameTokenBits(a.median, b.median) ||
      !SameTokenBits(a.sigma, b.sigma) || a.choices.size() != b.choices.size()) {
    return false;
  }
  for (size_t i = 0; i < a.choices.size(); ++i) {
    if (!SameTokenBits(a.choices[i].first, b.choices[i].first) ||
        !SameTokenBits(a.choices[i].second, b.choices[i].second)) {
      return false;
    }
  }
  return true;
}

}  // namespace

double LlmBytesPerParam(LlmWeightsDtype dtype) {
  switch (dtype) {
    case LlmWeightsDtype::kFp8:
    case LlmWeightsDtype::kInt8:
      return 1;
    case LlmWeightsDtype::kInt4:
      return 0.5;
    case LlmWeightsDtype::kBf16:
    case LlmWeightsDtype::kFp16:
      break;
  }
  return 2;
}

bool LlmFp8Compute(LlmWeightsDtype dtype) {
  return dtype == LlmWeightsDtype::kFp8;
}

double LlmMeanTokens(const Distribution& d) {
  if (d.kind == Distribution::Kind::kConstant) return d.value;
  // A thousand quantiles (an inverse normal CDF each) for every latency an
  // engine computes: the last few distributions' means are kept, per
  // thread, and returned for a distribution of the same bits.
  struct Kept {
    Distribution d;
    double mean = 0;
  };
  constexpr size_t kKept = 8;
  thread_local std::array<Kept, kKept> kept;
  thread_local size_t used = 0;
  thread_local size_t next = 0;
  for (size_t i = 0; i < used; ++i) {
    if (SameDistribution(kept[i].d, d)) return kept[i].mean;
  }
  constexpr int kSteps = 1000;
  double sum = 0;
  for (int i = 0; i < kSteps; ++i) sum += d.Quantile((i + 0.5) / kSteps);
  const double mean = sum / kSteps;
  kept[next] = {d, mean};
  next = (next + 1) % kKept;
  used = std::max(used, next == 0 ? kKept : next);
  return mean;
}

double LlmEngine::Params() const {
  return params_billion > 0
             ? params_billion * 1e9
             : weights_gib * std::max(1, tensor_parallel) * kBytesPerGib /
                   LlmBytesPerParam(weights_dtype);
}

double LlmEngine::HiddenSize() const {
  if (hidden_size > 0) return hidden_size;
  if (layers <= 0) return 0;
  return std::sqrt(Params() / (kParamsPerLayerOverHiddenSquared * layers));
}

int64_t LlmEngine::KvBytesPerToken() const {
  const int heads =
      kv_heads <= 0 ? 0 : std::max(1, kv_heads / std::max(1, tensor_parallel));
  return int64_t{2} * layers * heads * head_dim * dtype_bytes;
}

const char* LlmSchedulingName(LlmScheduling s) {
  switch (s) {
    case LlmScheduling::kChunkedPrefill:
      return "chunked_prefill";
    case LlmScheduling::kMultiStep:
      return "multi_step";
    case LlmScheduling::kEager:
      return "eager";
  }
  return "chunked_prefill";
}

int64_t LlmEngine::FootprintMib(int64_t visible_mib) const {
  return FootprintMib(visible_mib, gpu_memory_utilization);
}

int64_t LlmEngine::FootprintMib(int64_t visible_mib,
                                double utilization) const {
  // A tiny epsilon keeps 0.2 x 1000 at 200 despite binary fractions.
  return static_cast<int64_t>(
      std::floor(utilization * static_cast<double>(visible_mib) + 1e-9));
}

int64_t LlmEngine::KvCapacityTokens(int64_t visible_mib) const {
  return KvCapacityTokens(visible_mib, gpu_memory_utilization);
}

int64_t LlmEngine::KvCapacityTokens(int64_t visible_mib,
                                    double utilization) const {
  const double free_bytes =
      static_cast<double>(FootprintMib(visible_mib, utilization) *
                          kBytesPerMib) -
      (weights_gib + activation_reserve_gib) * kBytesPerGib;
  const double block_bytes =
      static_cast<double>(KvBytesPerToken()) * kKvBlockTokens;
  if (free_bytes < block_bytes) return 0;
  return static_cast<int64_t>(std::floor(free_bytes / block_bytes)) *
         kKvBlockTokens;
}

int64_t LlmEngine::MaxConcurrentSeqs(int64_t kv_tokens) const {
  const double per_request =
      LlmMeanTokens(prompt_tokens) + LlmMeanTokens(output_tokens);
  if (kv_tokens <= 0 || per_request <= 0) return 0;
  return std::min<int64_t>(
      max_num_seqs,
      static_cast<int64_t>(std::floor(static_cast<double>(kv_tokens) /
                                      per_request)));
}

}  // namespace gpushare
