// `sweep` of examples/sweep-time-slicing.yaml's grid with its seed axis
// widened to 1..N: each point read (checked) as it runs, simulated and
// summarized on one thread. BM_SweepReadPoints measures the reading alone.
// BM_SweepReadPointsOfLongList reads 1,000 points of a grid whose axis has
// N values: reading is linear, so its points/s must not fall as N grows
// (the grid is parsed once, each point copies its own values; issue 51).

#include <benchmark/benchmark.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/sweep.h"
#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/decide/sweep_point.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

std::string ExamplesDir() {
  const std::string here = __FILE__;
  return here.substr(0, here.rfind('/')) + "/../examples/";
}

SweepGrid BenchGrid(int seeds) {
  return ReadSweepGrid(
      "set:\n  workload.horizon_s: 1800\ncross:\n"
      "  cluster.pools[l4].sharing.replicas: {from: 2, to: 8}\n"
      "  workload.classes[notebooks].arrival_rate_per_s: [0.02, 0.04, 0.08]\n"
      "  seed: {from: 1, to: " +
          std::to_string(seeds) + "}\n",
      "bench-grid.yaml", /*scenario_given=*/true);
}

std::vector<int64_t> AllPoints(const SweepGrid& grid) {
  std::vector<int64_t> points;
  for (int64_t p = 0; p < grid.points; ++p) points.push_back(p);
  return points;
}

void BM_Sweep(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const std::string file = ExamplesDir() + "dev-time-slicing.yaml";
  const std::string text = ReadInputFile(file);
  const SweepGrid grid = BenchGrid(static_cast<int>(state.range(0)));
  int64_t done = 0;
  for (auto _ : state) {
    const Sweep sweep(grid, text, file, AllPoints(grid), catalog);
    sweep.Run(1, [&done](const SweepPointResult&) { ++done; });
  }
  state.counters["points"] = static_cast<double>(grid.points);
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(done),
                                                  benchmark::Counter::kIsRate);
}

void BM_SweepReadPoints(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const std::string file = ExamplesDir() + "dev-time-slicing.yaml";
  const std::string text = ReadInputFile(file);
  const SweepGrid grid = BenchGrid(static_cast<int>(state.range(0)));
  int64_t read = 0;
  for (auto _ : state) {
    const SweepPointReader reader(grid, text, file, catalog);
    for (int64_t p = 0; p < grid.points; ++p) {
      benchmark::DoNotOptimize(reader.Read(p));
      ++read;
    }
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(read),
                                                  benchmark::Counter::kIsRate);
}

void BM_SweepReadPointsOfLongList(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const std::string file = ExamplesDir() + "dev-time-slicing.yaml";
  const std::string text = ReadInputFile(file);
  std::string rates;
  for (int64_t i = 0; i < state.range(0); ++i) {
    rates += (i > 0 ? ", " : "") + std::to_string(0.01 + 1e-7 * i);
  }
  const SweepGrid grid = ReadSweepGrid(
      "cross:\n  workload.classes[notebooks].arrival_rate_per_s: [" + rates +
          "]\n",
      "bench-grid.yaml", /*scenario_given=*/true);
  const SweepPointReader reader(grid, text, file, catalog);
  int64_t read = 0;
  for (auto _ : state) {
    for (int64_t p = 0; p < 1000; ++p) {
      benchmark::DoNotOptimize(reader.Read(p * grid.points / 1000));
      ++read;
    }
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(read),
                                                  benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Sweep)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SweepReadPoints)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepReadPointsOfLongList)
    ->Arg(1000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpushare
