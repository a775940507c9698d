#include "gpushare/emit/node_setup_script.h"

#include <fmt/format.h>

#include <map>

#include "gpushare/emit/mig_parted_config.h"

namespace gpushare {
namespace {

// Pool → its nvidia.com/mig.config value, for the MIG pools of `scenario`.
std::map<std::string, std::string> MigConfigsByPool(const Scenario& scenario,
                                                    const Catalog& catalog,
                                                    const Scenario* today) {
  std::map<std::string, std::string> configs;
  bool has_mig = false;
  for (const NodePoolSpec& p : scenario.pools) {
    has_mig = has_mig || (p.gpus_per_node > 0 && p.sharing.mig_enabled &&
                          !p.sharing.mig.dynamic);
  }
  if (!has_mig) return configs;
  for (const PoolMigConfig& c : PoolMigConfigs(scenario, catalog, today)) {
    configs[c.pool] = c.config;
  }
  return configs;
}

std::string PoolSummary(const NodePoolSpec& p, const Catalog& catalog) {
  const GpuModel& model = catalog.Get(p.gpu_model);
  return fmt::format("{} x {} {}, {}", p.nodes, p.gpus_per_node, model.name,
                     SharingLabel(p.sharing, &model));
}

NodeTarget TargetOf(const NodePoolSpec& pool,
                    const std::map<std::string, std::string>& mig,
                    const Catalog& catalog, const NodePoolSpec* before) {
  const auto it = mig.find(pool.name);
  return PoolNodeTarget(pool, it == mig.end() ? "" : it->second,
                        catalog.Get(pool.gpu_model).mig_capable(), before);
}

// The other names of `target`'s MIG layout on `pool`'s nodes (NodeChange::
// mig_alike): among the catalog's configs of the pool's GPU model and the
// configs of `scenario` and `today` (KnownMigConfigs); `counts` is the
// layout, null when unknown (then taken from the known configs by name).
std::vector<std::string> MigAlike(const NodePoolSpec& pool,
                                  const NodeTarget& target,
                                  const MigNodeCounts* counts,
                                  const Scenario& scenario,
                                  const Scenario* today,
                                  const Catalog& catalog) {
  if (target.mig_config.empty()) return {};
  const GpuModel& model = catalog.Get(pool.gpu_model);
  if (!model.mig_capable()) return {};
  const auto known =
      KnownMigConfigs(model, pool.gpus_per_node, &scenario, today, catalog);
  if (counts != nullptr) {
    return SameLayoutMigConfigs(target.mig_config, *counts, known);
  }
  const auto it = known.find(target.mig_config);
  if (it == known.end()) return {};
  return SameLayoutMigConfigs(target.mig_config, it->second, known);
}

}  // namespace

const NodePoolSpec* FindPoolSpec(const Scenario* scenario,
                                 const std::string& name) {
  if (scenario == nullptr) return nullptr;
  for (const NodePoolSpec& p : scenario->pools) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<NodeChange> NodeChanges(const Scenario& scenario,
                                    const Catalog& catalog,
                                    const Scenario* today) {
  const auto mig = MigConfigsByPool(scenario, catalog, today);
  std::vector<NodeChange> changes;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node == 0) continue;
    const NodePoolSpec* before = FindPoolSpec(today, pool.name);
    NodeChange c;
    c.title = "pool " + pool.name + ": " + PoolSummary(pool, catalog);
    if (before != nullptr) {
      c.title += " (today " + PoolSummary(*before, catalog) + ")";
    }
    c.nodes = PoolNodeSetOf(pool);
    c.target = TargetOf(pool, mig, catalog, before);
    if (!c.target.mig_config.empty()) {
      const MigNodeCounts counts =
          PoolMigCounts(pool, catalog.Get(pool.gpu_model));
      c.mig_alike =
          MigAlike(pool, c.target, &counts, scenario, today, catalog);
    }
    changes.push_back(std::move(c));
  }
  return changes;
}

std::string NodeSetupScript(const Scenario& scenario, const Catalog& catalog,
                            const Scenario* today) {
  return ChangeScript(
      "node-setup.sh",
      {"Node changes of scenario '" + scenario.name +
           "' (written by gpushare-sim):",
       "each pool's nodes get the labels that select their device-plugin, "
       "MIG and HAMi",
       "configuration, and their taints; labels of the configuration they "
       "leave are removed.",
       "Apply the ConfigMaps and Helm values first (README.md)."},
      NodeChanges(scenario, catalog, today));
}

std::optional<std::vector<NodeChange>> RollbackChanges(
    const Scenario& scenario, const Catalog& catalog, const Scenario* today) {
  const auto mig = MigConfigsByPool(scenario, catalog, today);
  std::map<std::string, std::string> mig_today;
  if (today != nullptr) mig_today = MigConfigsByPool(*today, catalog, nullptr);
  std::vector<NodeChange> changes;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node == 0) continue;
    const NodePoolSpec* before = FindPoolSpec(today, pool.name);
    const PoolNodeSet set = PoolNodeSetOf(pool);
    if (set.by_name()) {
      const NodeTarget applied = TargetOf(pool, mig, catalog, before);
      // Nodes alike share one change, in the order of their first node.
      std::vector<NodeChange> groups;
      for (size_t i = 0; i < set.names.size(); ++i) {
        const NodeTarget back = RestoreNodeTarget(pool.members[i], applied);
        NodeChange* group = nullptr;
        for (NodeChange& g : groups) {
          if (g.target == back) group = &g;
        }
        if (group == nullptr) {
          groups.push_back({"pool " + pool.name +
                                ": back to the nodes' own labels and taints",
                            {}, back, {}});
          group = &groups.back();
          group->nodes.pool = pool.name;
        }
        group->nodes.names.push_back(set.names[i]);
      }
      for (NodeChange& g : groups) {
        g.nodes.nodes = static_cast<int>(g.nodes.names.size());
        g.mig_alike =
            MigAlike(pool, g.target, nullptr, scenario, today, catalog);
        changes.push_back(std::move(g));
      }
      continue;
    }
    if (before == nullptr) return std::nullopt;
    NodeChange c;
    c.title = "pool " + pool.name + ": back to " +
              PoolSummary(*before, catalog);
    c.nodes = set;
    c.target = TargetOf(*before, mig_today, catalog, &pool);
    if (!c.target.mig_config.empty()) {
      const MigNodeCounts counts =
          PoolMigCounts(*before, catalog.Get(before->gpu_model));
      c.mig_alike =
          MigAlike(*before, c.target, &counts, scenario, today, catalog);
    }
    changes.push_back(std::move(c));
  }
  return changes;
}

std::optional<std::string> RollbackScript(const Scenario& scenario,
                                          const Catalog& catalog,
                                          const Scenario* today) {
  const auto changes = RollbackChanges(scenario, catalog, today);
  if (!changes) return std::nullopt;
  return ChangeScript(
      "node-rollback.sh",
      {"Rollback of node-setup.sh for scenario '" + scenario.name +
           "' (written by gpushare-sim):",
       "each pool's nodes get back today's labels and taints, and MIG "
       "layouts today's.",
       "rollback.sh runs it after restoring the ConfigMaps and Helm "
       "releases."},
      *changes);
}

}  // namespace gpushare
