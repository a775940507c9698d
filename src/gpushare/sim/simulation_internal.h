// Small helpers shared by the files of Simulation (simulation.h): not part
// of its interface.

#ifndef GPUSHARE_SIM_SIMULATION_INTERNAL_H_
#define GPUSHARE_SIM_SIMULATION_INTERNAL_H_

#include <algorithm>
#include <limits>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare::simulation_internal {

// Whether domains[k] is the first entry of its domain (a pod may hold two
// time-slicing replicas of one GPU).
inline bool FirstOccurrence(const std::vector<int>& domains, size_t k) {
  return std::find(domains.begin(), domains.begin() + k, domains[k]) ==
         domains.begin() + k;
}

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Wall seconds of `work_s` alone on a whole GPU of relative speed `speed`:
// the CPU phase (1 − u) is unchanged, the GPU phase u runs `speed` times as
// fast as on the reference GPU.
inline double AloneSeconds(const PodNeeds& needs, double speed) {
  const double u = std::clamp(needs.duty, 0.0, 1.0);
  return needs.work_s * ((1 - u) + u / speed);
}

// An inference pod's GPU duty follows from its load: λ requests per second
// of gpu_ms_per_request each on the reference GPU (capped at 1); other pods
// keep their own.
inline double InferenceDuty(const PodNeeds& needs) {
  if (needs.request_rate > 0 && needs.gpu_ms_per_request > 0) {
    return std::min(1.0, needs.request_rate * needs.gpu_ms_per_request / 1000);
  }
  return std::clamp(needs.duty, 0.0, 1.0);
}

}  // namespace gpushare::simulation_internal

#endif  // GPUSHARE_SIM_SIMULATION_INTERNAL_H_
