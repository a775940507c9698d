// The HTML report of `gpushare-sim compare --html FILE`.
//
// Contract: ComparisonHtmlReport() is one self-contained page
// (report/html_page.h) that gives the answer first: an "Answer" section
// right under the title with the Recommended line per tenant class
// (ClassChoice::Recommendation(); a class no scheme is ranked for says so,
// with why) and one sentence on how sure it is (scores are means over the
// seeds; a win that does not hold on every seed by more than the decisive
// margin is too close to call, and which classes are). Then what ran (each
// run's pools, notes, the MIG layout choice), the same tables as the
// terminal report (cluster-wide and per tenant class), the class charts
// (report/class_bar_charts.h: slowdown, p99 against the SLO per class on its
// own axis, OOM kills, queue wait, cost per served pod), the selection per
// tenant class with its scores and explanation, the pending pods of every
// run over time, and per run and pool SM active against GPU util and memory
// used (VariantOutcome::pool_summaries, downsampled to 600 points). Every
// chart over time shares one x axis, 0 to the latest sample of any run, so
// runs line up by eye; a chart with nothing to show is replaced by a
// one-line note (report/chart_note.h).
// Deterministic: equal inputs, equal bytes.

#ifndef GPUSHARE_REPORT_COMPARISON_HTML_H_
#define GPUSHARE_REPORT_COMPARISON_HTML_H_

#include <string>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

// `fidelity_html` (MetricsFidelityHtml of today's replay; "" none) is a
// section after the answer.
std::string ComparisonHtmlReport(const Comparison& comparison,
                                 const Selection& selection,
                                 const std::string& fidelity_html = "");

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_HTML_H_
