// DynamicMigVerdicts: what `plan` says about dynamic MIG against the best
// static MIG layout of a pool (docs/model.md §11.2).
//
// Contract: for each pool of `result` whose search tried "MIG (dynamic)"
// and at least one static MIG setting ("MIG (DRA) all-balanced", ...), one
// line comparing the cheapest probe of each kind that met its classes'
// constraints, on the whole workload when either kind has one there, else
// on the pilot workload (the line says which): their node counts and cost
// per hour and which is cheaper by how much (USD per hour and per cent of
// the dearer); when only one kind met them, that it alone did; when
// neither did, nothing. Pools without a dynamic candidate get no line, so
// plans of other scenarios are unchanged.

#ifndef GPUSHARE_DECIDE_DYNAMIC_MIG_VERDICT_H_
#define GPUSHARE_DECIDE_DYNAMIC_MIG_VERDICT_H_

#include <string>
#include <vector>

#include "gpushare/decide/planner.h"

namespace gpushare {

std::vector<std::string> DynamicMigVerdicts(const PlanResult& result);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_DYNAMIC_MIG_VERDICT_H_
