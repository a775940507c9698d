#include "gpushare/emit/device_plugin_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/pool_node_set.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// The shared device kinds of a replicated pool: nvidia.com/gpu, or each MIG
// profile of its layouts under the mixed strategy (in profile order).
std::vector<std::string> SharedResources(const NodePoolSpec& pool,
                                         const GpuModel& model) {
  if (!pool.sharing.mig_enabled ||
      pool.sharing.mig.strategy == MigStrategy::kSingle) {
    return {"nvidia.com/gpu"};
  }
  std::set<int> used;
  for (const MigLayout& layout :
       pool.sharing.Validate(model, pool.gpus_per_node)) {
    for (const MigInstance& i : layout) used.insert(i.profile);
  }
  std::vector<std::string> out;
  for (int p : used) out.push_back(model.mig->profiles[p].ResourceName());
  return out;
}

std::string DevicePluginConfigOf(const NodePoolSpec& pool,
                                 const GpuModel& model) {
  const SharingConfig& s = pool.sharing;
  std::string out =
      fmt::format("version: v1\nflags:\n  migStrategy: {}\n",
                  !s.mig_enabled                          ? "none"
                  : s.mig.strategy == MigStrategy::kMixed ? "mixed"
                                                          : "single");
  const bool replicated = s.sharing == DeviceSharing::kTimeSlicing ||
                          s.sharing == DeviceSharing::kMps;
  if (!replicated) return out;
  if (s.replicas.policy == ReplicaPolicy::kPacked) {
    out += "  plugin:\n    sharedDevicesAllocationPolicy: packed\n";
  }
  out += fmt::format(
      "sharing:\n  {}:\n    renameByDefault: {}\n"
      "    failRequestsGreaterThanOne: {}\n    resources:\n",
      s.sharing == DeviceSharing::kMps ? "mps" : "timeSlicing",
      s.replicas.rename_by_default, s.replicas.fail_requests_greater_than_one);
  for (const std::string& name : SharedResources(pool, model)) {
    out += fmt::format("      - name: {}\n        replicas: {}\n",
                       YamlScalar(name), s.replicas.replicas);
  }
  return out;
}

}  // namespace

std::vector<NamedDevicePluginConfig> DevicePluginConfigs(
    const Scenario& scenario, const Catalog& catalog) {
  std::vector<NamedDevicePluginConfig> out = {
      {"default", "", "version: v1\nflags:\n  migStrategy: none\n"}};
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node == 0 ||
        pool.sharing.sharing == DeviceSharing::kHami ||
        pool.devices == PoolDevices::kDra) {
      continue;
    }
    if (pool.name == "default") {
      throw InputError(
          "node pool 'default': the device-plugin config 'default' is the "
          "one unlabelled nodes get; rename the pool");
    }
    try {
      out.push_back({pool.name, pool.name,
                     DevicePluginConfigOf(pool, catalog.Get(pool.gpu_model))});
    } catch (const InputError& e) {
      throw InputError(fmt::format("node pool '{}': {}", pool.name, e.what()));
    }
  }
  if (out.size() == 1) {
    const bool dra = std::any_of(
        scenario.pools.begin(), scenario.pools.end(),
        [](const NodePoolSpec& p) { return p.devices == PoolDevices::kDra; });
    throw InputError(fmt::format(
        "scenario '{}' has no pool served by NVIDIA's device plugin (every "
        "GPU pool runs {}): there is no device-plugin config to write",
        scenario.name, dra ? "HAMi or hands out its GPUs through DRA" : "HAMi"));
  }
  return out;
}

std::string DevicePluginConfigMap(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const DevicePluginConfigMapOptions& options) {
  const std::vector<NamedDevicePluginConfig> configs =
      DevicePluginConfigs(scenario, catalog);
  std::string out = fmt::format(
      "# NVIDIA device-plugin configs of scenario '{}', one per node pool "
      "(config v1;\n# written by gpushare-sim emit device-plugin).\n#\n"
      "# 1. Create the ConfigMap:\n#      kubectl apply -f THIS_FILE\n"
      "# 2. Point the GPU Operator's device plugin at it (Helm values, which "
      "a later\n#    helm upgrade keeps; emit k8s writes them as "
      "gpu-operator-values.yaml):\n"
      "#      helm upgrade {} --reuse-values \\\n"
      "#        --set devicePlugin.config.name={} "
      "--set devicePlugin.config.default=default\n"
      "# 3. Select each pool's config on its nodes:\n",
      CommentText(scenario.name),
      CommentText(HelmReleaseArguments(
          GpuOperatorRelease(scenario.platform, options.namespace_name))),
      CommentText(ShellWord(options.name)));
  for (const NamedDevicePluginConfig& c : configs) {
    if (c.pool.empty()) continue;  // `default`: unlabelled nodes
    for (const NodePoolSpec& pool : scenario.pools) {
      if (pool.name != c.pool) continue;
      out += LabelCommandComments(PoolNodeSetOf(pool),
                                  "nvidia.com/device-plugin.config=" + c.pool);
    }
  }
  std::string dra;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.devices != PoolDevices::kDra || pool.gpus_per_node == 0) continue;
    dra += (dra.empty() ? "" : ", ") + pool.name;
  }
  if (!dra.empty()) {
    out += fmt::format(
        "#    Not here: {} (devices: dra), whose GPUs NVIDIA's DRA driver "
        "hands out;\n#    emit k8s writes the driver's values and DRA "
        "objects for them.\n",
        CommentText(dra));
  }
  out += fmt::format(
      "# 4. The operator does not watch this ConfigMap: after changing it,\n"
      "#      kubectl rollout restart -n {} "
      "daemonset/nvidia-device-plugin-daemonset\n"
      "#    (running pods keep running; new requests see the new config).\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\n"
      "  namespace: {}\ndata:\n",
      CommentText(ShellWord(options.namespace_name)), YamlScalar(options.name),
      YamlScalar(options.namespace_name));
  for (const NamedDevicePluginConfig& c : configs) {
    out += fmt::format("  {}: |\n{}", YamlScalar(c.name),
                       IndentLines(c.yaml, "    "));
  }
  return out;
}

}  // namespace gpushare
