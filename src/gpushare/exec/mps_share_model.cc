#include "gpushare/exec/mps_share_model.h"

#include <algorithm>
#include <cstddef>

#include "gpushare/exec/share_math.h"

namespace gpushare {
namespace {

// The unscaled SM partition of a resident: its active-thread percentage of
// the domain (none set, ≤ 0: the whole domain).
double RequestedPartition(const Resident& resident, double sm_fraction) {
  if (resident.cores_percent <= 0) return sm_fraction;
  return ClampUnit(resident.cores_percent / 100.0) * sm_fraction;
}

}  // namespace

void MpsShareModel::ComputeRates(const Domain& domain,
                                 const std::vector<Resident>& residents,
                                 const ModelParams& params,
                                 DomainRates* out) const {
  const std::size_t n = residents.size();
  const double sm_fraction = ClampUnit(domain.sm_fraction);
  const int with_gpu_work = CountWithGpuWork(residents);

  double requested = 0;
  for (const Resident& r : residents) {
    if (r.duty > 0) requested += RequestedPartition(r, sm_fraction);
  }
  const double scale = requested > sm_fraction ? sm_fraction / requested : 1.0;
  const double factor = 1.0 / (1.0 + params.mps_interference_per_corunner *
                                         std::max(0, with_gpu_work - 1));

  out->rates.assign(n, 0.0);
  out->time_shares.clear();
  double all_idle = 1.0;  // Π(1 − a_i)
  double sm_busy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Resident& r = residents[i];
    const double partition = RequestedPartition(r, sm_fraction) * scale;
    const AloneRun run = RunAlone(r, domain.speed, factor, partition);
    out->rates[i] = run.rate;
    all_idle *= 1.0 - run.gpu_share;
    sm_busy += run.gpu_share * ClampUnit(r.sm_demand) * partition;
  }
  out->gpu_util = n == 0 ? 0.0 : 1.0 - all_idle;
  out->sm_active = std::min(sm_fraction, sm_busy);
}

}  // namespace gpushare
