// TimeSlicingShareModel: pods on one device take turns (CUDA time-slicing,
// the NVIDIA device plugin's time-slicing replicas).
//
// Contract: contexts of different pods never run kernels at the same time;
// the domain's time is shared max-min fairly among the residents' GPU time
// demands a_i (water-filling of a capacity C). C = 1 while at most one
// resident has GPU work (duty > 0); while two or more have, every switch
// costs time and C = η = t_slice / (t_slice + t_switch)
// (params.time_slice_ms, params.context_switch_us). Resident i gets
// x_i ≤ a_i and progresses at r_i · x_i / a_i (a pod with duty 0 has a = 0
// and rate 1); its CPU phases overlap the others' GPU phases. The DCGM view:
// gpu_util = Σ x_i, sm_active = Σ x_i · d_i · f (a running context uses its
// SM demand of the domain's SM fraction f; the others' SMs idle meanwhile).
// Demands below the capacity are met in full: the switching tax only shows
// under contention.

#ifndef GPUSHARE_EXEC_TIME_SLICING_SHARE_MODEL_H_
#define GPUSHARE_EXEC_TIME_SLICING_SHARE_MODEL_H_

#include <string_view>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

// The terms in which time-sharing schemes differ (MIG instances with
// replicas and HAMi reuse the time-slicing computation through them).
struct TimeShareTerms {
  // v: the factor on every resident's GPU-phase speed.
  double gpu_phase_factor = 1.0;
  // An upper bound on a resident's time share given how many residents have
  // GPU work, or null for none. The bound may exceed 1 (no effect).
  double (*time_share_bound)(const Resident& resident, int with_gpu_work,
                             const ModelParams& params) = nullptr;
};

// The time-slicing computation of the contract above, with `terms`: each
// resident's demand is its a_i (with factor v), limited by its bound.
void ComputeTimeSharedRates(const Domain& domain,
                            const std::vector<Resident>& residents,
                            const ModelParams& params,
                            const TimeShareTerms& terms, DomainRates* out);

class TimeSlicingShareModel : public ShareModel {
 public:
  std::string_view Name() const override { return "time-slicing"; }
  void ComputeRates(const Domain& domain,
                    const std::vector<Resident>& residents,
                    const ModelParams& params, DomainRates* out) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_TIME_SLICING_SHARE_MODEL_H_
