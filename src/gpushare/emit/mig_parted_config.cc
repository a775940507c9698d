#include "gpushare/emit/mig_parted_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "gpushare/catalog/mig_config.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/pool_node_set.h"
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

bool HasMigPool(const Scenario& scenario) {
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node > 0 && p.sharing.mig_enabled &&
        !p.sharing.mig.dynamic) {
      return true;
    }
  }
  return false;
}

// Every MIG pool's config, names made unique (see the header).
std::vector<PoolConfig> PoolConfigsOf(const Scenario& scenario,
                                      const Catalog& catalog,
                                      const Scenario* today) {
  std::vector<PoolConfig> before;  // today's, by pool
  if (today != nullptr && HasMigPool(*today)) {
    before = PoolConfigsOf(*today, catalog, nullptr);
  }
  std::vector<PoolConfig> configs;
  std::map<std::string, std::string> entries_of;  // name → entries
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node == 0 || !pool.sharing.mig_enabled) continue;
    // Dynamic MIG: the DRA driver makes the instances, not mig-parted.
    if (pool.sharing.mig.dynamic) continue;
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
    // Today's pool of that name calls another layout so: its nodes carry
    // the name, and the MIG manager would not act on it (see the header).
    for (const PoolConfig& t : before) {
      if (t.pool != c.pool || t.name != c.name || t.entries == c.entries) {
        continue;
      }
      const std::string base = c.name;
      for (int n = 2;; ++n) {
        c.name = fmt::format("{}-{}", base, n);
        const bool taken =
            entries_of.count(c.name) > 0 ||
            std::any_of(before.begin(), before.end(),
                        [&](const PoolConfig& b) { return b.name == c.name; });
        if (!taken) break;
      }
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

// The configs nodes carry today that `configs` (the scenario's) do not
// define, name → entries: today's pools' configs and the catalog's named
// configs that today's imported nodes carry; a name given two layouts is
// left out, and so is all-disabled (always written).
std::map<std::string, std::string> KeptConfigs(
    const std::vector<PoolConfig>& configs, const Scenario* today,
    const Catalog& catalog) {
  std::map<std::string, std::string> kept;
  if (today == nullptr) return kept;
  std::set<std::string> clash;
  const auto add = [&](const std::string& name, const std::string& entries) {
    auto [it, added] = kept.emplace(name, entries);
    if (!added && it->second != entries) clash.insert(name);
  };
  if (HasMigPool(*today)) {
    for (const PoolConfig& c : PoolConfigsOf(*today, catalog, nullptr)) {
      add(c.name, c.entries);
    }
  }
  for (const NodePoolSpec& pool : today->pools) {
    if (pool.gpus_per_node == 0) continue;
    const GpuModel& model = catalog.Get(pool.gpu_model);
    if (!model.mig_capable()) continue;
    for (const NodeIdentity& member : pool.members) {
      const auto label = member.labels.find("nvidia.com/mig.config");
      if (label == member.labels.end()) continue;
      for (const NamedMigConfig& n : NamedMigConfigs(model)) {
        if (n.name == label->second && n.mig_enabled) {
          add(n.name, Entry(model, "all", n.counts));
        }
      }
    }
  }
  for (const std::string& name : clash) kept.erase(name);
  for (const PoolConfig& c : configs) kept.erase(c.name);
  kept.erase("all-disabled");
  return kept;
}

}  // namespace

std::vector<PoolMigConfig> PoolMigConfigs(const Scenario& scenario,
                                          const Catalog& catalog,
                                          const Scenario* today) {
  std::vector<PoolMigConfig> out;
  for (const PoolConfig& c : PoolConfigsOf(scenario, catalog, today)) {
    out.push_back({c.pool, c.name, c.mixed});
  }
  return out;
}

std::string MigPartedConfigYaml(const Scenario& scenario,
                                const Catalog& catalog, const Scenario* today) {
  std::string out =
      "version: v1\nmig-configs:\n  all-disabled:\n"
      "    - devices: all\n      mig-enabled: false\n";
  std::map<std::string, bool> written;
  const std::vector<PoolConfig> configs =
      PoolConfigsOf(scenario, catalog, today);
  for (const PoolConfig& c : configs) {
    if (written[c.name]) continue;
    written[c.name] = true;
    out += fmt::format("  {}:\n{}", YamlScalar(c.name),
                       IndentLines(c.entries, "  "));
  }
  const auto kept = KeptConfigs(configs, today, catalog);
  if (!kept.empty()) {
    out +=
        "  # Today's, kept: nodes carry these names until node-setup.sh "
        "relabels them.\n";
  }
  for (const auto& [name, entries] : kept) {
    out += fmt::format("  {}:\n{}", YamlScalar(name),
                       IndentLines(entries, "  "));
  }
  return out;
}

std::string MigPartedConfigMap(const Scenario& scenario, const Catalog& catalog,
                               const MigPartedConfigMapOptions& options) {
  const std::vector<PoolConfig> configs =
      PoolConfigsOf(scenario, catalog, options.today);
  // The operator sets MIG_STRATEGY on every node's device plugin from
  // spec.mig.strategy, and the plugin takes it over its config file's
  // flags.migStrategy (docs/emit.md): see gpu_operator_values.h.
  const ClusterMigStrategy strategy = ClusterMigStrategyOf(scenario, catalog);
  std::string out = fmt::format(
      "# MIG layouts of scenario '{}' for NVIDIA's MIG manager (mig-parted "
      "config v1;\n# written by gpushare-sim emit mig-parted).\n"
      "#\n# 1. Create the ConfigMap:\n#      kubectl apply -f THIS_FILE\n"
      "# 2. Point the GPU Operator's MIG manager at it and set the MIG "
      "strategy (Helm\n#    values, which a later helm upgrade keeps; emit "
      "k8s writes them as\n#    gpu-operator-values.yaml):\n"
      "#      helm upgrade {} --reuse-values \\\n"
      "#        --set migManager.config.name={} \\\n"
      "#        --set migManager.config.default=all-disabled "
      "--set mig.strategy={}\n",
      CommentText(scenario.name),
      CommentText(HelmReleaseArguments(
          GpuOperatorRelease(scenario.platform, options.namespace_name))),
      CommentText(ShellWord(options.name)),
      strategy.strategy.empty() ? "\"\"" : strategy.strategy);
  if (strategy.strategy.empty()) {
    out += fmt::format(
        "#    (no cluster-wide strategy: {}, and a non-empty\n#    one "
        "would override every node's flags.migStrategy in\n#    "
        "device-plugin-config.yaml; each node's config decides)\n",
        strategy.why_per_node);
  }
  out +=
      "# 3. Select each pool's layout on its nodes, their GPU pods drained "
      "first (emit\n#    k8s's node-setup.sh cordons and drains each node, "
      "and waits until the MIG\n#    manager sets "
      "nvidia.com/mig.config.state=success):\n";
  for (const PoolConfig& c : configs) {
    for (const NodePoolSpec& pool : scenario.pools) {
      if (pool.name != c.pool) continue;
      out += LabelCommandComments(PoolNodeSetOf(pool),
                                  "nvidia.com/mig.config=" + c.name);
    }
  }
  out += fmt::format(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\n"
      "  namespace: {}\ndata:\n  config.yaml: |\n{}",
      YamlScalar(options.name), YamlScalar(options.namespace_name),
      IndentLines(MigPartedConfigYaml(scenario, catalog, options.today),
                  "    "));
  return out;
}

MigNodeCounts PoolMigCounts(const NodePoolSpec& pool, const GpuModel& model) {
  MigNodeCounts counts;
  for (const MigLayout& layout :
       pool.sharing.Validate(model, pool.gpus_per_node)) {
    counts.push_back(MigProfileCounts(model, layout));
  }
  return counts;
}

std::map<std::string, MigNodeCounts> KnownMigConfigs(
    const GpuModel& model, int gpus, const Scenario* scenario,
    const Scenario* today, const Catalog& catalog) {
  std::map<std::string, MigNodeCounts> known;
  std::set<std::string> ambiguous;
  const auto add = [&](const std::string& name, const MigNodeCounts& c) {
    auto [it, added] = known.emplace(name, c);
    if (!added && it->second != c) ambiguous.insert(name);
  };
  for (const NamedMigConfig& c : NamedMigConfigs(model)) {
    add(c.name, MigNodeCounts(gpus, c.mig_enabled ? c.counts
                                                  : std::vector<int>()));
  }
  for (const Scenario* s : {scenario, today}) {
    if (s == nullptr || !HasMigPool(*s)) continue;
    for (const PoolMigConfig& c :
         PoolMigConfigs(*s, catalog, s == scenario ? today : nullptr)) {
      for (const NodePoolSpec& p : s->pools) {
        if (p.name != c.pool || catalog.Get(p.gpu_model).name != model.name) {
          continue;
        }
        MigNodeCounts counts = PoolMigCounts(p, model);
        const bool alike = std::all_of(
            counts.begin(), counts.end(),
            [&](const std::vector<int>& g) { return g == counts[0]; });
        if (static_cast<int>(counts.size()) != gpus) {
          if (!alike || counts.empty()) continue;
          counts = MigNodeCounts(gpus, counts[0]);
        }
        add(c.config, counts);
      }
    }
  }
  for (const std::string& name : ambiguous) known.erase(name);
  return known;
}

std::vector<std::string> SameLayoutMigConfigs(
    const std::string& config, const MigNodeCounts& counts,
    const std::map<std::string, MigNodeCounts>& known) {
  std::vector<std::string> names;
  for (const auto& [name, c] : known) {
    if (name != config && c == counts) names.push_back(name);
  }
  return names;
}

}  // namespace gpushare
