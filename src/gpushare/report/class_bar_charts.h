// Bar charts of tenant classes' metrics (decide/class_metrics.h), one
// chart per metric, one group per tenant class and one bar per run (a
// scheme in compare, the run itself in run).
//
// Contract: ClassBarCharts() returns the charts, in this order and with
// these data-chart ids (prefixed by `id_prefix`): "slowdown" (mean run time
// / alone; classes without completed jobs draw no bar), "p99" (mean
// worst-interval p99 in ms, with the mean SLO as a mark), "oom" (OOM kills),
// "wait" (mean queue wait in seconds), "cost" (cost per served pod). Series
// are the `runs` names (colour = position); `metrics[r][c]` is run r's
// metrics of class c.

#ifndef GPUSHARE_REPORT_CLASS_BAR_CHARTS_H_
#define GPUSHARE_REPORT_CLASS_BAR_CHARTS_H_

#include <string>
#include <vector>

#include "gpushare/decide/class_metrics.h"

namespace gpushare {

std::string ClassBarCharts(
    const std::string& id_prefix, const std::vector<std::string>& classes,
    const std::vector<std::string>& runs,
    const std::vector<std::vector<ClassMetrics>>& metrics);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_CLASS_BAR_CHARTS_H_
