// InferenceLatency: M/M/1 sojourn quantiles plus a time-slice turn wait
// (formulas in latency_model.h).

#include "gpushare/exec/latency_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpushare {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kP50 = 0.5;
constexpr double kP99 = 0.99;

// x when positive, else 0 (negative and NaN → 0).
double NonNegative(double x) { return x > 0 ? x : 0.0; }

// q-quantile of an exponential sojourn whose mean is `mean_ms`:
// −ln(1 − q) · mean.
double ExponentialQuantile(double q, double mean_ms) {
  if (mean_ms == 0) return 0.0;
  return -std::log1p(-q) * mean_ms;
}

}  // namespace

Latency InferenceLatency(const LatencyInputs& in) {
  const double lambda = NonNegative(in.request_rate);
  const double gpu_ms = NonNegative(in.gpu_ms_per_request);
  const double speed = NonNegative(in.gpu_speed);
  const double share = std::min(NonNegative(in.time_share), 1.0);
  const int k = std::max(in.contexts, 1);

  Latency out;
  if (gpu_ms == 0) return out;  // no GPU work: no queue, no turn wait

  // S = gpu_ms / speed (ms); a vanishing speed gives an endless service.
  const double service_ms = speed > 0 ? gpu_ms / speed : kInf;
  // W = (k − 1) · (slice + switch).
  const double turn_ms =
      k >= 2 ? static_cast<double>(k - 1) * (NonNegative(in.time_slice_ms) +
                                             NonNegative(in.context_switch_ms))
             : 0.0;

  if (lambda == 0) {
    // Idle pod: a lone request at full speed plus its turn wait.
    out.p50_ms = service_ms + kP50 * turn_ms;
    out.p99_ms = service_ms + kP99 * turn_ms;
    return out;
  }

  // Wall time the queue is busy per request: 1000 / μ = S / time_share (ms).
  const double busy_ms = share > 0 ? service_ms / share : kInf;
  // ρ = λ / μ = λ · busy / 1000 (an instant service keeps ρ = 0 for any λ).
  const double rho = busy_ms == 0 ? 0.0 : lambda * busy_ms / 1000.0;
  out.utilization = rho;
  if (!(rho < 1)) {
    out.saturated = true;
    out.p50_ms = kInf;
    out.p99_ms = kInf;
    return out;
  }

  // Sojourn ~ Exp(μ − λ): mean 1 / (μ − λ) s = busy / (1 − ρ) ms.
  const double sojourn_mean_ms = busy_ms / (1.0 - rho);
  out.p50_ms = ExponentialQuantile(kP50, sojourn_mean_ms) + kP50 * turn_ms;
  out.p99_ms = ExponentialQuantile(kP99, sojourn_mean_ms) + kP99 * turn_ms;
  return out;
}

bool MeetsSlo(const Latency& latency, double slo_p99_ms) {
  if (!(slo_p99_ms > 0)) return true;  // no objective (≤ 0 or NaN)
  if (latency.saturated) return false;
  return latency.p99_ms <= slo_p99_ms;
}

bool MeetsSlos(const Latency& latency, const LatencySlos& slos) {
  if (!MeetsSlo(latency, slos.p99_ms)) return false;
  if (!latency.llm) return true;
  const bool ttft_met = !(slos.ttft_p99_ms > 0) ||
                        (!latency.saturated &&
                         latency.ttft_p99_ms <= slos.ttft_p99_ms);
  const bool tpot_met = !(slos.tpot_p99_ms > 0) ||
                        (!latency.saturated &&
                         latency.tpot_p99_ms <= slos.tpot_p99_ms);
  return ttft_met && tpot_met;
}

}  // namespace gpushare
