#include "gpushare/exec/hami_share_model.h"

#include <limits>

#include "gpushare/exec/time_slicing_share_model.h"

namespace gpushare {

double HamiTimeShareBound(const Resident& resident, int with_gpu_work,
                          const ModelParams& params) {
  const double cap = resident.cores_percent / 100.0;
  const bool enforced = with_gpu_work >= 2 || params.hami_cap_when_alone;
  if (!(cap > 0 && cap < 1) || !enforced) {
    return std::numeric_limits<double>::infinity();
  }
  return cap + params.hami_core_cap_overshoot * (1.0 - cap);
}

void HamiShareModel::ComputeRates(const Domain& domain,
                                  const std::vector<Resident>& residents,
                                  const ModelParams& params,
                                  DomainRates* out) const {
  TimeShareTerms terms;
  terms.gpu_phase_factor = 1.0 - params.hami_interception_overhead;
  terms.time_share_bound = &HamiTimeShareBound;
  ComputeTimeSharedRates(domain, residents, params, terms, out);
}

}  // namespace gpushare
