// Today's replay of an imported cluster, for `run`, `compare` and `plan`:
// the fidelity check against recorded dcgm-exporter series (docs/output.md
// "Fidelity") and the check that pods Running in the dump run in the replay
// (docs/output.md "Replay of today").
//
// Contract: ImportedPodNeeds() lists the trace's pods that the metrics import
// judged, with the needs they run with. FidelityOf() compares a run with the
// recording, fills the pods and flags the pools too far off
// (fidelity_warnings.h, the trace's metrics_warn_points). ReplayToday() runs
// `scenario` as written (its own pools and schemes, its seed) once — with
// device samples when the trace has `metrics` — when its trace has pods
// Running in the dump or `metrics`, and returns both checks (`ran` false and
// nothing else otherwise).

#ifndef GPUSHARE_CLI_TODAYS_REPLAY_H_
#define GPUSHARE_CLI_TODAYS_REPLAY_H_

#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/metrics/metrics_fidelity.h"
#include "gpushare/metrics/replay_check.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare::cli {

std::vector<FidelityPod> ImportedPodNeeds(const TraceWorkload& trace);

std::unique_ptr<MetricsFidelity> FidelityOf(const SimulationResult& result,
                                            const DcgmRecording& recording,
                                            const Scenario& scenario);

struct TodaysReplay {
  bool ran = false;
  std::unique_ptr<MetricsFidelity> fidelity;  // null without `metrics`
  ReplayCheck check;
};

TodaysReplay ReplayToday(const Scenario& scenario, const Catalog& catalog);

// Both checks as one HTML fragment ("" when the replay did not run), led
// by the fidelity's plain-words summary (report/fidelity_summary.h) when
// the trace has `metrics`.
std::string TodaysHtml(const TodaysReplay& today);

}  // namespace gpushare::cli

#endif  // GPUSHARE_CLI_TODAYS_REPLAY_H_
