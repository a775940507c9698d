// The terminal summary of one simulation run: totals, then one row per node
// pool and per workload class, in tables that fit 80 columns.

#ifndef GPUSHARE_REPORT_RUN_SUMMARY_H_
#define GPUSHARE_REPORT_RUN_SUMMARY_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

// `wall_s` is the run's real time (0 leaves it out, for reproducible text).
std::string RunSummary(const SimulationResult& result, double wall_s);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_RUN_SUMMARY_H_
