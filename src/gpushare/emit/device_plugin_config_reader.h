// Reading an NVIDIA k8s-device-plugin config file (`version: v1`) back, as
// the plugin loads it (NVIDIA/k8s-device-plugin api/config/v1: config.go,
// sharing.go, replicas.go, resources.go).
//
// Contract: ReadDevicePluginConfig() parses `text` and applies the upstream
// load rules: `version` absent or `v1`; known keys only (flags.migStrategy
// none/single/mixed, flags.plugin.sharedDevicesAllocationPolicy,
// sharing.timeSlicing / sharing.mps with renameByDefault,
// failRequestsGreaterThanOne and resources[{name, replicas, rename,
// devices}]); time-slicing and MPS not both; every resource named (the
// `nvidia.com/` prefix added when missing, at most 63 characters) with
// replicas >= 2; `devices` only `all`; MPS on full GPUs only (no
// nvidia.com/mig-* resource) with failRequestsGreaterThanOne true unless
// given. `rename` and `devices` are dropped on load as upstream does. Errors
// are InputErrors at file:line:col. Used by the emitter's round-trip tests.

#ifndef GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_READER_H_
#define GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_READER_H_

#include <string>
#include <vector>

#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

struct LoadedDevicePluginConfig {
  std::string mig_strategy = "none";
  DeviceSharing sharing = DeviceSharing::kNone;  // kTimeSlicing or kMps
  ReplicaSettings replicas;  // replicas: of the first resource
  // The shared resources with their replicas, names prefixed.
  std::vector<std::pair<std::string, int>> resources;
};

LoadedDevicePluginConfig ReadDevicePluginConfig(const std::string& text,
                                                const std::string& file);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DEVICE_PLUGIN_CONFIG_READER_H_
