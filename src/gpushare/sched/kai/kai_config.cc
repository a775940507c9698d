#include "gpushare/sched/kai/kai_config.h"

namespace gpushare {

int GpuUnitsOf(std::string_view resource) {
  if (resource == "nvidia.com/gpu") return 1;
  constexpr std::string_view kMig = "nvidia.com/mig-";
  if (resource.substr(0, kMig.size()) != kMig) return 0;
  std::string_view rest = resource.substr(kMig.size());
  int units = 0;
  size_t i = 0;
  while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && units < 100) {
    units = units * 10 + (rest[i] - '0');
    ++i;
  }
  if (i == 0 || i >= rest.size() || rest[i] != 'g') return 0;
  return units;
}

}  // namespace gpushare
