// Scheduling throughput (pods/s): a steady stream of pods through the full
// Filter + Score + Reserve/Bind cycle on 1,000 and 10,000 nodes of 8 GPUs,
// for each sharing scheme. The cluster is kept about half full: each
// iteration binds one pod and releases the one bound `window` pods earlier.
// Target (issue: pipeline): >= 50,000 pods/s on 1,000 nodes on one core.

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/check.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {
namespace {

enum Scheme { kExclusive, kTimeSlicing, kMps, kMig, kHami };

struct Setup {
  const char* model;
  SharingConfig sharing;
  // Extended requests of the pods, cycled through.
  std::vector<std::vector<std::pair<std::string, int64_t>>> requests;
  int64_t capacity_per_node;  // pods per node, to size the window
};

Setup SetupFor(Scheme scheme) {
  switch (scheme) {
    case kExclusive:
      return {"A100-80GB", ExclusiveSharing(), {{{"nvidia.com/gpu", 1}}}, 8};
    case kTimeSlicing:
      return {"A100-80GB", TimeSlicingSharing(4), {{{"nvidia.com/gpu", 1}}},
              32};
    case kMps:
      return {"A100-80GB", MpsSharing(4), {{{"nvidia.com/gpu", 1}}}, 32};
    case kMig:
      return {"H100-80GB",
              MigSharing(MigStrategy::kMixed, "all-balanced"),
              {{{"nvidia.com/mig-1g.10gb", 1}},
               {{"nvidia.com/mig-1g.10gb", 1}},
               {{"nvidia.com/mig-2g.20gb", 1}},
               {{"nvidia.com/mig-3g.40gb", 1}}},
              32};
    case kHami:
      return {"A100-80GB",
              HamiSharing(),
              {{{"nvidia.com/gpu", 1},
                {"nvidia.com/gpumem", 20000},
                {"nvidia.com/gpucores", 25}}},
              32};
  }
  return {};
}

void BM_Schedule(benchmark::State& state) {
  const Scheme scheme = static_cast<Scheme>(state.range(0));
  const int nodes = static_cast<int>(state.range(1));
  Setup setup = SetupFor(scheme);
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec;
  spec.name = "pool";
  spec.gpu_model = setup.model;
  spec.nodes = nodes;
  spec.gpus_per_node = 8;
  spec.sharing = setup.sharing;
  cluster.AddPool(spec);
  SchedulerProfile profile;
  Scheduler scheduler(cluster, profile);
  const int64_t window = setup.capacity_per_node * nodes / 2;
  // Pods are reused: pod i and pod i + 2 * window share a template.
  std::vector<ResourceList> templates;
  for (const auto& extended : setup.requests) {
    ResourceList r;
    r.Set(ResourceRegistry::kCpuId, 2000);
    r.Set(ResourceRegistry::kMemoryId, 16384);
    for (const auto& [name, quantity] : extended) {
      r.Set(cluster.resources().Intern(name), quantity);
    }
    templates.push_back(r);
  }
  // A ring of window + 1 pods: slot i % ring is free again once pod
  // i - window was released.
  const int64_t ring = window + 1;
  std::vector<Pod> pods(ring);
  int64_t next = 0;
  for (auto _ : state) {
    const PodId id = static_cast<PodId>(next % ring);
    pods[id].requests = templates[next % templates.size()];
    scheduler.Enqueue(id, pods[id]);
    const ScheduleResult result = scheduler.ScheduleOne();
    GS_CHECK(result.outcome == ScheduleResult::Outcome::kBound,
             "benchmark pod did not fit");
    if (next >= window) {
      scheduler.Release(static_cast<PodId>((next - window) % ring));
    }
    ++next;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::string(SharingSchemeName(setup.sharing.scheme())));
}

BENCHMARK(BM_Schedule)
    ->ArgsProduct({{kExclusive, kTimeSlicing, kMps, kMig, kHami}, {1000, 10000}})
    ->ArgNames({"scheme", "nodes"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpushare
