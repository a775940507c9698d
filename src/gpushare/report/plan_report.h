// The terminal report of `gpushare-sim plan`.
//
// Contract: leads with the answer — the recommended plan's cost and GPUs,
// its savings against the cheapest single-scheme plan that meets the same
// constraints and against today's plan, then one line per pool (setting,
// nodes, cost, what the answer misses with one node fewer there, on which
// seed) and whether every constraint is met (else what it misses and by
// how much), the cheaper settings rejected on the seeds and the classes
// bound by their queue's quota — then the constraint margins per class,
// the plans compared, and how the search went. `wall_s` > 0
// adds the wall time. Deterministic otherwise.

#ifndef GPUSHARE_REPORT_PLAN_REPORT_H_
#define GPUSHARE_REPORT_PLAN_REPORT_H_

#include <string>
#include <vector>

#include "gpushare/decide/planner.h"

namespace gpushare {

std::string PlanReport(const PlanResult& plan, double wall_s);

// The cheapest reference that is a single scheme and meets every
// constraint, or null.
const PlanOutcome* BestSingleScheme(const PlanResult& plan);
// The "today" reference (the scenario as written), or null.
const PlanOutcome* TodaysPlan(const PlanResult& plan);

// One constraint's row of the constraint tables: class ("(cluster)" for a
// cluster limit), constraint, value, limit, margin, "met" or "MISSED".
std::vector<std::string> ConstraintCheckCells(const ConstraintCheck& check);

// How a report names a plan: "today's plan", "vGPU (HAMi)", "searched".
std::string PlanOutcomeLabel(const PlanOutcome& outcome);
// The same in a sentence: "today's plan", "the vGPU (HAMi) plan".
std::string PlanOutcomePhrase(const PlanOutcome& outcome);

// What each seed missed: "seed 12: a, b; seed 13: c" ("" for none).
std::string DescribeSeedMisses(const std::vector<SeedMisses>& misses);
// What the answer misses with one node fewer in `pool` ("" when not known):
// "services max_mean_wait_s 41.2 > 30 on the mean of 3 seeds (seed 12:
// ...)".
std::string BindingText(const PoolPlan& pool);
// A knife-edge pool's flag (PoolPlan::knife_edge; "" when not): "knife
// edge: at 3 nodes 7 OOM kills (12.5 GPU-hours of work lost); with 4 its
// classes lose no work, so the margin on lost work is one node".
std::string KnifeEdgeText(const PoolPlan& pool);
// "serve MIG all-3g.40gb x3 ($240.00/h): ... on the mean of 3 seeds; met
// on 1; seed 12: ..."
std::string RejectedPlanText(const RejectedPlan& rejected);
// "notebooks is quota-bound: ..."
std::string QuotaBoundText(const QuotaBoundClass& quota_bound);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PLAN_REPORT_H_
