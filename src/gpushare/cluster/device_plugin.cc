#include "gpushare/cluster/device_plugin.h"

namespace gpushare {

DeviceRequest DeviceRequest::Of(const ResourceList& requests,
                                const ResourceRegistry& registry) {
  DeviceRequest r;
  r.requests = &requests;
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId) continue;
    const std::string& name = registry.Name(id);
    if (name == kNvidiaGpu) {
      r.gpu = quantity;
    } else if (name == kHamiGpuMem) {
      r.gpumem = quantity;
    } else if (name == kHamiGpuMemPercentage) {
      r.gpumem_percentage = quantity;
    } else if (name == kHamiGpuCores) {
      r.gpucores = quantity;
    } else {
      r.other = true;
    }
  }
  return r;
}

std::string DevicePlugin::AdmissionError(const ResourceList& /*requests*/) const {
  return "";
}

}  // namespace gpushare
