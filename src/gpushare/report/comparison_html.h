// The HTML report of `gpushare-sim compare --html FILE`.
//
// Contract: ComparisonHtmlReport() is one self-contained page
// (report/html_page.h) with what ran (each run's pools, notes, the MIG
// layout choice), the same tables as the terminal report (cluster-wide and
// per tenant class), the selection per tenant class with its scores and
// explanation, bar charts per tenant class and scheme (slowdown, p99 against
// the SLO, OOM kills, queue wait, cost per served pod), the pending pods of
// every run over time, and per run and pool SM active against GPU util and
// memory used (VariantOutcome::pool_summaries, downsampled to 600 points).
// Every chart over time shares one x axis, 0 to the latest sample of any
// run, so runs line up by eye; a chart over time with nothing to show is
// replaced by a one-line note (report/chart_note.h).
// Deterministic: equal inputs, equal bytes.

#ifndef GPUSHARE_REPORT_COMPARISON_HTML_H_
#define GPUSHARE_REPORT_COMPARISON_HTML_H_

#include <string>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

std::string ComparisonHtmlReport(const Comparison& comparison,
                                 const Selection& selection);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_HTML_H_
