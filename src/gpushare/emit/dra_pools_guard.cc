#include "gpushare/emit/dra_pools_guard.h"

#include <fmt/format.h>

#include "gpushare/io/input_error.h"

namespace gpushare {

void RefuseDraPools(const Scenario& scenario, std::string_view what) {
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.devices != PoolDevices::kDra) continue;
    throw InputError(fmt::format(
        "{}: node pool '{}' hands out its GPUs through DRA (devices: dra); "
        "the configuration written here is the device plugins', which would "
        "be wrong on its nodes, and DRA's DeviceClasses, "
        "ResourceClaimTemplates and driver values are not written yet "
        "(docs/model.md §11.1). Emit a scenario without DRA pools, or plan "
        "without --out",
        what, pool.name));
  }
}

}  // namespace gpushare
