// The derivation rules of a pod's needs from its dcgm-exporter samples
// (docs/model.md §3.2): pure functions, one rule each.
//
// Contract: the samples are those of one pod on one device while no other
// pod was labelled on it (a shared device's series are the device's sums:
// they say nothing of one pod). Each sample holds the device's activity a
// (DCGM_FI_PROF_GR_ENGINE_ACTIVE, else DCGM_FI_DEV_GPU_UTIL / 100: the share
// of the collection interval a kernel ran), SM active (DCGM_FI_PROF_SM_
// ACTIVE, against the device's own SMs) and framebuffer used (MiB); < 0
// where the sample lacks the field.
//
//   mean activity  ā = mean of a over the samples with a
//   SM demand      d = Σ SM active / Σ a over the busy samples (a above
//                      `busy_threshold`, with SM active): the model writes
//                      SM active = a·d for a pod alone (docs/model.md §6.2)
//   footprint      the largest FB used (the model's footprint is the peak:
//                      OOM is decided on it)
//   duty           u = ā·S / (1 − ā + ā·S), the inverse of the model's
//                      a = (u/S)·r, r = 1/((1 − u) + u/S), with S = s·g the
//                      speed of a GPU phase on the device (its model's
//                      relative speed s and Amdahl's g over its SMs)
//
// Deterministic; no rounding beyond the footprint's ceiling to whole MiB.

#ifndef GPUSHARE_WORKLOAD_DCGM_DERIVATION_H_
#define GPUSHARE_WORKLOAD_DCGM_DERIVATION_H_

#include <cstdint>
#include <vector>

namespace gpushare {

// Activity (a ratio) above which a sample counts as busy for SM demand
// (docs/model.md §3.2; scenario `metrics_busy_threshold`): a judgement,
// above the idle noise of a GPU that runs no kernel (0 to 0.01).
inline constexpr double kDefaultDcgmBusyThreshold = 0.05;

struct DcgmPodSample {
  double activity = -1;     // a in [0, 1]; < 0 absent
  double sm_active = -1;    // [0, 1]; < 0 absent
  double fb_used_mib = -1;  // < 0 absent
};

struct DcgmDerivedNeeds {
  int samples = 0;             // samples with an activity
  int busy_samples = 0;        // of those, busy with SM active
  double mean_activity = 0;    // ā (0 without samples)
  double sm_demand = -1;       // d; < 0 without busy samples
  int64_t footprint_mib = -1;  // < 0 without FB used
};

DcgmDerivedNeeds DeriveDcgmNeeds(const std::vector<DcgmPodSample>& samples,
                                 double busy_threshold);

// u from the activity ā (clamped to [0, 1]) and the GPU-phase speed S > 0.
double DutyFromActivity(double mean_activity, double gpu_phase_speed);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_DCGM_DERIVATION_H_
