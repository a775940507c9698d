// The compact terminal answer of `compare` (its default output): the
// recommendation per tenant class, the pool plan, then one table of every
// class's score under every scheme and one of each class under the pool
// plan; the detail (every run's pools, the cluster-wide and per-scheme
// tables, the dimension scores and why each class's scheme won) is
// ComparisonReport()'s, which `compare --details` prints.
//
// Contract: plain text within kReportWidth columns, deterministic for a
// given comparison; `wall_s` > 0 adds the wall time to the first line. For
// the built-in default scenario it fits one screen (about 50 lines). Every
// class's caveats are kept; warnings of the detail (evictions, quota-bound
// classes) are counted in its last line.

#ifndef GPUSHARE_REPORT_COMPARISON_ANSWER_H_
#define GPUSHARE_REPORT_COMPARISON_ANSWER_H_

#include <string>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

std::string ComparisonAnswer(const Comparison& comparison,
                             const Selection& selection, double wall_s);

// The last line of the compact answer: where the detail is, and how many
// warnings it holds.
std::string DetailsPointer(const Comparison& comparison);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_ANSWER_H_
