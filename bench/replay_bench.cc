// Time-based replay of the default openb trace (1213 GPU nodes, 8152 pods
// over 149 days) through the whole simulation, as `gpushare-sim run` does
// with a scenario of `cluster.import` + `workload.trace` (docs/scenario.md).
// Targets (issue 6): the trace and its cluster load as a replay scenario in
// well under a second; a `run` replay of it takes seconds (HAMi on every
// GPU node, samples every hour).
//
// The trace is read from data/openb/ beside this source file, or from
// $GS_OPENB_DIR.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "gpushare/metrics/collector.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {
namespace {

std::string OpenbDir() {
  if (const char* dir = std::getenv("GS_OPENB_DIR")) return dir;
  std::string here = __FILE__;
  return here.substr(0, here.rfind('/')) + "/../data/openb";
}

std::string ReplayYaml(const std::string& scheme) {
  return "name: openb-replay\n"
         "sample_interval_s: 3600\n"
         "cluster:\n"
         "  import: {format: openb, file: openb_node_list_gpu_node.csv,\n"
         "           sharing: {scheme: " +
         scheme +
         "}}\n"
         "workload:\n"
         "  trace: {format: openb, file: openb_pod_list_default.csv}\n";
}

const Catalog& TheCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Reading the scenario: both CSVs, grouping 1213 nodes into pools, 8152
// pods converted.
void BM_LoadOpenbReplay(benchmark::State& state) {
  const std::string file = OpenbDir() + "/replay.yaml";
  for (auto _ : state) {
    const Scenario s = ReadScenarioYaml(ReplayYaml("hami"), file, TheCatalog());
    benchmark::DoNotOptimize(s.workload.trace.pods->size());
  }
}
BENCHMARK(BM_LoadOpenbReplay)->Unit(benchmark::kMillisecond);

// A whole `run`: build the cluster, translate, replay, collect.
void BM_RunOpenbReplay(benchmark::State& state, const char* scheme) {
  const Scenario s = ReadScenarioYaml(
      ReplayYaml(scheme), OpenbDir() + "/replay.yaml", TheCatalog());
  int64_t pods = 0;
  for (auto _ : state) {
    Simulation sim(s, TheCatalog());
    Collector collector(sim, s.name, s.seed, /*record_devices=*/false);
    sim.Run(&collector);
    pods = collector.result().pods;
    benchmark::DoNotOptimize(pods);
  }
  state.counters["pods"] = static_cast<double>(pods);
}
BENCHMARK_CAPTURE(BM_RunOpenbReplay, hami, "hami")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RunOpenbReplay, exclusive, "exclusive")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpushare
