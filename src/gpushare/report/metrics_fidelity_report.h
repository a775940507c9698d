// The fidelity check of a run against recorded dcgm-exporter series
// (metrics/metrics_fidelity.h) in the terminal, the run's JSON and its HTML
// report (docs/output.md "Fidelity").
//
// Contract: MetricsFidelityText() is a table with, per pool, one row per
// field (GPU util, SM active, FB used): recorded and simulated means, mean
// and p95 absolute error and the points compared, then the unmatched
// devices, the import's counts of pods per outcome (devices are in the
// JSON and HTML only) and the pools' warnings (fidelity_warnings.h; the
// recording's own warnings are the run's notes). MetricsFidelityJson() is
// the `metrics_fidelity` object of `run --json`, `compare --json` and `plan
// --json` (keys sorted; pools, devices, unmatched devices, pods with the
// needs they ran with, recording_warnings, warnings). MetricsFidelityHtml()
// is the same tables and both warnings as an HTML fragment. Deterministic.

#ifndef GPUSHARE_REPORT_METRICS_FIDELITY_REPORT_H_
#define GPUSHARE_REPORT_METRICS_FIDELITY_REPORT_H_

#include <string>

#include <nlohmann/json.hpp>

#include "gpushare/metrics/metrics_fidelity.h"
#include "gpushare/metrics/replay_check.h"

namespace gpushare {

std::string MetricsFidelityText(const MetricsFidelity& fidelity);
nlohmann::json MetricsFidelityJson(const MetricsFidelity& fidelity);
std::string MetricsFidelityHtml(const MetricsFidelity& fidelity);
// The replay-of-today check (metrics/replay_check.h) as an HTML fragment:
// "" when no pod was Running in the dump.
std::string ReplayCheckHtml(const ReplayCheck& check);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_METRICS_FIDELITY_REPORT_H_
