// Fuzz target `sweep_grid`: a sweep grid file (docs/sweep.md), read, and
// the scenario of its first points and its last read with the grid's
// values set in a small built-in scenario.

#include <algorithm>

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/decide/sweep_point.h"

namespace {

constexpr char kScenario[] = R"(name: fuzz
cluster:
  pools:
    - name: l4
      gpu: L4
      nodes: 2
      gpus_per_node: 4
      sharing: {scheme: time-slicing, replicas: 4}
    - name: a100
      gpu: A100-40GB
      nodes: 1
      sharing: {scheme: mig, mig_strategy: mixed, mig_config: all-balanced}
workload:
  horizon_s: 600
  classes:
    - {name: notebooks, class: dev, arrival_rate_per_s: 0.02, gpus: 1,
       gpu_memory_mib: 2000, work_s: 300}
)";

// Points read per input (each parses the scenario and the grid again).
constexpr int64_t kPointsRead = 8;

}  // namespace

GS_FUZZ_TARGET(sweep_grid) {
  static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
  const gpushare::SweepGrid grid =
      gpushare::ReadSweepGrid(data, "grid.yaml", /*scenario_given=*/true);
  gpushare::SweepDigest(grid, kScenario);
  const int64_t first = std::min(grid.points, kPointsRead);
  for (int64_t p = 0; p < first; ++p) {
    gpushare::ReadSweepPoint(grid, kScenario, "fuzz.yaml", p, catalog);
  }
  if (grid.points > first) {
    gpushare::ReadSweepPoint(grid, kScenario, "fuzz.yaml", grid.points - 1,
                             catalog);
  }
}
