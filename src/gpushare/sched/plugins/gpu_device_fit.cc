#include "gpushare/sched/plugins/gpu_device_fit.h"

#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {

void GpuDeviceFit::PreFilter(const Pod& pod) {
  prepared_ = DeviceRequest::Of(pod.requests, registry_);
  prepared_pod_ = &pod;
}

bool GpuDeviceFit::Filter(const Pod& pod, const Node& node,
                          std::vector<std::string_view>* reasons) const {
  // Items are sorted by id and cpu, memory are ids 0 and 1: the pod requests
  // an extended resource exactly when its last item is one.
  const auto& items = pod.requests.items();
  if (items.empty() || items.back().first <= ResourceRegistry::kMemoryId) {
    return true;
  }
  const DevicePlugin* devices = node.devices();
  if (devices == nullptr) {
    if (reasons != nullptr) reasons->push_back(kNoDevices);
    return false;
  }
  std::string_view reason;
  std::string_view* out = reasons != nullptr ? &reason : nullptr;
  if (prepared_pod_ == &pod ? devices->FitsRequest(prepared_, out)
                            : devices->Fits(pod.requests, out)) {
    return true;
  }
  if (reasons != nullptr) {
    reasons->push_back(reason.empty()
                           ? std::string_view("node(s) did not have enough "
                                              "free GPU devices")
                           : reason);
  }
  return false;
}

}  // namespace gpushare
