#include "gpushare/cluster/pool_resources.h"

#include <algorithm>
#include <memory>

#include "gpushare/cluster/dra/dra_dynamic_mig_devices.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"

namespace gpushare {

std::vector<std::string> PoolExtendedResources(const NodePoolSpec& pool,
                                               const GpuModel& model) {
  std::vector<std::string> names;
  if (pool.gpus_per_node == 0) return names;
  ResourceRegistry registry;
  std::unique_ptr<DevicePlugin> plugin;
  if (pool.devices == PoolDevices::kDra && pool.sharing.mig_enabled &&
      pool.sharing.mig.dynamic) {
    plugin = std::make_unique<DraDynamicMigDevices>(model, pool.gpus_per_node,
                                                    registry);
  } else if (pool.devices == PoolDevices::kDra) {
    plugin = std::make_unique<DraGpuDevices>(
        "node", model, pool.gpus_per_node,
        pool.sharing.Validate(model, pool.gpus_per_node), registry);
  } else if (pool.sharing.sharing == DeviceSharing::kHami) {
    plugin = std::make_unique<HamiDevicePlugin>(model, pool.gpus_per_node,
                                                pool.sharing.hami, registry);
    names.emplace_back(kHamiGpuMemPercentage);
  } else {
    plugin = std::make_unique<NvidiaDevicePlugin>(
        model, pool.gpus_per_node, pool.sharing,
        pool.sharing.Validate(model, pool.gpus_per_node), registry);
  }
  for (const auto& [id, quantity] : plugin->Capacity().items()) {
    if (id > ResourceRegistry::kMemoryId) names.push_back(registry.Name(id));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace gpushare
