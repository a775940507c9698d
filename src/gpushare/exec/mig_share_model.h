// MigShareModel: pods on MIG instances.
//
// Contract: the domain is one MIG instance, with sm_fraction f = instance SMs
// / GPU SMs (catalog `sms` of the profile and of the GPU). Instances are
// separate domains and do not interfere (no cross-slice interference
// measured, Robroek et al., arXiv 2209.06018). One resident runs as
// exclusive on a GPU of f: g = g(f, d), rate r, gpu_util = a,
// sm_active = a · d · f (relative to the whole GPU's SMs). Several
// residents (an instance time-sliced with the device plugin's replicas) are
// time-sliced within the instance exactly as TimeSlicingShareModel,
// capacity η while two or more have GPU work.

#ifndef GPUSHARE_EXEC_MIG_SHARE_MODEL_H_
#define GPUSHARE_EXEC_MIG_SHARE_MODEL_H_

#include <string_view>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

class MigShareModel : public ShareModel {
 public:
  std::string_view Name() const override { return "mig"; }
  void ComputeRates(const Domain& domain,
                    const std::vector<Resident>& residents,
                    const ModelParams& params, DomainRates* out) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_MIG_SHARE_MODEL_H_
