// MetricsFidelity: how far a run's simulated DCGM series are from recorded
// dcgm-exporter series of the same cluster (`run` of a scenario whose
// kubectl trace has `metrics`, or `run --compare-metrics FILE`;
// docs/output.md "Fidelity").
//
// Contract: CompareWithRecording() matches each recorded device (node, gpu,
// GPU_I_ID) to the run's device of that node, GPU index and MIG instance
// index (unmatched ones are listed, not compared). Time is aligned at the
// start: a recorded point at Unix time t is compared with the simulated
// device's last sample at or before t − (the recording's first time), for
// t within the run. Per matched device and per pool (at each time, the mean
// over the pool's matched devices of each side) and per field — GPU util
// (%; recorded GPU_UTIL, else GR_ENGINE_ACTIVE × 100), SM active (ratio),
// framebuffer used (MiB) — it gives the recorded and simulated means and
// the mean and p95 (nearest rank) of |simulated − recorded| over the
// compared points; the recording's warnings are carried along. Needs the
// run's device samples (Collector's record_devices). Deterministic: pools
// in the run's order, devices in the run's device order.

#ifndef GPUSHARE_METRICS_METRICS_FIDELITY_H_
#define GPUSHARE_METRICS_METRICS_FIDELITY_H_

#include <string>
#include <vector>

#include "gpushare/metrics/results.h"
#include "gpushare/workload/dcgm_recording.h"

namespace gpushare {

struct FidelityError {
  int points = 0;
  double recorded_mean = 0;
  double simulated_mean = 0;
  double mean_abs_error = 0;
  double p95_abs_error = 0;
};

struct FidelityRow {
  std::string pool;
  std::string node;       // "" for a pool row
  int gpu = -1;
  int mig_instance = -1;  // -1: the whole GPU
  int devices = 0;        // matched devices (1 for a device row)
  FidelityError gpu_util;     // %
  FidelityError sm_active;    // ratio
  FidelityError fb_used_mib;  // MiB
  // A pool row off its recorded series by more than the limits
  // (fidelity_warnings.h); set by FlagFidelity().
  bool off_limits = false;
};

// One pod of the import and the needs it runs with.
struct FidelityPod {
  std::string pod;      // namespace/name
  std::string outcome;  // DcgmPodOutcomeName
  double duty = 0;
  double sm_demand = 0;
  int64_t gpu_memory_mib = 0;
};

struct MetricsFidelity {
  std::vector<std::string> files;
  double start_unix_s = 0;  // the recording's first time: simulated 0
  std::vector<std::string> unmatched_devices;  // "node/gpu[/instance]"
  std::vector<FidelityRow> pools;
  std::vector<FidelityRow> devices;
  std::vector<FidelityPod> pods;  // filled by the caller (import)
  // The recording's warnings (DcgmRecording::warnings): NaN / ±Inf samples
  // skipped, SM active above the engine's, a recording before the dump.
  std::vector<std::string> recording_warnings;
  // Pools modelled too far from their series (fidelity_warnings.h); filled
  // by FlagFidelity().
  std::vector<std::string> warnings;
  // The limit those were judged on (workload.trace.metrics_warn_points;
  // -1: not judged).
  double warn_points = -1;
};

MetricsFidelity CompareWithRecording(const SimulationResult& result,
                                     const DcgmRecording& recording);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_METRICS_FIDELITY_H_
