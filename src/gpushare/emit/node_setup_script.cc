#include "gpushare/emit/node_setup_script.h"

#include <fmt/format.h>

#include <map>

#include "gpushare/cluster/cluster.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {

std::string NodeSetupScript(const Scenario& scenario, const Catalog& catalog) {
  std::map<std::string, std::string> mig_config;  // pool → config
  bool has_mig = false;
  for (const NodePoolSpec& p : scenario.pools) {
    has_mig = has_mig || (p.gpus_per_node > 0 && p.sharing.mig_enabled);
  }
  if (has_mig) {
    for (const PoolMigConfig& c : PoolMigConfigs(scenario, catalog)) {
      mig_config[c.pool] = c.config;
    }
  }
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  std::string out = fmt::format(
      "#!/bin/sh\n# Labels and taints of scenario '{}' (written by "
      "gpushare-sim emit k8s):\n# each node as the simulation has it, and "
      "the labels that select its\n# device-plugin, MIG and HAMi "
      "configuration. Safe to run again.\nset -eu\n",
      CommentText(scenario.name));
  for (const NodePool& pool : cluster.pools()) {
    const NodePoolSpec& spec = pool.spec;
    if (spec.gpus_per_node == 0) continue;
    std::string labels = fmt::format(
        " {}", ShellQuote(std::string(kNodePoolLabel) + "=" + spec.name));
    for (const auto& [k, v] : spec.labels)
      labels += " " + ShellQuote(k + "=" + v);
    if (spec.sharing.sharing == DeviceSharing::kHami) {
      labels += " gpu=on";
    } else {
      labels +=
          " " + ShellQuote("nvidia.com/device-plugin.config=" + spec.name);
    }
    auto mig = mig_config.find(spec.name);
    if (mig != mig_config.end()) {
      labels += " " + ShellQuote("nvidia.com/mig.config=" + mig->second);
    }
    out += fmt::format("\n# pool {}: {} x {} {}\n", CommentText(spec.name),
                       spec.nodes, spec.gpus_per_node,
                       CommentText(spec.gpu_model));
    for (int n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      const std::string node = ShellQuote(cluster.nodes()[n].name());
      out += fmt::format("kubectl label node {}{} --overwrite\n", node, labels);
      for (const Taint& t : spec.taints) {
        out += fmt::format("kubectl taint node {} {} --overwrite\n", node,
                           ShellQuote(fmt::format(
                               "{}{}{}:{}", t.key, t.value.empty() ? "" : "=",
                               t.value, TaintEffectName(t.effect))));
      }
    }
  }
  return out;
}

}  // namespace gpushare
