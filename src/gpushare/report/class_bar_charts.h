// Bar charts of tenant classes' metrics (decide/class_metrics.h): one bar
// per run (a scheme in compare, the run itself in run), coloured by its
// position in `runs`; `metrics[r][c]` is run r's metrics of class c.
//
// Contract: ClassBarCharts() returns one .charts container with, in this
// order and with these data-chart ids (prefixed by `id_prefix`):
//   "slowdown"      mean run time / alone, one group per class (classes
//                   without completed jobs draw no bar);
//   "p99-CLASS"     one small chart per tenant class with latency samples
//                   (in `classes` order), each with its own y axis: the
//                   class's mean worst-interval p99 in ms per run, the mean
//                   SLO as a mark (so a 5 ms p99 is not flattened beside a
//                   20 s one);
//   "oom"           OOM kills, one group per class;
//   "wait"          mean queue wait in seconds (classes with no started pod
//                   draw no bar);
//   "cost"          cost per served pod (classes with no served pod draw no
//                   bar).
// A chart with nothing to show (every value absent or 0 in every run, e.g.
// no OOM kills anywhere) is not drawn: a one-line note says why
// (report/chart_note.h, data-no-chart="ID"; for p99, one note with ID
// "p99" naming the classes without latency samples). Notes follow the
// charts, in the same order. Deterministic.

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
