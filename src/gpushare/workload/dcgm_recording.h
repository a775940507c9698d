// DcgmRecording: dcgm-exporter's series of a cluster, read from Prometheus
// query results (prometheus_result.h), per device and per pod
// (docs/scenario.md "metrics").
//
// Contract: BuildDcgmRecording() keeps the series named
// DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_PROF_SM_ACTIVE (ratios),
// DCGM_FI_DEV_GPU_UTIL (%) and DCGM_FI_DEV_FB_USED (MiB) and ignores the
// others; input with none of them is an InputError at the first file. A
// device is the node (label `Hostname`, or `hostname` of later releases),
// `gpu` (the index) and `GPU_I_ID` (a MIG instance; absent for a whole GPU)
// as dcgm-exporter labels them, with `modelName` and `GPU_I_PROFILE`; a kept
// series without node or gpu is an InputError at the series (FILE:LINE:COL).
// A series' pod is `namespace`/`pod` as dcgm-exporter's Kubernetes mapping
// labels it — `exported_namespace`/`exported_pod` when present (Prometheus
// renames the workload's labels so when the scrape does not honour them,
// NVIDIA/dcgm-exporter issue #340) — or none. At each time a device's value
// is the largest over its series (`max by` the device; a shared device
// repeats its value per pod), and each pod's value its own series'. Points
// of several files merge (a pod's point at the same time as an earlier
// file's replaces it; the device keeps the largest). Impossible values are
// InputErrors at the series, naming the value and its time: a negative
// value, a percentage (GPU_UTIL, MEM_COPY_UTIL, ENC_UTIL, DEC_UTIL) above
// 100, a profiling ratio (DCGM_FI_PROF_*_ACTIVE, SM_OCCUPANCY) above 1 —
// ignored fields included. What is only suspicious becomes a warning
// (`warnings`, one sentence each, counted): NaN / ±Inf samples of the kept
// series, which the parser skips, and samples whose SM_ACTIVE exceeds the
// device's GR_ENGINE_ACTIVE at the same time by more than
// kDcgmSmAboveEngineTolerance (an SM is active only while the engine is;
// the two fields are sampled apart, hence the tolerance). Checks that need
// the catalog or the cluster (the framebuffer against the device's memory,
// modelName against the node) are scenario/dcgm_recording_checks.h's.
// Devices are sorted by node, gpu and instance; times are Unix seconds.
// Deterministic.

#ifndef GPUSHARE_WORKLOAD_DCGM_RECORDING_H_
#define GPUSHARE_WORKLOAD_DCGM_RECORDING_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/workload/dcgm_derivation.h"
#include "gpushare/workload/prometheus_result.h"

namespace gpushare {

// How far SM_ACTIVE may exceed GR_ENGINE_ACTIVE at one time before it is
// counted (docs/scenario.md "Measured needs"): the two ratios are averages
// over the collection interval read a moment apart, so a kernel that starts
// or ends between the reads moves them apart by a few hundredths.
inline constexpr double kDcgmSmAboveEngineTolerance = 0.02;

// The fields of one device (or one pod's view of it) at one time; < 0
// absent. `activity` is GR_ENGINE_ACTIVE, else GPU_UTIL / 100.
struct DcgmValues {
  double gr_engine_active = -1;
  double gpu_util_percent = -1;
  double sm_active = -1;
  double fb_used_mib = -1;

  double activity() const {
    if (gr_engine_active >= 0) return gr_engine_active;
    return gpu_util_percent >= 0 ? gpu_util_percent / 100 : -1;
  }
  DcgmPodSample Sample() const {
    return DcgmPodSample{activity(), sm_active, fb_used_mib};
  }
};

struct DcgmDevice {
  std::string node;
  int gpu = 0;
  int instance = -1;        // GPU_I_ID; -1 for a whole GPU
  std::string model_name;   // modelName as labelled ("" when absent)
  std::string profile;      // GPU_I_PROFILE ("" for a whole GPU)
  std::string file;         // where its first series is
  int line = 0;
  int column = 0;
  // The largest DCGM_FI_DEV_FB_USED (< 0 without), when it was recorded
  // and where its series is; fb_min_mib the smallest.
  double fb_max_mib = -1;
  double fb_min_mib = -1;
  double fb_max_time_s = 0;
  std::string fb_max_file;
  int fb_max_line = 0;
  int fb_max_column = 0;
  std::map<double, DcgmValues> values;  // the device's, by time
  // namespace/pod → its own series' values, by time.
  std::map<std::string, std::map<double, DcgmValues>> pods;

  // The samples of `pod` at the times no other pod is labelled here.
  std::vector<DcgmPodSample> AloneSamples(const std::string& pod) const;
};

struct DcgmRecording {
  std::vector<std::string> files;
  std::vector<DcgmDevice> devices;
  int series = 0;  // DCGM series kept
  // What is suspicious in the series (NaN / ±Inf samples skipped, SM
  // active above the engine's), one sentence each; "" never.
  std::vector<std::string> warnings;
  bool empty() const { return devices.empty(); }
  // The earliest and latest time of any point (0 when empty).
  double StartUnixS() const;
  double EndUnixS() const;
};

// What the import (scenario/dcgm_metrics_import.h) did with one pod of the
// pod list that the series name or that holds a GPU.
enum class DcgmPodOutcome {
  kDerived,    // needs derived from its series
  kController,  // no series of its own: derived from its controller's
                // earlier pods' (same namespace and generateName)
  kShared,     // only on shared devices, or asked a shared resource: kept
  kNoSeries,   // a GPU pod without series: kept
};
std::string_view DcgmPodOutcomeName(DcgmPodOutcome outcome);

struct DcgmPodImport {
  std::string pod;  // namespace/name
  DcgmPodOutcome outcome = DcgmPodOutcome::kNoSeries;
};

DcgmRecording BuildDcgmRecording(
    const std::vector<std::string>& files,
    const std::vector<std::vector<PrometheusSeries>>& per_file);
// Reads every file (ReadPrometheusResult) and builds the recording.
DcgmRecording ReadDcgmRecording(const std::vector<std::string>& files);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_DCGM_RECORDING_H_
