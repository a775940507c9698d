// HamiShareModel: pods sharing a GPU through HAMi's software vGPU
// (HAMi-core's CUDA API interception).
//
// Contract: kernels of different pods take turns as under time-slicing
// (TimeSlicingShareModel: max-min fair water-filling, capacity η while two
// or more residents have GPU work), with two differences. Every resident's
// GPU phases run slower by v = 1 − params.hami_interception_overhead. A pod
// with a core cap c = cores_percent / 100, 0 < c < 1, gets at most
// b = c + params.hami_core_cap_overshoot · (1 − c) of the domain's time (the
// token bucket overshoots into the headroom, midokura/HAMi-core
// test/ablation/README.md), while another resident has GPU work or always
// if params.hami_cap_when_alone (gpuCorePolicy `force`); otherwise it is
// not bound. cores_percent 0 (no gpucores request) or ≥ 100 sets no cap.
// Its claim in the water-filling is min(a_i, b_i); time a capped pod
// leaves goes to the others or idles.
// gpu_util and sm_active as time-slicing.

#ifndef GPUSHARE_EXEC_HAMI_SHARE_MODEL_H_
#define GPUSHARE_EXEC_HAMI_SHARE_MODEL_H_

#include <string_view>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

class HamiShareModel : public ShareModel {
 public:
  std::string_view Name() const override { return "hami"; }
  void ComputeRates(const Domain& domain,
                    const std::vector<Resident>& residents,
                    const ModelParams& params, DomainRates* out) const override;
};

// b above, or +infinity when the resident is not bound. Exposed for tests.
double HamiTimeShareBound(const Resident& resident, int with_gpu_work,
                          const ModelParams& params);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_HAMI_SHARE_MODEL_H_
