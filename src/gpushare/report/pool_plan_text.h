// The pool plan (decide/pool_scheme_plan.h) in words, for compare's text
// and HTML reports.
//
// Contract: DescribePoolPlan() returns nothing when the selection has no pool
// plan or it has no GPU pool; else a heading sentence, one line per GPU
// pool (its scheme, the classes routed to it with their pods and winners,
// whether they conflict, how many routed pods' classes the scheme serves
// well — their contract met, decide/selection.h — and its pod-weighted
// score) and a closing sentence:
// whose run the plan is, or how each class did under the mixed plan's run.
// Plain text, scheme names as users know them; deterministic.

#ifndef GPUSHARE_REPORT_POOL_PLAN_TEXT_H_
#define GPUSHARE_REPORT_POOL_PLAN_TEXT_H_

#include <string>
#include <vector>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

struct PoolPlanLines {
  std::string heading;
  std::vector<std::string> pools;
  std::string closing;
  bool empty() const { return heading.empty(); }
};

PoolPlanLines DescribePoolPlan(const Comparison& comparison,
                               const Selection& selection);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_POOL_PLAN_TEXT_H_
