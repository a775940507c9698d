#include "gpushare/exec/exclusive_share_model.h"

#include "gpushare/exec/time_slicing_share_model.h"

namespace gpushare {

void ExclusiveShareModel::ComputeRates(const Domain& domain,
                                       const std::vector<Resident>& residents,
                                       const ModelParams& params,
                                       DomainRates* out) const {
  // One resident: capacity 1, x = a, rate r — the alone run. Several: the
  // documented fallback to time-slicing.
  ComputeTimeSharedRates(domain, residents, params, TimeShareTerms(), out);
}

}  // namespace gpushare
