// Which pools of a fidelity check (metrics_fidelity.h) are modelled too far
// from their recorded series to be planned on silently.
//
// Contract: FlagFidelity() fills `fidelity->warnings` with one sentence per
// pool row (in row order) whose mean absolute error is above the limit on
// any field, marks those rows off_limits and records `warn_points` in the
// fidelity: GPU util by more than `warn_points` percentage points, SM
// active by more than warn_points / 100 (a ratio), or FB used by more than
// warn_points % of the larger of its recorded and simulated means (and at
// least 1 GiB). The sentence names the pool, each field over its limit with
// both means, and what to check. Rows without compared points say nothing.
// `warn_points` is the scenario's workload.trace.metrics_warn_points
// (docs/scenario.md, default kDefaultMetricsWarnPoints). Deterministic.

#ifndef GPUSHARE_METRICS_FIDELITY_WARNINGS_H_
#define GPUSHARE_METRICS_FIDELITY_WARNINGS_H_

#include "gpushare/metrics/metrics_fidelity.h"

namespace gpushare {

void FlagFidelity(double warn_points, MetricsFidelity* fidelity);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_FIDELITY_WARNINGS_H_
