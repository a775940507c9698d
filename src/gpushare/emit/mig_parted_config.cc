#include "gpushare/emit/mig_parted_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "gpushare/catalog/mig_layout.h"
#include "gpushare/emit/pool_node_names.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// One pool's config: its name and its entries' text (under the name).
struct PoolConfig {
  std::string pool;
  std::string name;
  std::string entries;
  bool mixed = false;
};

// `mig-devices` of one GPU: larger profiles (more compute slices, then more
// memory) first, counts > 0 only; "{}" when the GPU has no instance.
std::string MigDevices(const GpuModel& model, const std::vector<int>& counts,
                       const std::string& indent) {
  const std::vector<MigProfile>& profiles = model.mig->profiles;
  std::vector<int> order(profiles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (profiles[a].compute_slices != profiles[b].compute_slices) {
      return profiles[a].compute_slices > profiles[b].compute_slices;
    }
    return profiles[a].memory_mib > profiles[b].memory_mib;
  });
  std::string out;
  for (int p : order) {
    if (counts[p] == 0) continue;
    out += fmt::format("{}{}: {}\n", indent, YamlQuoted(profiles[p].name),
                       counts[p]);
  }
  return out.empty() ? " {}\n" : "\n" + out;
}

std::string Entry(const GpuModel& model, const std::string& devices,
                  const std::vector<int>& counts) {
  return fmt::format(
      "  - devices: {}\n    mig-enabled: true\n"
      "    mig-devices:{}",
      devices, MigDevices(model, counts, "      "));
}

PoolConfig MigPartedConfigOf(const NodePoolSpec& pool, const GpuModel& model) {
  const std::vector<MigLayout> layouts =
      pool.sharing.Validate(model, pool.gpus_per_node);
  PoolConfig c;
  c.pool = pool.name;
  c.mixed = pool.sharing.mig.strategy == MigStrategy::kMixed;
  std::vector<std::vector<int>> counts;
  for (const MigLayout& layout : layouts) {
    counts.push_back(MigProfileCounts(model, layout));
  }
  const bool uniform =
      std::all_of(counts.begin(), counts.end(),
                  [&](const std::vector<int>& c2) { return c2 == counts[0]; });
  if (!pool.sharing.mig.config_name.empty() && uniform) {
    c.name = pool.sharing.mig.config_name;
    c.entries = Entry(model, "all", counts[0]);
    return c;
  }
  c.name = pool.name + "-custom";
  if (uniform) {
    c.entries = Entry(model, "all", counts[0]);
    return c;
  }
  // GPUs with the same counts share an entry, in order of their first GPU.
  std::vector<bool> done(counts.size(), false);
  for (size_t i = 0; i < counts.size(); ++i) {
    if (done[i]) continue;
    std::string devices;
    for (size_t j = i; j < counts.size(); ++j) {
      if (done[j] || counts[j] != counts[i]) continue;
      done[j] = true;
      devices += fmt::format("{}{}", devices.empty() ? "" : ", ", j);
    }
    c.entries += Entry(model, "[" + devices + "]", counts[i]);
  }
  return c;
}

// Every MIG pool's config, names made unique (see the header).
std::vector<PoolConfig> PoolConfigsOf(const Scenario& scenario,
                                      const Catalog& catalog) {
  std::vector<PoolConfig> configs;
  std::map<std::string, std::string> entries_of;  // name → entries
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node == 0 || !pool.sharing.mig_enabled) continue;
    PoolConfig c;
    try {
      c = MigPartedConfigOf(pool, catalog.Get(pool.gpu_model));
    } catch (const InputError& e) {
      throw InputError(fmt::format("node pool '{}': {}", pool.name, e.what()));
    }
    auto it = entries_of.find(c.name);
    if (it != entries_of.end() && it->second != c.entries) {
      c.name = pool.name + "-" + c.name;
    }
    entries_of[c.name] = c.entries;
    configs.push_back(c);
  }
  if (configs.empty()) {
    throw InputError(fmt::format(
        "scenario '{}' has no MIG pool (a pool with sharing scheme mig, or a "
        "mig_config / mig_layouts): there is no mig-parted config to write",
        scenario.name));
  }
  return configs;
}

}  // namespace

std::vector<PoolMigConfig> PoolMigConfigs(const Scenario& scenario,
                                          const Catalog& catalog) {
  std::vector<PoolMigConfig> out;
  for (const PoolConfig& c : PoolConfigsOf(scenario, catalog)) {
    out.push_back({c.pool, c.name, c.mixed});
  }
  return out;
}

std::string MigPartedConfigYaml(const Scenario& scenario,
                                const Catalog& catalog) {
  std::string out =
      "version: v1\nmig-configs:\n  all-disabled:\n"
      "    - devices: all\n      mig-enabled: false\n";
  std::map<std::string, bool> written;
  for (const PoolConfig& c : PoolConfigsOf(scenario, catalog)) {
    if (written[c.name]) continue;
    written[c.name] = true;
    out += fmt::format("  {}:\n{}", YamlScalar(c.name),
                       IndentLines(c.entries, "  "));
  }
  return out;
}

std::string MigPartedConfigMap(const Scenario& scenario, const Catalog& catalog,
                               const MigPartedConfigMapOptions& options) {
  const std::vector<PoolConfig> configs = PoolConfigsOf(scenario, catalog);
  const bool mixed = std::any_of(configs.begin(), configs.end(),
                                 [](const PoolConfig& c) { return c.mixed; });
  const bool single = std::any_of(configs.begin(), configs.end(),
                                  [](const PoolConfig& c) { return !c.mixed; });
  const bool mps = std::any_of(
      scenario.pools.begin(), scenario.pools.end(), [](const NodePoolSpec& p) {
        return p.sharing.sharing == DeviceSharing::kMps;
      });
  // The operator sets MIG_STRATEGY on every node's device plugin from
  // spec.mig.strategy, and the plugin takes it over its config file's
  // flags.migStrategy (docs/emit.md). One cluster-wide strategy works only
  // when every MIG pool uses it and, if it is mixed, no pool runs MPS (the
  // plugin refuses MPS under mixed); otherwise the strategy is left empty
  // and each node's config decides.
  const bool per_node = (mixed && single) || (mixed && mps);
  const std::string strategy = per_node ? "null"
                               : mixed  ? "\"mixed\""
                                        : "\"single\"";
  const auto nodes = PoolNodeNames(scenario, catalog);
  std::string out = fmt::format(
      "# MIG layouts of scenario '{}' for NVIDIA's MIG manager (mig-parted "
      "config v1;\n# written by gpushare-sim emit mig-parted).\n"
      "#\n# 1. Create the ConfigMap:\n#      kubectl apply -f THIS_FILE\n"
      "# 2. Point the GPU Operator's MIG manager at it and set the MIG "
      "strategy:\n"
      "#      kubectl patch clusterpolicies.nvidia.com/cluster-policy "
      "--type=merge \\\n"
      "#        -p '{{\"spec\":{{\"migManager\":{{\"config\":{{\"name\":"
      "{}}}}},\"mig\":{{\"strategy\":{}}}}}}}'\n",
      CommentText(scenario.name), CommentText(JsonString(options.name)),
      strategy);
  if (per_node) {
    out += fmt::format(
        "#    (null removes the strategy, as Helm's --set mig.strategy=\"\" "
        "does:\n#    {}, and a non-empty one would\n#    override every node's "
        "flags.migStrategy in device-plugin-config.yaml;\n#    each node's "
        "config decides)\n",
        mixed && single ? "the pools differ in MIG strategy"
                        : "MPS pools cannot run under the mixed strategy");
  }
  out +=
      "# 3. Select each pool's layout on its nodes (the MIG manager applies "
      "it and sets\n#    nvidia.com/mig.config.state to success):\n";
  for (const PoolConfig& c : configs) {
    out += LabelCommandComments(nodes.at(c.pool),
                                "nvidia.com/mig.config=" + c.name);
  }
  out += fmt::format(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\n"
      "  namespace: {}\ndata:\n  config.yaml: |\n{}",
      YamlScalar(options.name), YamlScalar(options.namespace_name),
      IndentLines(MigPartedConfigYaml(scenario, catalog), "    "));
  return out;
}

}  // namespace gpushare
