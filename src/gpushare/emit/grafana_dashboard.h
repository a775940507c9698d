// A Grafana dashboard for the series of `run --openmetrics` (docs/output.md),
// written by `gpushare-sim emit grafana-dashboard`.
//
// Contract: a dashboard JSON that Grafana's "Import dashboard" accepts: a
// fixed uid ("gpushare-sim"), a schemaVersion, and the Prometheus data
// source as the import input ${DS_PROMETHEUS}. Template variables pool,
// Hostname and gpu (each from the exported series, multi-value, with All).
// Panels: cluster-wide queue length, SLO attainment, pod wait and
// throughput; a row per pool (SM active against GPU util, framebuffer used,
// allocation); panels per GPU (SM active against DCGM_FI_DEV_GPU_UTIL,
// framebuffer used, pods); the patrol series (advertised GPUs per node, MIG
// config drift, GPU time share per pod). Every query uses only series the
// writer exports. The text is deterministic (sorted keys, two-space indent,
// trailing newline).

#ifndef GPUSHARE_EMIT_GRAFANA_DASHBOARD_H_
#define GPUSHARE_EMIT_GRAFANA_DASHBOARD_H_

#include <string>

namespace gpushare {

std::string GrafanaDashboardJson();

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_GRAFANA_DASHBOARD_H_
