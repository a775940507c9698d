#include "gpushare/metrics/fidelity_warnings.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpushare {
namespace {

constexpr double kMinFbWarnMib = 1024;  // below a GiB, footprints are noise

}  // namespace

void FlagFidelity(double warn_points, MetricsFidelity* fidelity) {
  fidelity->warnings.clear();
  fidelity->warn_points = warn_points;
  for (FidelityRow& r : fidelity->pools) {
    std::vector<std::string> off;
    const FidelityError& util = r.gpu_util;
    if (util.points > 0 && util.mean_abs_error > warn_points) {
      off.push_back(fmt::format(
          "GPU util by {:.1f} points (simulated {:.1f}%, recorded {:.1f}%)",
          util.mean_abs_error, util.simulated_mean, util.recorded_mean));
    }
    const FidelityError& sm = r.sm_active;
    if (sm.points > 0 && sm.mean_abs_error > warn_points / 100) {
      off.push_back(fmt::format(
          "SM active by {:.3f} (simulated {:.3f}, recorded {:.3f})",
          sm.mean_abs_error, sm.simulated_mean, sm.recorded_mean));
    }
    const FidelityError& fb = r.fb_used_mib;
    const double fb_limit = std::max(
        kMinFbWarnMib, warn_points / 100 *
                           std::max(fb.recorded_mean, fb.simulated_mean));
    if (fb.points > 0 && fb.mean_abs_error > fb_limit) {
      off.push_back(fmt::format(
          "FB used by {:.0f} MiB (simulated {:.0f} MiB, recorded {:.0f} MiB)",
          fb.mean_abs_error, fb.simulated_mean, fb.recorded_mean));
    }
    r.off_limits = !off.empty();
    if (off.empty()) continue;
    fidelity->warnings.push_back(fmt::format(
        "pool {}: the replay is off its recorded series: {} (limits: {:g} "
        "points of GPU util, {:.2f} of SM active, {:g}% of FB used; "
        "workload.trace.metrics_warn_points); its answers rest on a model "
        "this far from today: check the pods' needs (duty, SM demand, "
        "footprint) before planning it",
        r.pool, fmt::join(off, "; "), warn_points, warn_points / 100,
        warn_points));
  }
}

}  // namespace gpushare
