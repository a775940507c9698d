// GpuDeviceFit: the device-level fit of gpushare-sim's device plugins, as a
// Filter (NVIDIA's device plugin and HAMi's extender reject what kube's
// resource counts would admit: NVIDIA/k8s-device-plugin README, MIG
// strategies and "Shared Access to GPUs"; Project-HAMi/HAMi
// pkg/device/nvidia/device.go Fit).
//
// Contract: pods that request nothing beyond cpu and memory pass. Otherwise a
// node without a device plugin fails with "node(s) had no GPU devices", and a
// node with one passes when DevicePlugin::Fits() says its free devices can
// serve the requests, else fails with the plugin's reason
// ("CardInsufficientMemory", "node(s) did not have enough free GPU devices",
// ...; literals owned by the device plugins). Reads the node's device state,
// so it is not Static(). Stateless.

#ifndef GPUSHARE_SCHED_PLUGINS_GPU_DEVICE_FIT_H_
#define GPUSHARE_SCHED_PLUGINS_GPU_DEVICE_FIT_H_

#include <string_view>
#include <vector>

#include "gpushare/cluster/node.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/sched/framework.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class GpuDeviceFit : public FilterPlugin {
 public:
  static constexpr std::string_view kName = "GpuDeviceFit";
  static constexpr std::string_view kNoDevices = "node(s) had no GPU devices";

  // `registry` must outlive the plugin.
  explicit GpuDeviceFit(const ResourceRegistry& registry)
      : registry_(registry) {}

  std::string_view Name() const override { return kName; }

  // Reads the pod's device requests once (DeviceRequest) for Filter.
  void PreFilter(const Pod& pod) override;
  bool Filter(const Pod& pod, const Node& node,
              std::vector<std::string_view>* reasons) const override;

 private:
  const ResourceRegistry& registry_;
  const Pod* prepared_pod_ = nullptr;
  DeviceRequest prepared_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_GPU_DEVICE_FIT_H_
