// The HTML report of `gpushare-sim plan --html FILE`.
//
// Contract: one self-contained page (report/html_page.h) that leads with the
// answer (the recommended plan, its cost against the cheapest single scheme
// and today's plan, whether every constraint is met, the classes left
// quota-bound), then the pools table (with what one node fewer misses, on
// the mean and per seed), the cheaper settings rejected on the seeds, each
// constraint with its margin, the plans compared, and per planned pool
// the frontier of the search: every whole-workload probe as a point of
// cost per hour against the worst SLO attainment of the pool's classes
// (their longest mean wait when none has an SLO), feasible probes in colour,
// the others grey, the chosen one ringed. Deterministic.

#ifndef GPUSHARE_REPORT_PLAN_HTML_H_
#define GPUSHARE_REPORT_PLAN_HTML_H_

#include <string>

#include "gpushare/decide/planner.h"

namespace gpushare {

// `fidelity_html` (MetricsFidelityHtml of today's replay; "" none) is a
// section after the recommended plan.
std::string PlanHtmlReport(const PlanResult& plan,
                           const std::string& fidelity_html = "");

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PLAN_HTML_H_
