// The sampled series of a SimulationResult as OpenMetrics text (series,
// types, units and labels: docs/output.md), for
// `promtool tsdb create-blocks-from openmetrics` and so for Prometheus and
// Grafana.
//
// Contract: per device the DCGM series named and scaled as dcgm-exporter
// reports them (DCGM_FI_DEV_GPU_UTIL in %, DCGM_FI_PROF_SM_ACTIVE as a
// ratio, DCGM_FI_DEV_FB_USED/FREE in MiB) with its labels (gpu, UUID,
// device, modelName, GPU_I_PROFILE and GPU_I_ID for MIG instances, Hostname;
// with Kubernetes mapping: container, namespace, pod, vgpu for a replica)
// plus the simulator's `pool`; a device held by several pods gives one
// series per pod, as dcgm-exporter does. Then kube-state-metrics'
// kube_node_status_allocatable and the simulator's own gpushare_* series.
// Needs the recorded samples (Collector's record_devices). Simulated time 0
// is `start_unix_s`; timestamps are in seconds. Deterministic: the same
// result gives the same bytes.

#ifndef GPUSHARE_METRICS_OPENMETRICS_WRITER_H_
#define GPUSHARE_METRICS_OPENMETRICS_WRITER_H_

#include <cstdint>
#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

// 2024-01-01T00:00:00Z: where simulated time 0 lands unless told otherwise.
inline constexpr int64_t kDefaultOpenMetricsStartUnixS = 1704067200;

std::string ResultToOpenMetrics(const SimulationResult& result,
                                int64_t start_unix_s);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_OPENMETRICS_WRITER_H_
