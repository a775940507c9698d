// Kubernetes object times (metav1.Time: `metadata.creationTimestamp`,
// `status.startTime`), as `kubectl get -o json` writes them.
//
// Contract: ParseKubernetesTime() reads an RFC 3339 time
// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` (Kubernetes writes
// whole seconds in UTC, `2024-12-06T16:00:00Z`) into Unix seconds; false for
// any other text or a date or time of day that does not exist. Pure;
// dates from year 0000 to 9999 (proleptic Gregorian).

#ifndef GPUSHARE_WORKLOAD_KUBERNETES_TIME_H_
#define GPUSHARE_WORKLOAD_KUBERNETES_TIME_H_

#include <string_view>

namespace gpushare {

bool ParseKubernetesTime(std::string_view text, double* unix_s);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBERNETES_TIME_H_
