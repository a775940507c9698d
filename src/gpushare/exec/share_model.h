// ShareModel: how the pods on one execution domain progress together.
//
// An execution domain is a whole GPU, or one MIG instance. A resident is a
// pod running there. Work is measured in seconds alone on a full reference
// GPU (relative_speed 1, A100). A pod alternates CPU phases and GPU phases;
// `duty` u is the fraction of its reference time spent in GPU phases, and
// `sm_demand` d the parallel fraction of a GPU phase (the share of its time
// that scales with SMs). The model, used by every scheme (docs/model.md §6):
//
//   GPU-phase speed with a fraction f of the GPU's SMs (Amdahl):
//       g(f, d) = 1 / ((1 − d) + d / f)          g(1, d) = 1
//   with the domain's speed s (GPU relative_speed) and extra factor v:
//       rate alone     r = 1 / ((1 − u) + u / (s·v·g))
//       GPU time share a = (u / (s·v·g)) · r     (fraction of wall time)
//   a pod given a fraction x ≤ a of the domain's time progresses at
//       rate = r · x / a                          (its CPU phases overlap
//                                                  the others' GPU phases)
//
// Contract: ComputeRates() fills one rate per resident (work-seconds per
// wall second, > 0 unless u = 1 and it gets no GPU time) and the DCGM view
// of the domain: gpu_util (fraction of time any kernel runs) and sm_active
// (fraction of the domain's SM-time busy, relative to the whole GPU's SMs);
// schemes whose contexts take turns also fill `time_shares`, MPS clears it.
// Pure function of its inputs; deterministic; no allocation beyond `out`.

#ifndef GPUSHARE_EXEC_SHARE_MODEL_H_
#define GPUSHARE_EXEC_SHARE_MODEL_H_

#include <memory>
#include <string_view>
#include <vector>

#include "gpushare/cluster/sharing_config.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {

struct Resident {
  double duty = 1.0;        // u
  double sm_demand = 1.0;   // d
  int cores_percent = 100;  // HAMi gpucores / MPS active-thread %; 100: none
};

struct Domain {
  double speed = 1.0;        // s: relative_speed of the GPU model
  double sm_fraction = 1.0;  // f of the domain: instance SMs / GPU SMs
};

struct DomainRates {
  std::vector<double> rates;  // per resident, in order
  // Schemes whose contexts take turns (all but MPS): per resident, the
  // fraction x_i of the domain's wall time its context holds; empty for MPS.
  std::vector<double> time_shares;
  double gpu_util = 0;        // DCGM_FI_DEV_GPU_UTIL / 100
  double sm_active = 0;       // DCGM_FI_PROF_SM_ACTIVE
};

class ShareModel {
 public:
  virtual ~ShareModel() = default;
  virtual std::string_view Name() const = 0;
  virtual void ComputeRates(const Domain& domain,
                            const std::vector<Resident>& residents,
                            const ModelParams& params,
                            DomainRates* out) const = 0;
};

// The share model of a sharing scheme (one file each under exec/).
std::unique_ptr<ShareModel> MakeShareModel(SharingScheme scheme);

// g(f, d) above.
double GpuPhaseSpeed(double sm_fraction, double sm_demand);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_SHARE_MODEL_H_
