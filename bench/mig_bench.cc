// Micro-benchmarks of the MIG geometry: placing a profile multiset (done per
// MIG reconfiguration in the simulator) and enumerating maximal layouts.

#include <benchmark/benchmark.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/catalog/mig_layout_spec.h"

namespace gpushare {
namespace {

void BM_PlaceMigProfiles(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& model = catalog.Get("A100-40GB");
  const MigLayoutSpec spec =
      ParseMigLayoutSpec(model, {"3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb"});
  for (auto _ : state) {
    std::string why;
    benchmark::DoNotOptimize(
        PlaceMigProfiles(model, spec.fixed, spec.free_profiles, &why));
  }
}
BENCHMARK(BM_PlaceMigProfiles);

void BM_EnumerateMaximalMigLayouts(benchmark::State& state) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& model = catalog.Get("A100-40GB");
  for (auto _ : state) {
    benchmark::DoNotOptimize(EnumerateMaximalMigLayouts(model));
  }
}
BENCHMARK(BM_EnumerateMaximalMigLayouts);

void BM_LoadBuiltinCatalog(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Catalog::Builtin());
}
BENCHMARK(BM_LoadBuiltinCatalog);

}  // namespace
}  // namespace gpushare
