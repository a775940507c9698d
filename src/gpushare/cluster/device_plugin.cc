#include "gpushare/cluster/device_plugin.h"

namespace gpushare {

DeviceRequest DeviceRequest::Of(const ResourceList& requests,
                                const ResourceRegistry& registry) {
  DeviceRequest r;
  r.requests = &requests;
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId) continue;
    switch (registry.KindOf(id)) {
      case ResourceRegistry::Kind::kNvidiaGpuKind:
        r.gpu = quantity;
        break;
      case ResourceRegistry::Kind::kGpuMemKind:
        r.gpumem = quantity;
        break;
      case ResourceRegistry::Kind::kGpuMemPercentageKind:
        r.gpumem_percentage = quantity;
        break;
      case ResourceRegistry::Kind::kGpuCoresKind:
        r.gpucores = quantity;
        break;
      default:
        r.other = true;
        break;
    }
  }
  return r;
}

std::string DevicePlugin::AdmissionError(const ResourceList& /*requests*/) const {
  return "";
}

DeviceAllocation DevicePlugin::AllocateRecorded(
    const ResourceList& requests, const std::vector<std::string>& /*devices*/) {
  return Allocate(requests);
}

}  // namespace gpushare
