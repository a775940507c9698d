// What to do next, at the end of `compare`'s answer: when a tenant class is
// not served well on today's nodes — no scheme serves it well, or its
// pool's scheme in the pool plan does not — the command that answers it
// (`gpushare-sim plan ...`, on the block's last line) and, when the planner was
// run for it (`compare
// --preview-plan`), its answer on one line; when a pool's classes want
// different schemes, what would resolve it (a pool of their own for the
// classes the pool's scheme does not serve, or per-GPU MIG mixes).
//
// Contract: plain text within kReportWidth columns, "" when every class is
// served well and no pool's classes want different schemes.
// `plan_command` is the command line to print ("gpushare-sim plan"), already
// quoted for a shell. `preview` (nullable) is the planner's result on the
// same scenario and seeds; its numbers are those `plan` prints (its
// Recommended plan line and pool table).

#ifndef GPUSHARE_REPORT_NEXT_STEPS_H_
#define GPUSHARE_REPORT_NEXT_STEPS_H_

#include <string>
#include <vector>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/planner.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

// The tenant classes the answer does not serve well on today's nodes, in
// class order: no scheme serves them well, or the pool plan's scheme of
// their pool does not.
std::vector<std::string> ClassesNotServedWell(const Selection& selection);

// "plan: -2 nodes (136 GPUs), $726.40/h (today $787.20/h), every class
// served" — the planner's answer on one line.
std::string PlanPreviewLine(const PlanResult& plan);

std::string NextSteps(const Comparison& comparison, const Selection& selection,
                      const std::string& plan_command,
                      const PlanResult* preview);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_NEXT_STEPS_H_
