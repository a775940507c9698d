// The text and HTML of `run` about its autoscaled pools (docs/output.md):
// per pool,
// its node count over the run, node-hours and cost, scale-ups and
// scale-downs, the pods that waited for a scale-up, and the scale-ups its
// autoscaler did not make, by reason with the upstream issue.

#ifndef GPUSHARE_REPORT_ELASTIC_SUMMARY_H_
#define GPUSHARE_REPORT_ELASTIC_SUMMARY_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

// "" when no pool autoscales; else a section that starts with a blank line.
std::string ElasticPoolsText(const SimulationResult& result);

// For the HTML report: per autoscaled pool, a line chart of its nodes
// (launched, and ready) over the run, under a caption with its figures;
// "" when no pool autoscales.
std::string ElasticPoolsHtml(const SimulationResult& result);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_ELASTIC_SUMMARY_H_
