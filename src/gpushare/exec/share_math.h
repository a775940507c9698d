// Internal arithmetic shared by the share models (not part of the exec API).
//
// Contract: each formula of share_model.h is written once, here: the alone
// run of a pod (r and a), the rate it keeps with a smaller time share, the
// time-slice efficiency η, and max-min fair water-filling. Pure functions;
// inputs out of range are clamped as documented; no allocation.

#ifndef GPUSHARE_EXEC_SHARE_MATH_H_
#define GPUSHARE_EXEC_SHARE_MATH_H_

#include <span>
#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_model.h"

namespace gpushare {

// x clamped to [0, 1] (NaN stays NaN).
double ClampUnit(double x);

// How a pod runs alone on its domain (share_model.h): `rate` r in
// work-seconds per wall second and `gpu_share` a, the fraction of wall time
// its GPU phases occupy.
struct AloneRun {
  double rate = 1.0;
  double gpu_share = 0.0;
};

// The alone run of a pod with duty `duty` (clamped to [0, 1]) whose GPU
// phases run at `gpu_phase_speed` = s·v·g relative to the reference GPU.
// duty 0: r = 1, a = 0. A non-positive speed with duty > 0 is the limit of
// a vanishing speed: r = 0, a = 1.
AloneRun RunAlone(double duty, double gpu_phase_speed);

// The same, with the speed composed from its factors: s = domain.speed,
// v = `gpu_phase_factor`, g = GpuPhaseSpeed(sm_fraction, resident.sm_demand).
AloneRun RunAlone(const Resident& resident, double domain_speed,
                  double gpu_phase_factor, double sm_fraction);

// The rate of a pod that gets a fraction `time_share` (≤ a) of the domain's
// time: r · x / a; r when a = 0 (no GPU work, nothing to wait for).
double SharedRate(const AloneRun& alone, double time_share);

// Residents with GPU work (duty > 0).
int CountWithGpuWork(const std::vector<Resident>& residents);

// Time-slice efficiency η = t_slice / (t_slice + t_switch), from
// params.time_slice_ms and params.context_switch_us; in (0, 1].
double TimeSliceEfficiency(const ModelParams& params);

// Max-min fair water-filling of `capacity` (≥ 0) among claimants with upper
// limits. On entry claims[i] is claimant i's limit (negative counts as 0);
// on return it is its allocation x_i = min(limit_i, λ), where the level λ is
// the largest with Σ x_i ≤ capacity (every claim in full when the limits sum
// to at most `capacity`). So Σ x_i ≤ capacity, x_i ≤ limit_i, and no claimant
// is below another unless it got its whole limit. Returns Σ x_i. O(n²) in
// the worst case, deterministic, in place.
double WaterFill(double capacity, std::span<double> claims);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_SHARE_MATH_H_
