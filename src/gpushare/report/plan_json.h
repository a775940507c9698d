// The JSON form of a plan (schema: docs/output.md, "gpushare-sim/plan/v1"):
// the chosen plan with its pools and constraint checks, the reference plans,
// the cheaper settings rejected on the seeds, and the search log (every
// probe: pool, setting, nodes, pilot or whole workload, cost, feasible and
// what it missed, on the mean and per seed). Deterministic: keys sorted.

#ifndef GPUSHARE_REPORT_PLAN_JSON_H_
#define GPUSHARE_REPORT_PLAN_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "gpushare/decide/planner.h"

namespace gpushare {

nlohmann::json PlanToJson(const PlanResult& plan);
std::string PlanToJsonText(const PlanResult& plan);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PLAN_JSON_H_
