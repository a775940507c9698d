// Node-group templates of autoscaled pools (emit/node_group_template.h).

#include "gpushare/emit/node_group_template.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/io/input_error.h"

namespace gpushare {

std::vector<const NodePoolSpec*> AutoscaledPools(const Scenario& scenario,
                                                 AutoscalerProvider provider) {
  std::vector<const NodePoolSpec*> pools;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node > 0 && p.autoscaling.provider == provider) {
      pools.push_back(&p);
    }
  }
  return pools;
}

std::map<std::string, std::string> MigConfigsOf(const Scenario& scenario,
                                                const Catalog& catalog) {
  std::map<std::string, std::string> configs;
  const bool has_mig = std::any_of(
      scenario.pools.begin(), scenario.pools.end(), [](const NodePoolSpec& p) {
        return p.gpus_per_node > 0 && p.sharing.mig_enabled &&
               !p.sharing.mig.dynamic;
      });
  if (!has_mig) return configs;
  for (const PoolMigConfig& c : PoolMigConfigs(scenario, catalog)) {
    configs[c.pool] = c.config;
  }
  return configs;
}

NodeGroupTemplate NodeGroupTemplateOf(const NodePoolSpec& pool,
                                      const std::string& mig_config,
                                      const Catalog& catalog, int gpus) {
  NodeGroupTemplate t;
  NodePoolSpec one = pool;
  one.nodes = 1;
  one.members.clear();
  one.autoscaling = NodeGroupAutoscaling{};  // one fixed node
  if (gpus >= 0) one.gpus_per_node = gpus;
  t.physical_gpus = one.gpus_per_node;
  t.dra = pool.devices == PoolDevices::kDra;
  const bool mig_capable =
      pool.gpus_per_node > 0 && catalog.Get(pool.gpu_model).mig_capable();
  const NodeTarget target =
      PoolNodeTarget(pool, mig_config, mig_capable, nullptr);
  t.labels = target.set;
  if (!target.mig_config.empty()) t.labels[kMigConfigLabel] = mig_config;
  t.taints = target.taints;
  if (one.gpus_per_node == 0 || t.dra) return t;
  Cluster cluster(catalog);
  cluster.AddPool(one);
  const Node& node = cluster.nodes().at(0);
  const bool hami = pool.sharing.sharing == DeviceSharing::kHami;
  for (const auto& [id, quantity] : node.extended().items()) {
    if (id <= ResourceRegistry::kMemoryId) continue;
    const std::string& name = cluster.resources().Name(id);
    if (hami && name != kNvidiaGpu) {
      t.extender_resources.emplace_back(name, quantity);
    } else {
      t.resources.emplace_back(name, quantity);
    }
  }
  std::sort(t.resources.begin(), t.resources.end());
  std::sort(t.extender_resources.begin(), t.extender_resources.end());
  return t;
}

std::string GoDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) {
    throw InputError(fmt::format(
        "duration {} s cannot be written as a Go duration", seconds));
  }
  const double ms_exact = seconds * 1000;
  const int64_t ms = static_cast<int64_t>(std::llround(ms_exact));
  if (std::fabs(ms_exact - static_cast<double>(ms)) > 1e-6) {
    throw InputError(fmt::format(
        "duration {} s is finer than a millisecond, which the emitted "
        "settings do not take",
        seconds));
  }
  if (ms == 0) return "0s";
  if (ms % 1000 != 0) return fmt::format("{}ms", ms);
  int64_t s = ms / 1000;
  std::string out;
  if (s >= 3600) {
    out += fmt::format("{}h", s / 3600);
    s %= 3600;
  }
  if (s >= 60) {
    out += fmt::format("{}m", s / 60);
    s %= 60;
  }
  if (s > 0) out += fmt::format("{}s", s);
  return out;
}

std::string ShortNumber(double value) { return fmt::format("{:g}", value); }

}  // namespace gpushare
