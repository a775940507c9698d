// Fuzz target `scenario`: a scenario YAML file (docs/scenario.md), read and
// its node pools built (device plugins, MIG layouts, HAMi splits).

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/scenario/scenario_reader.h"

namespace {

// Pools are built only up to this many nodes (a valid 1,000,000-node pool
// is slow, not a finding).
constexpr int64_t kMaxNodesBuilt = 2000;

}  // namespace

GS_FUZZ_TARGET(scenario) {
  static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
  const gpushare::Scenario scenario =
      gpushare::ReadScenarioYaml(data, "fuzz.yaml", catalog);
  int64_t nodes = 0;
  for (const gpushare::NodePoolSpec& pool : scenario.pools) nodes += pool.nodes;
  if (nodes > kMaxNodesBuilt) return;
  gpushare::Cluster cluster(catalog);
  for (const gpushare::NodePoolSpec& pool : scenario.pools) {
    cluster.AddPool(pool);
  }
}
