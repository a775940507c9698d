// The JSON form of a comparison and its selection (schema: docs/output.md,
// "gpushare-sim/compare/v1"). Deterministic: keys sorted, numbers printed
// in their shortest round-trip form.

#ifndef GPUSHARE_REPORT_COMPARISON_JSON_H_
#define GPUSHARE_REPORT_COMPARISON_JSON_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

// One tenant class's (or the cluster's) metrics, as a variant's `classes`
// entries (docs/output.md: the engine figures only on a class running an
// LLM engine).
nlohmann::json ClassMetricsToJson(const ClassMetrics& metrics);

// One variant's entry of the "variants" list, its classes keyed by
// `tenant_classes` (the comparison's, in order).
nlohmann::json VariantOutcomeToJson(
    const VariantOutcome& variant,
    const std::vector<std::string>& tenant_classes);

// The pool plan (docs/output.md, compare's `pool_plan`).
nlohmann::json PoolSchemePlanJson(const PoolSchemePlan& plan);

nlohmann::json ComparisonToJson(const Comparison& comparison,
                                const Selection& selection);
std::string ComparisonToJsonText(const Comparison& comparison,
                                 const Selection& selection);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_JSON_H_
