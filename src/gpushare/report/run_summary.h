// The terminal summary of one simulation run: totals, then one row per node
// pool and per workload class, then the patrol alerts that fired (the first
// ten), in tables that fit 80 columns.

#ifndef GPUSHARE_REPORT_RUN_SUMMARY_H_
#define GPUSHARE_REPORT_RUN_SUMMARY_H_

#include <string>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

// `wall_s` is the run's real time (0 leaves it out, for reproducible text).
std::string RunSummary(const SimulationResult& result, double wall_s);

// "patrol alerts: none fired", or their number, the count per alert and a
// table of the first ten (fired, resolved, alert, node, GPU, what: the
// noisy pod and its share, or the pods pending).
std::string PatrolAlertsSummary(const std::vector<PatrolAlert>& alerts);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_RUN_SUMMARY_H_
