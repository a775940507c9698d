// The JSON form of a comparison and its selection (schema: docs/output.md,
// "gpushare-sim/compare/v1"). Deterministic: keys sorted, numbers printed
// in their shortest round-trip form.

#ifndef GPUSHARE_REPORT_COMPARISON_JSON_H_
#define GPUSHARE_REPORT_COMPARISON_JSON_H_

#include <string>

#include <nlohmann/json.hpp>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/selection.h"

namespace gpushare {

nlohmann::json ComparisonToJson(const Comparison& comparison,
                                const Selection& selection);
std::string ComparisonToJsonText(const Comparison& comparison,
                                 const Selection& selection);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_COMPARISON_JSON_H_
