// The bounds of the synthetic generator's draws (docs/scenario.md) and the
// roundings it applies, shared by its validation (generator.cc) and its
// pod stream (workload_stream.cc). Not part of the generator's interface.

#ifndef GPUSHARE_WORKLOAD_GENERATOR_LIMITS_H_
#define GPUSHARE_WORKLOAD_GENERATOR_LIMITS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpushare::generator_limits {

inline constexpr double kMaxExpectedPods = 10'000'000;
// Rounded integer fields are capped here so llround never overflows.
inline constexpr double kMaxRoundedValue = 4.0e18;
// The largest values a class may ask for: a pod's GPUs are on one node (at
// most 16); the rest are far above any real pod and keep 1e308 and the like
// from passing as a request nothing can serve.
inline constexpr double kMaxPodGpus = 16;
inline constexpr double kMaxMib = 1e8;           // ~95 TiB
inline constexpr double kMaxMilli = 1e9;         // a million cores
inline constexpr double kMaxClassSeconds = 1e9;  // ~31 years, as horizon_s
inline constexpr double kMaxRequestRate = 1e6;   // requests per second
inline constexpr double kMaxMs = 1e9;

inline int64_t RoundCount(double v) {
  return std::llround(std::clamp(v, 0.0, kMaxRoundedValue));
}

inline double Clamp01(double v) { return std::clamp(v, 0.0, 1.0); }

}  // namespace gpushare::generator_limits

#endif  // GPUSHARE_WORKLOAD_GENERATOR_LIMITS_H_
