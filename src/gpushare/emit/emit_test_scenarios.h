// Scenarios for the emitters' tests (header-only; *_test.cc only): the
// built-in catalog, and a scenario of the given pools (YAML lines under
// `cluster.pools:`) with one batch class, read by the scenario reader so
// the pools are exactly what a user's file gives.

#ifndef GPUSHARE_EMIT_EMIT_TEST_SCENARIOS_H_
#define GPUSHARE_EMIT_EMIT_TEST_SCENARIOS_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare::emit_test {

inline const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Scenario `name` read from "<name>.yaml"; `extra` follows the workload.
inline Scenario PoolsScenario(const std::string& name, const std::string& pools,
                              const std::string& extra = "") {
  return ReadScenarioYaml(
      "name: " + name + "\ncluster:\n  pools:\n" + pools +
          "workload:\n  classes:\n    - {name: a, class: batch, count: 1}\n" +
          extra,
      name + ".yaml", TestCatalog());
}

}  // namespace gpushare::emit_test

#endif  // GPUSHARE_EMIT_EMIT_TEST_SCENARIOS_H_
