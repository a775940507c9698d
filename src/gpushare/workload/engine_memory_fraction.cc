#include "gpushare/workload/engine_memory_fraction.h"

#include <algorithm>

namespace gpushare {

int64_t TimeSlicedEngineCapHundredths(int64_t request_mib,
                                      int64_t visible_mib) {
  if (visible_mib <= 0 || request_mib <= 0) return 0;
  return std::clamp<int64_t>(request_mib * 100 / visible_mib, 1, 100);
}

double AutoGpuMemoryUtilization(bool time_sliced, double kind_default,
                                int64_t request_mib, int64_t visible_mib) {
  if (!time_sliced) return kind_default;
  const int64_t hundredths =
      TimeSlicedEngineCapHundredths(request_mib, visible_mib);
  return hundredths > 0 ? static_cast<double>(hundredths) / 100
                        : kind_default;
}

}  // namespace gpushare
