#include "gpushare/exec/mig_share_model.h"

#include "gpushare/exec/time_slicing_share_model.h"

namespace gpushare {

void MigShareModel::ComputeRates(const Domain& domain,
                                 const std::vector<Resident>& residents,
                                 const ModelParams& params,
                                 DomainRates* out) const {
  // The instance's SM fraction enters through g(f, d); with one resident the
  // time-slicing computation is the alone run (capacity 1, x = a).
  ComputeTimeSharedRates(domain, residents, params, TimeShareTerms(), out);
}

}  // namespace gpushare
