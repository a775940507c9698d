// Trace workloads: pods read from a file instead of (or besides) generated
// by classes — an openb pod list, `kubectl get pods -A -o json`, or a job
// list (docs/scenario.md "workload.trace").
//
// Contract: LoadTracePods() reads `spec.file` in `spec.format` with the
// format's reader (openb_replay.h, kubectl_pod_list.h, job_list.h) and
// returns its pods sorted by arrival (ties: the reader's order, which puts
// kubectl pods already running first). InputErrors of the readers pass
// through (FILE:LINE:COL and the column or JSON path). The pods are shared,
// immutable, between the scenario's copies (compare runs one per scheme).

#ifndef GPUSHARE_WORKLOAD_TRACE_WORKLOAD_H_
#define GPUSHARE_WORKLOAD_TRACE_WORKLOAD_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/dcgm_recording.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/kubectl_pod_classes.h"
#include "gpushare/workload/openb_replay.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/trace_defaults.h"

namespace gpushare {

enum class TraceFormat { kOpenb, kKubectl, kJobs };
std::string_view TraceFormatName(TraceFormat format);
bool ParseTraceFormat(std::string_view text, TraceFormat* format);

// The default of TraceSpec::metrics_warn_points: 20 percentage points of GPU
// util (0.2 of SM active, 20 % of memory) off the recording, mean over the
// recording — a judgement (docs/scenario.md): well above the edge error a
// replay carries (pods that started before the recording), well below the
// 80 points of a pool modelled busy that the cluster shows idle.
inline constexpr double kDefaultMetricsWarnPoints = 20;

struct TraceSpec {
  TraceFormat format = TraceFormat::kJobs;
  std::string file;  // resolved path
  TraceDefaults defaults;
  // openb: tenant classes by shape or qos.
  OpenbTenantClass openb_tenant_class = OpenbTenantClass::kShape;
  // openb: trace GPU model names → catalog models (for gpu_spec checks).
  GpuModelMap model_map = GpuModelMap::Default();
  // kubectl: the pods' tenant and workload classes.
  KubectlClassRules kubectl_classes;
  // kubectl: only pods with nvidia.com requests.
  bool gpu_pods_only = false;
  // kubectl: Prometheus query results of the pods' dcgm-exporter series
  // (resolved paths; empty: none) and the activity above which a sample is
  // busy (docs/model.md §3.2).
  std::vector<std::string> metrics_files;
  double metrics_busy_threshold = kDefaultDcgmBusyThreshold;
  // The fidelity check warns about a pool whose replay is further than this
  // from its recorded series (metrics/fidelity_warnings.h).
  double metrics_warn_points = kDefaultMetricsWarnPoints;
};

// The trace part of a workload: its spec and the pods read.
struct TraceWorkload {
  TraceSpec spec;
  std::shared_ptr<const std::vector<Pod>> pods;  // null: no trace
  // Pods keep their explicit (kubectl) requests; compare clears this for
  // variants whose scheme the requests were not written for.
  bool keep_explicit_requests = true;
  // What the reader approximated or skipped (kubectl: DRA claims), one
  // sentence each; the reports print them as notes.
  std::vector<std::string> import_notes;
  // The recorded dcgm-exporter series (`metrics`), whose derived needs the
  // pods carry; null without. `run` compares the simulated series with them.
  std::shared_ptr<const DcgmRecording> metrics;
  // What the import did with each pod (with `metrics`).
  std::vector<DcgmPodImport> metrics_pods;
};

// `notes` (if set) gets what the reader approximated or skipped.
std::shared_ptr<const std::vector<Pod>> LoadTracePods(
    const TraceSpec& spec, const Catalog& catalog,
    std::vector<std::string>* notes = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_TRACE_WORKLOAD_H_
