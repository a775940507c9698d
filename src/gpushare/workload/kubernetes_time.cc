// RFC 3339 times of Kubernetes objects (kubernetes_time.h).

#include "gpushare/workload/kubernetes_time.h"

#include <cstdint>

#include "gpushare/io/rfc3339.h"

namespace gpushare {

bool ParseKubernetesTime(std::string_view text, double* unix_s) {
  int64_t seconds = 0;
  int64_t nanos = 0;
  if (ParseRfc3339(text, &seconds, &nanos) != Rfc3339::kOk) return false;
  *unix_s = static_cast<double>(seconds) + static_cast<double>(nanos) * 1e-9;
  return true;
}

}  // namespace gpushare
