// MpsShareModel: pods sharing a GPU through CUDA MPS (the NVIDIA device
// plugin's MPS replicas).
//
// Contract: kernels of different pods run concurrently, each pod in its own
// SM partition f_i = (cores_percent_i / 100) · sm_fraction (MPS active
// thread percentage; 100, or 0 for none set, is the whole domain). Only
// residents with GPU work (duty > 0) hold a partition; if their partitions
// sum to more than sm_fraction, all are scaled down proportionally to fit.
// Co-runners interfere through memory bandwidth and caches: every resident's
// GPU phases run slower by v = 1 / (1 + params.mps_interference_per_corunner ·
// (n_active − 1)), n_active the residents with GPU work. There is no time
// sharing: resident i runs at its alone rate r_i with v and g(f_i, d_i).
// gpu_util = 1 − Π(1 − a_i) (GPU phases of different pods taken as
// independent); sm_active = min(sm_fraction, Σ a_i · d_i · f_i).
//
// A simplification: partitions are static, so a pod does not borrow the SMs
// of a co-runner that is in a CPU phase.

#ifndef GPUSHARE_EXEC_MPS_SHARE_MODEL_H_
#define GPUSHARE_EXEC_MPS_SHARE_MODEL_H_

#include <string_view>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

class MpsShareModel : public ShareModel {
 public:
  std::string_view Name() const override { return "mps"; }
  void ComputeRates(const Domain& domain,
                    const std::vector<Resident>& residents,
                    const ModelParams& params, DomainRates* out) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_MPS_SHARE_MODEL_H_
