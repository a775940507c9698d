// The FGD paper's experiment on the default openb trace (1213 nodes, 6212
// GPUs, about 10.8 k arrivals after inflation to 1.3 x capacity).
// Targets (issue 6): one paper run (FGD) under 2 s on one core and under
// 200 MB; all 6 policies x 10 seeds under 30 s on 2 cores; the trace loads in
// well under a second. Peak memory is reported as the max_rss_mb counter
// (the process's, so it covers everything run before it as well).
//
// The trace is read from data/openb/ beside this source file, or from
// $GS_OPENB_DIR.

#include <sys/resource.h>

#include <cstdlib>
#include <string>

#include <benchmark/benchmark.h>

#include "gpushare/experiment/fgd_experiment.h"

namespace gpushare {
namespace {

std::string OpenbDir() {
  if (const char* dir = std::getenv("GS_OPENB_DIR")) return dir;
  std::string here = __FILE__;
  return here.substr(0, here.rfind('/')) + "/../data/openb";
}

double MaxRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

const FgdExperiment& Experiment() {
  static const Catalog catalog = Catalog::Builtin();
  static const FgdExperiment experiment = [] {
    const GpuModelMap models = GpuModelMap::Default();
    const std::string nodes = OpenbDir() + "/openb_node_list_gpu_node.csv";
    return FgdExperiment(catalog, models, nodes,
                         ReadOpenbNodeList(nodes, models),
                         ReadOpenbPodList(
                             OpenbDir() + "/openb_pod_list_default.csv",
                             models),
                         kFgdDefaultInflate);
  }();
  return experiment;
}

void BM_LoadDefaultTrace(benchmark::State& state) {
  const GpuModelMap models = GpuModelMap::Default();
  for (auto _ : state) {
    auto nodes =
        ReadOpenbNodeList(OpenbDir() + "/openb_node_list_gpu_node.csv", models);
    auto pods =
        ReadOpenbPodList(OpenbDir() + "/openb_pod_list_default.csv", models);
    benchmark::DoNotOptimize(nodes.data());
    benchmark::DoNotOptimize(pods.data());
  }
}
BENCHMARK(BM_LoadDefaultTrace)->Unit(benchmark::kMillisecond);

// One run of one policy (the paper's FGD run is arg 5), seed 42, one thread.
void BM_PaperRun(benchmark::State& state) {
  const FgdPolicy policy = AllFgdPolicies()[state.range(0)];
  const FgdExperiment& experiment = Experiment();
  int64_t arrivals = 0;
  for (auto _ : state) {
    const FgdRunResult result = experiment.Run(policy, kFgdFirstSeed);
    arrivals = result.arrivals;
    benchmark::DoNotOptimize(result.buckets.data());
  }
  state.SetLabel(std::string(FgdPolicyPluginName(policy)));
  state.counters["arrivals"] = static_cast<double>(arrivals);
  state.counters["max_rss_mb"] = MaxRssMb();
}
BENCHMARK(BM_PaperRun)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

// The paper's full grid on the default trace: 6 policies x seeds 42..51 on
// two threads.
void BM_AllPoliciesTenSeeds(benchmark::State& state) {
  const FgdExperiment& experiment = Experiment();
  std::vector<uint64_t> seeds;
  for (uint64_t s = kFgdFirstSeed; s <= kFgdLastSeed; ++s) seeds.push_back(s);
  for (auto _ : state) {
    auto results = experiment.RunAll(AllFgdPolicies(), seeds, 2);
    benchmark::DoNotOptimize(results.data());
  }
  state.counters["max_rss_mb"] = MaxRssMb();
}
BENCHMARK(BM_AllPoliciesTenSeeds)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
}  // namespace gpushare
