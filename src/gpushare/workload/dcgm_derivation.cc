#include "gpushare/workload/dcgm_derivation.h"

#include <algorithm>
#include <cmath>

namespace gpushare {

DcgmDerivedNeeds DeriveDcgmNeeds(const std::vector<DcgmPodSample>& samples,
                                 double busy_threshold) {
  DcgmDerivedNeeds out;
  double activity_sum = 0;
  double busy_activity = 0;
  double busy_sm = 0;
  double fb_max = -1;
  for (const DcgmPodSample& s : samples) {
    if (s.fb_used_mib >= 0) fb_max = std::max(fb_max, s.fb_used_mib);
    if (s.activity < 0) continue;
    const double a = std::min(1.0, s.activity);
    ++out.samples;
    activity_sum += a;
    if (a > busy_threshold && s.sm_active >= 0) {
      ++out.busy_samples;
      busy_activity += a;
      busy_sm += std::min(1.0, s.sm_active);
    }
  }
  if (out.samples > 0) out.mean_activity = activity_sum / out.samples;
  if (out.busy_samples > 0) {
    out.sm_demand = std::min(1.0, busy_sm / busy_activity);
  }
  if (fb_max >= 0) {
    out.footprint_mib = static_cast<int64_t>(std::ceil(fb_max - 1e-9));
  }
  return out;
}

double DutyFromActivity(double mean_activity, double gpu_phase_speed) {
  const double a = std::clamp(mean_activity, 0.0, 1.0);
  const double s = gpu_phase_speed;
  if (a <= 0) return 0;
  if (a >= 1 || s <= 0) return 1;
  return a * s / (1 - a + a * s);
}

}  // namespace gpushare
