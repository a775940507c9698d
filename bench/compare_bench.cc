// `compare` of 100,000 pods on 1,000 nodes x 8 GPUs (A100-80GB): the five
// schemes, after the MIG families' pilots, on 2 threads. Target (issue:
// compare and the selection): under 10 s on 2 cores in Release.

#include <benchmark/benchmark.h>

#include "bench/big_scenario.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison.h"
#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/selection.h"

namespace gpushare {
namespace {

void BM_Compare(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario scenario = BigScenario(ExclusiveSharing(), "A100-80GB");
  const ComparisonSpec spec = DefaultComparisonSpec(scenario);
  size_t ranked = 0;
  for (auto _ : state) {
    const Comparison c = RunComparison(scenario, spec.compare, catalog,
                                       static_cast<int>(state.range(0)));
    const Selection s = Select(c, spec.selection);
    ranked = s.classes.empty() ? 0 : s.classes[0].ranking.size();
  }
  state.counters["schemes"] = static_cast<double>(ranked);
}

BENCHMARK(BM_Compare)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
}  // namespace gpushare
