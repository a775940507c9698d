// The fidelity check of today's replay against the recorded dcgm-exporter
// series of an imported cluster, for `run`, `compare` and `plan`
// (docs/output.md "Fidelity").
//
// Contract: ImportedPodNeeds() lists the trace's pods that the metrics import
// judged, with the needs they run with. TodaysFidelity() runs `scenario` as
// written (its own pools and schemes, its seed) once with device samples,
// compares it with the trace's recording (metrics_fidelity.h), fills the
// pods and flags the pools too far off (fidelity_warnings.h, the trace's
// metrics_warn_points); null when the trace has no `metrics`. FidelityOf()
// does the same for a run already made.

#ifndef GPUSHARE_CLI_RECORDED_FIDELITY_H_
#define GPUSHARE_CLI_RECORDED_FIDELITY_H_

#include <memory>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/metrics/metrics_fidelity.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare::cli {

std::vector<FidelityPod> ImportedPodNeeds(const TraceWorkload& trace);

std::unique_ptr<MetricsFidelity> FidelityOf(const SimulationResult& result,
                                            const DcgmRecording& recording,
                                            const Scenario& scenario);

std::unique_ptr<MetricsFidelity> TodaysFidelity(const Scenario& scenario,
                                                const Catalog& catalog);

}  // namespace gpushare::cli

#endif  // GPUSHARE_CLI_RECORDED_FIDELITY_H_
