#include "gpushare/sim/llm_latency_memo.h"

#include <bit>

namespace gpushare {
namespace {

// Every input of LlmServingLatency is in the key: a field added to
// LlmDevice or LlmServingInputs changes their size and stops the build
// here until it joins SameDevice or SameServing below.
static_assert(sizeof(LlmDevice) == 6 * sizeof(double),
              "a new LlmDevice field must join SameDevice's key");
static_assert(sizeof(LlmServingInputs) == 5 * 8,
              "a new LlmServingInputs field must join SameServing's key");

bool MemoSameBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

bool SameDevice(const LlmDevice& a, const LlmDevice& b) {
  return MemoSameBits(a.relative_speed, b.relative_speed) &&
         MemoSameBits(a.sm_fraction, b.sm_fraction) &&
         MemoSameBits(a.bandwidth_gb_s, b.bandwidth_gb_s) &&
         MemoSameBits(a.share, b.share) &&
         MemoSameBits(a.fp8_tflops, b.fp8_tflops) &&
         MemoSameBits(a.link_gb_s, b.link_gb_s);
}

bool SameServing(const LlmServingInputs& a, const LlmServingInputs& b) {
  return MemoSameBits(a.request_rate, b.request_rate) &&
         a.max_seqs == b.max_seqs && a.contexts == b.contexts &&
         MemoSameBits(a.time_slice_ms, b.time_slice_ms) &&
         MemoSameBits(a.context_switch_ms, b.context_switch_ms);
}

}  // namespace

const LlmLatency& LlmLatencyMemo::Get(const LlmEngine& engine,
                                      const LlmDevice& device,
                                      const ModelParams& params,
                                      const LlmServingInputs& in) {
  if (valid_ && engine_ == &engine && params_ == &params &&
      SameDevice(device_, device) && SameServing(in_, in)) {
    return value_;
  }
  value_ = LlmServingLatency(engine, device, params, in);
  engine_ = &engine;
  params_ = &params;
  device_ = device;
  in_ = in;
  valid_ = true;
  ++computations_;
  return value_;
}

}  // namespace gpushare
