// The JSON form of a SimulationResult (schema: docs/output.md,
// "gpushare-sim/run/v1"). Deterministic: keys sorted, numbers printed in
// their shortest round-trip form.

#ifndef GPUSHARE_METRICS_JSON_WRITER_H_
#define GPUSHARE_METRICS_JSON_WRITER_H_

#include <string>

#include <nlohmann/json.hpp>

#include "gpushare/metrics/results.h"

namespace gpushare {

nlohmann::json ResultToJson(const SimulationResult& result);
std::string ResultToJsonText(const SimulationResult& result);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_JSON_WRITER_H_
