#include "gpushare/emit/device_plugin_config_reader.h"

#include <fmt/format.h>

#include "gpushare/io/yaml_input.h"

namespace gpushare {

LoadedDevicePluginConfig ReadDevicePluginConfig(const std::string& text,
                                                const std::string& file) {
  const YAML::Node root = ParseYaml(text, file);
  const YamlMap top(file, root, "device-plugin config");
  top.AllowOnly({"version", "flags", "sharing"});
  if (top.Has("version") && top.String("version") != "v1") {
    top.Fail(top.Get("version"),
             fmt::format("unknown version '{}' (expected v1)",
                         top.String("version")));
  }
  LoadedDevicePluginConfig out;
  if (top.Has("flags")) {
    const YamlMap flags = top.Map("flags", "flags");
    flags.AllowOnly({"migStrategy", "failOnInitError", "plugin"});
    if (flags.Has("migStrategy")) {
      out.mig_strategy = flags.String("migStrategy");
      if (out.mig_strategy != "none" && out.mig_strategy != "single" &&
          out.mig_strategy != "mixed") {
        flags.Fail(flags.Get("migStrategy"),
                   "migStrategy: expected none, single or mixed");
      }
    }
    if (flags.Has("plugin")) {
      const YamlMap plugin = flags.Map("plugin", "flags.plugin");
      plugin.AllowOnly({"sharedDevicesAllocationPolicy"});
      const std::string policy = plugin.String("sharedDevicesAllocationPolicy");
      if (policy != "distributed" && policy != "packed") {
        plugin.Fail(plugin.Get("sharedDevicesAllocationPolicy"),
                    "expected distributed or packed");
      }
      out.replicas.policy = policy == "packed" ? ReplicaPolicy::kPacked
                                               : ReplicaPolicy::kDistributed;
    }
  }
  if (!top.Has("sharing")) return out;
  const YamlMap sharing = top.Map("sharing", "sharing");
  sharing.AllowOnly({"timeSlicing", "mps"});
  if (sharing.Has("timeSlicing") && sharing.Has("mps")) {
    sharing.Fail(sharing.Get("mps"),
                 "time-slicing and MPS are mutually exclusive");
  }
  const bool mps = sharing.Has("mps");
  if (!mps && !sharing.Has("timeSlicing")) return out;
  const std::string key = mps ? "mps" : "timeSlicing";
  const YamlMap r = sharing.Map(key, "sharing." + key);
  r.AllowOnly({"renameByDefault", "failRequestsGreaterThanOne", "resources"});
  out.sharing = mps ? DeviceSharing::kMps : DeviceSharing::kTimeSlicing;
  if (r.Has("renameByDefault")) {
    out.replicas.rename_by_default = r.Bool("renameByDefault");
  }
  out.replicas.fail_requests_greater_than_one =
      r.Has("failRequestsGreaterThanOne") ? r.Bool("failRequestsGreaterThanOne")
                                          : mps;
  const YAML::Node list = r.Get("resources");
  if (!list.IsSequence() || list.size() == 0) {
    r.Fail(list, "no resources specified");
  }
  for (const YAML::Node& item : list) {
    const YamlMap res(file, item, "sharing." + key + ".resources[]");
    res.AllowOnly({"name", "rename", "devices", "replicas"});
    if (!res.Has("name")) res.Fail(item, "no resource name specified");
    std::string name = res.String("name");
    if (name.find('/') == std::string::npos) name = "nvidia.com/" + name;
    if (name.size() > 63) {
      res.Fail(
          res.Get("name"),
          fmt::format("resource name '{}' is longer than 63 characters", name));
    }
    if (mps && name.rfind("nvidia.com/mig-", 0) == 0) {
      res.Fail(res.Get("name"), "MPS is supported on full GPUs only");
    }
    if (!res.Has("replicas")) res.Fail(item, "no replicas specified");
    const int replicas = static_cast<int>(res.Int("replicas", 2, 1000000));
    if (res.Has("devices") && res.String("devices") != "all") {
      res.Fail(res.Get("devices"), "devices: only 'all' is supported");
    }
    out.resources.emplace_back(name, replicas);
  }
  out.replicas.replicas = out.resources.front().second;
  return out;
}

}  // namespace gpushare
