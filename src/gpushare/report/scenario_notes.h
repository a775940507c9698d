// What the scenario reader converted on the user's behalf, said in the
// reports of `run`, `compare` and `plan` so that no conversion is silent.
//
// Contract: ScenarioNotes() returns one "note: ..." paragraph per
// conversion, wrapped at kReportWidth, in class order ("" when there is
// none); today: a class's `gpu_ms_per_request` given as measured on a GPU
// model (`{value, on}`), with the relative speed it was multiplied by to
// reference-GPU time; then what the cluster import converted or skipped
// (Scenario::cluster_import_notes: DRA slices of kubectl nodes), and what
// the trace's reader approximated or skipped (TraceWorkload::import_notes:
// DRA claims of kubectl pods), in their order.
// Deterministic.

#ifndef GPUSHARE_REPORT_SCENARIO_NOTES_H_
#define GPUSHARE_REPORT_SCENARIO_NOTES_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string ScenarioNotes(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SCENARIO_NOTES_H_
