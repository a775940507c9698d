// The Kueue section of the run's HTML report.
//
// Contract: "" without queues; otherwise a table per ClusterQueue (as the
// terminal's, report/queue_table.h) and one chart per ClusterQueue of its
// extended-resource quota used at each sample against its nominal quota
// (dashed), one series per flavor and resource.

#ifndef GPUSHARE_REPORT_QUEUE_HTML_H_
#define GPUSHARE_REPORT_QUEUE_HTML_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

std::string QueueHtml(const SimulationResult& r);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_QUEUE_HTML_H_
