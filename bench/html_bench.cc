// The HTML report of a 100,000-pod run (1,000 nodes x 8 GPUs): building the
// page from the result. Target (issue 7): well under a second, and a page of
// at most a few MB (reported as the "bytes" counter) that a browser opens in
// a few seconds.

#include <benchmark/benchmark.h>

#include "bench/big_scenario.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/report/run_html.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {
namespace {

void BM_RunHtmlReport(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario scenario = BigScenario(TimeSlicingSharing(4), "A100-80GB");
  Simulation sim(scenario, catalog);
  Collector collector(sim, scenario.name, scenario.seed, false);
  sim.Run(&collector);
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string page = RunHtmlReport(collector.result());
    bytes = page.size();
    benchmark::DoNotOptimize(page.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["pods"] = static_cast<double>(collector.result().pods);
}

BENCHMARK(BM_RunHtmlReport)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace gpushare
