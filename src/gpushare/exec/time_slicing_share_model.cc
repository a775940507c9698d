#include "gpushare/exec/time_slicing_share_model.h"

#include <algorithm>
#include <cstddef>

#include "gpushare/exec/share_math.h"

namespace gpushare {

void ComputeTimeSharedRates(const Domain& domain,
                            const std::vector<Resident>& residents,
                            const ModelParams& params,
                            const TimeShareTerms& terms, DomainRates* out) {
  const std::size_t n = residents.size();
  const int with_gpu_work = CountWithGpuWork(residents);
  const double capacity =
      with_gpu_work >= 2 ? TimeSliceEfficiency(params) : 1.0;
  const auto alone = [&](const Resident& r) {
    return RunAlone(r, domain.speed, terms.gpu_phase_factor,
                    domain.sm_fraction);
  };

  // out->rates first holds each resident's claim, then its time share x_i.
  out->rates.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double claim = alone(residents[i]).gpu_share;
    if (terms.time_share_bound != nullptr) {
      claim = std::min(
          claim, terms.time_share_bound(residents[i], with_gpu_work, params));
    }
    out->rates[i] = claim;
  }
  WaterFill(capacity, out->rates);

  const double sm_fraction = ClampUnit(domain.sm_fraction);
  out->gpu_util = 0;
  out->sm_active = 0;
  out->time_shares.assign(out->rates.begin(), out->rates.end());
  for (std::size_t i = 0; i < n; ++i) {
    const double x = out->rates[i];
    out->gpu_util += x;
    out->sm_active += x * ClampUnit(residents[i].sm_demand) * sm_fraction;
    out->rates[i] = SharedRate(alone(residents[i]), x);
  }
}

void TimeSlicingShareModel::ComputeRates(const Domain& domain,
                                         const std::vector<Resident>& residents,
                                         const ModelParams& params,
                                         DomainRates* out) const {
  ComputeTimeSharedRates(domain, residents, params, TimeShareTerms(), out);
}

}  // namespace gpushare
