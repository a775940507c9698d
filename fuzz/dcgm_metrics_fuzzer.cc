// Fuzz target `dcgm_metrics`: a Prometheus query result of dcgm-exporter's
// series (workload.trace.metrics, run --compare-metrics), parsed and grouped
// per device and pod.

#include "fuzz/fuzz_target.h"
#include "gpushare/workload/dcgm_recording.h"
#include "gpushare/workload/prometheus_result.h"

GS_FUZZ_TARGET(dcgm_metrics) {
  gpushare::BuildDcgmRecording(
      {"dcgm.json"}, {gpushare::ParsePrometheusResult("dcgm.json", data)});
}
