// ExclusiveShareModel: a whole GPU given to one pod (no sharing).
//
// Contract: the lone resident runs as alone on the domain: v = 1,
// g = g(domain.sm_fraction, d), rate r (share_model.h); gpu_util = a,
// sm_active = a · d · sm_fraction. The scheduler never places two pods on an
// exclusive GPU; if given several residents anyway, they are time-sliced
// exactly as TimeSlicingShareModel does (which, for one resident, is the
// alone run above: capacity 1 and x = a).

#ifndef GPUSHARE_EXEC_EXCLUSIVE_SHARE_MODEL_H_
#define GPUSHARE_EXEC_EXCLUSIVE_SHARE_MODEL_H_

#include <string_view>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

class ExclusiveShareModel : public ShareModel {
 public:
  std::string_view Name() const override { return "exclusive"; }
  void ComputeRates(const Domain& domain,
                    const std::vector<Resident>& residents,
                    const ModelParams& params, DomainRates* out) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_EXCLUSIVE_SHARE_MODEL_H_
