// Prometheus alerting rules for the patrol alerts (noisy neighbour, MIG
// config drift, device plugin stalled) over the series of
// `run --openmetrics`, written by `gpushare-sim emit prometheus-rules`.
//
// Contract: a rules file (`groups:` YAML) that `promtool check rules`
// accepts, one group "gpushare-patrol" with three alerts; every expression
// uses only series docs/output.md lists. The thresholds (`for`, the noisy
// neighbour's share) are `rules`', the same the simulation's PatrolEvaluator
// applies. Deterministic.

#ifndef GPUSHARE_EMIT_PROMETHEUS_RULES_H_
#define GPUSHARE_EMIT_PROMETHEUS_RULES_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string PrometheusRulesYaml(const PatrolRules& rules = PatrolRules());

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_PROMETHEUS_RULES_H_
