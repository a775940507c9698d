// The JSON form of an autoscaled pool's results (a pool's `autoscaling`
// object in docs/output.md, "gpushare-sim/run/v1").

#ifndef GPUSHARE_METRICS_ELASTIC_JSON_H_
#define GPUSHARE_METRICS_ELASTIC_JSON_H_

#include <nlohmann/json.hpp>

#include "gpushare/sim/elastic_pool_stats.h"

namespace gpushare {

nlohmann::json ElasticPoolJson(const ElasticPoolStats& stats);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_ELASTIC_JSON_H_
