#include "gpushare/exec/llm_step_model.h"

#include <algorithm>
#include <limits>

namespace gpushare {
namespace {

constexpr double kLlmStepBytesPerGib = 1024.0 * 1024.0 * 1024.0;

double StepBandwidthGbS(const LlmDevice& device) {
  return device.bandwidth_gb_s > 0
             ? device.bandwidth_gb_s
             : device.relative_speed * device.sm_fraction *
                   kReferenceBandwidthGbS;
}

}  // namespace

double LlmPrefillMs(const LlmEngine& engine, const LlmDevice& device,
                    const ModelParams& params, double tokens) {
  const double flops_per_s = kReferenceDenseTflops * 1e12 *
                             device.relative_speed * device.sm_fraction *
                             params.llm_prefill_flops_efficiency * device.share;
  if (!(flops_per_s > 0)) return std::numeric_limits<double>::infinity();
  return std::max(0.0, tokens) * 2 * engine.Params() / flops_per_s * 1000;
}

double LlmDecodeStepMs(const LlmEngine& engine, const LlmDevice& device,
                       const ModelParams& params, double batch,
                       double context_tokens) {
  const double bytes_per_s = StepBandwidthGbS(device) * 1e9 *
                             params.llm_decode_bandwidth_efficiency *
                             device.share;
  if (!(bytes_per_s > 0)) return std::numeric_limits<double>::infinity();
  const double bytes =
      engine.weights_gib * kLlmStepBytesPerGib +
      std::max(0.0, batch) * std::max(0.0, context_tokens) *
          static_cast<double>(engine.KvBytesPerToken());
  return bytes / bytes_per_s * 1000;
}

}  // namespace gpushare
