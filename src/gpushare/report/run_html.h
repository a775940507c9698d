// The HTML report of one simulation run (`gpushare-sim run --html FILE`).
//
// Contract: RunHtmlReport() is one self-contained page (report/html_page.h)
// with the run's summary numbers and pools, per pool a chart of SM active
// against GPU util, memory used and allocation, the pending pods over time
// (these charts all from 0 to the run's end), bar charts per tenant class
// (report/class_bar_charts.h) and the per-GPU timeline
// (report/gpu_timeline.h, at most kTimelineMaxGpus GPUs). A chart with
// nothing to show is replaced by a one-line note (report/chart_note.h).
// Series are downsampled, so the page stays small for large runs.
// Deterministic: no timestamps, equal results give equal bytes.

#ifndef GPUSHARE_REPORT_RUN_HTML_H_
#define GPUSHARE_REPORT_RUN_HTML_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

// `fidelity_html` (if not empty): the fidelity check against recorded
// series (report/metrics_fidelity_report.h), a section after the summary.
std::string RunHtmlReport(const SimulationResult& result,
                          const std::string& fidelity_html = "");

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_RUN_HTML_H_
