// The NVIDIA k8s-device-plugin configuration of a scenario's pools, written
// by `gpushare-sim emit device-plugin --scenario FILE`.
//
// Contract: DevicePluginConfigs() gives one named config file (`version: v1`;
// NVIDIA/k8s-device-plugin api/config/v1) per pool served by NVIDIA's device
// plugin, in pool order, named after the pool: `flags.migStrategy` (none,
// single or mixed), `flags.plugin.sharedDevicesAllocationPolicy: packed` when
// the pool packs replicas (the plugin's default is distributed), and for
// time-slicing or MPS pools `sharing.timeSlicing` / `sharing.mps` with
// `renameByDefault`, `failRequestsGreaterThanOne` and one resource per
// shared device kind with its replicas (`nvidia.com/gpu`, or each
// `nvidia.com/mig-<profile>` of a time-sliced mixed-strategy MIG pool). HAMi
// pools run HAMi's device plugin instead and get none. The first config is
// `default` (migStrategy none, no sharing), what nodes without a label get.
// DevicePluginConfigMap() is the ConfigMap the GPU Operator's
// `devicePlugin.config` reads (one data key per config), preceded by
// comments with the ClusterPolicy patch, the `nvidia.com/device-plugin.config`
// label of every node and the daemonset restart the operator needs (it does
// not watch the ConfigMap). Throws InputError when a pool is named `default`
// or no pool is served by NVIDIA's plugin. Deterministic.

#ifndef GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_H_
#define GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct NamedDevicePluginConfig {
  std::string name;  // the data key and nvidia.com/device-plugin.config value
  std::string pool;  // "" for `default`
  std::string yaml;  // the config file
};

std::vector<NamedDevicePluginConfig> DevicePluginConfigs(
    const Scenario& scenario, const Catalog& catalog);

struct DevicePluginConfigMapOptions {
  std::string name = "gpushare-device-plugin-config";
  std::string namespace_name = "gpu-operator";
};

std::string DevicePluginConfigMap(
    const Scenario& scenario, const Catalog& catalog,
    const DevicePluginConfigMapOptions& options = {});

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_H_
