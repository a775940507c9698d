// Pool scheme resolution: turns compare's per-class answers into one scheme
// per GPU pool (decide/pool_scheme_plan.h) and runs that pool plan.
//
// Contract: ResolvePoolSchemes() gives each GPU pool with routed pods
// (VariantOutcome::class_routed_pods; classes offered no GPU scheme left
// out) the compared scheme that does best for them. Candidates are the uniform variants whose run kept the pool under
// their scheme (MIG on a GPU without MIG is no candidate). A routed class is
// ok under a candidate when the selection ranks the candidate for it and it
// serves the class well (SchemeScore::serves and served_well). The
// pool gets the candidate that strands the fewest routed pods (of classes it
// serves none of, and those it cannot run of the others), then has the
// fewest routed pods in classes whose work it throws away (OOM kills or
// failed pods over their limits), then the most routed pods of ok classes, then the highest pod-weighted mean of the
// classes' totals (0 where not ranked), then compare order; when the classes agree on a winner that is it.
// Ties keep the written scheme: among the candidates that tie with it on
// the first three, another is chosen only when its pod-weighted measured
// score (PoolSchemeChoice::measured, ratings left out) beats the written
// scheme's by more than Selection::decisive_margin — ratings alone are no
// reason to change a pool; then PoolSchemeChoice::buys says what the change
// buys. A
// class's score is class-wide (its run had every pool under the scheme).
// A pool with no routed pods keeps its written scheme and is left out when
// deciding whether the plan is one scheme's run (`same_as`). The plan
// conflicts when no one scheme is the winner of every routed class of a
// pool (a class too close to call accepts its leader and its contender).
//
// AddPoolSchemePlan() resolves the plan into `selection->pool_plan`; when it
// mixes schemes it runs it on the comparison's seeds (converted from the
// scenario as compare converts it, MIG pools with the families compare
// chose), appends it to the comparison as the "pool-plan" variant and
// selects again, so every class's ClassChoice::pool_plan scores it as a
// reference (not ranked, as the scenario's own plan). Throws InputError as
// RunComparison() does.

#ifndef GPUSHARE_DECIDE_POOL_SCHEME_RESOLUTION_H_
#define GPUSHARE_DECIDE_POOL_SCHEME_RESOLUTION_H_

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/pool_scheme_plan.h"
#include "gpushare/decide/selection.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

PoolSchemePlan ResolvePoolSchemes(const Comparison& comparison,
                                  const Selection& selection);

// Runs of AddPoolSchemePlan() when the plan mixes schemes: one per seed.
int PoolSchemePlanRunCount(const PoolSchemePlan& plan,
                           const Comparison& comparison);

void AddPoolSchemePlan(const Scenario& scenario, const ComparisonSpec& spec,
                       const Catalog& catalog, int threads,
                       const RunObserverFactory& observe,
                       Comparison* comparison, Selection* selection);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_POOL_SCHEME_RESOLUTION_H_
