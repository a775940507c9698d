// The terminal report of `compare`: what ran, side-by-side tables
// cluster-wide and per tenant class, then the selection with its reasons.
//
// Contract: plain text that fits 80 columns (tables of short cells; long
// sentences wrapped), deterministic for a given comparison; `wall_s` > 0
// adds the wall time to the first line (leave it 0 for reproducible text).

#ifndef GPUSHARE_REPORT_COMPARISON_REPORT_H_
#define GPUSHARE_REPORT_COMPARISON_REPORT_H_

#include <string>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

std::string ComparisonReport(const Comparison& comparison,
                             const Selection& selection, double wall_s);

// The report's first line(s): the scenario, its seeds, pods and runs (and
// the wall time when `wall_s` > 0), then a blank line.
std::string ComparisonHeading(const Comparison& comparison, double wall_s);

// The pool plan section (a blank line, the heading, one entry per GPU pool
// and the closing sentence); "" when the selection has no pool plan.
std::string PoolPlanText(const Comparison& comparison,
                         const Selection& selection);

// A scheme's or variant's name short enough for a table cell ("ts", "excl",
// "HAMi", else its display name).
std::string ShortSchemeName(const std::string& scheme);

// The terminal reports' width in columns.
inline constexpr size_t kReportWidth = 80;

// `text` wrapped at `width` columns, continuation lines indented by
// `indent` spaces.
std::string WrapText(const std::string& text, size_t width, size_t indent);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_REPORT_H_
