// Eviction warnings: the lines that say a pod was evicted more often than
// the scenario's model.eviction_warning_per_pod (docs/model.md §4.1, §6.4):
// preemption that evicts the same pod again and again is thrashing, not
// sharing.
//
// Contract: one sentence per tenant class (a run) or per scheme and tenant
// class (a comparison) with a pod evicted more than the threshold times,
// in the classes' and schemes' order; none when no pod was. Sentences are
// plain text without a "warning:" prefix (callers add it).

#ifndef GPUSHARE_REPORT_EVICTION_WARNINGS_H_
#define GPUSHARE_REPORT_EVICTION_WARNINGS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gpushare/decide/comparison.h"
#include "gpushare/metrics/results.h"

namespace gpushare {

// A run's warnings: per tenant class, how many pods were evicted more than
// the threshold and the pod evicted most.
std::vector<std::string> RunEvictionWarnings(const SimulationResult& r);

// A comparison's warnings for tenant class `k`: per scheme whose class had
// a pod evicted more than the threshold (on some seed), the most evictions
// of one pod.
std::vector<std::string> ClassEvictionWarnings(const Comparison& c, size_t k);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_EVICTION_WARNINGS_H_
