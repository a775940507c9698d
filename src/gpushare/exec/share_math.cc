#include "gpushare/exec/share_math.h"

#include <algorithm>
#include <cstddef>

namespace gpushare {

double ClampUnit(double x) {
  if (x < 0) return 0;
  if (x > 1) return 1;
  return x;
}

AloneRun RunAlone(double duty, double gpu_phase_speed) {
  const double u = ClampUnit(duty);
  AloneRun run;
  if (u <= 0) return run;  // r = 1, a = 0
  if (!(gpu_phase_speed > 0)) {
    run.rate = 0;
    run.gpu_share = 1;
    return run;
  }
  // Wall time per work-second: (1 − u) on the CPU + u / (s·v·g) on the GPU.
  const double gpu_time = u / gpu_phase_speed;
  run.rate = 1.0 / ((1.0 - u) + gpu_time);
  run.gpu_share = gpu_time * run.rate;
  return run;
}

AloneRun RunAlone(const Resident& resident, double domain_speed,
                  double gpu_phase_factor, double sm_fraction) {
  return RunAlone(resident.duty,
                  domain_speed * gpu_phase_factor *
                      GpuPhaseSpeed(sm_fraction, resident.sm_demand));
}

double SharedRate(const AloneRun& alone, double time_share) {
  if (alone.gpu_share <= 0) return alone.rate;
  return alone.rate * std::max(0.0, time_share) / alone.gpu_share;
}

int CountWithGpuWork(const std::vector<Resident>& residents) {
  int count = 0;
  for (const Resident& r : residents) {
    if (r.duty > 0) ++count;
  }
  return count;
}

double TimeSliceEfficiency(const ModelParams& params) {
  const double slice_us = std::max(0.0, params.time_slice_ms) * 1000.0;
  const double switch_us = std::max(0.0, params.context_switch_us);
  if (slice_us + switch_us <= 0) return 1.0;
  return slice_us / (slice_us + switch_us);
}

double WaterFill(double capacity, std::span<double> claims) {
  const double cap = std::max(0.0, capacity);
  double total = 0;
  for (double& c : claims) {
    c = std::max(0.0, c);
    total += c;
  }
  if (total <= cap) return total;

  // Raise the level λ until it settles: claims at or below λ are met in
  // full, the rest share what is left equally. Each round settles at least
  // one more claimant or stops; λ never decreases, so at most n + 1 rounds.
  const std::size_t n = claims.size();
  double level = 0;
  std::size_t settled_before = n + 1;
  for (;;) {
    double settled_sum = 0;
    std::size_t settled = 0;
    for (double c : claims) {
      if (c <= level) {
        settled_sum += c;
        ++settled;
      }
    }
    if (settled == settled_before || settled == n) break;
    settled_before = settled;
    level =
        std::max(level, (cap - settled_sum) / static_cast<double>(n - settled));
  }
  double sum = 0;
  for (double& c : claims) {
    c = std::min(c, level);
    sum += c;
  }
  return sum;
}

}  // namespace gpushare
