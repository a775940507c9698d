// The scheduling cycle's caches (scheduling_cycle.cc): pruning nodes by
// free resources, reusing per-node results, the diagnosis caches and the
// HAMi fit summaries change no decision and no message — each checked
// against a plain run on random churn.

#include "gpushare/sched/scheduler.h"

#include <gtest/gtest.h>

#include <deque>
#include <limits>
#include <string>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sched/test_scheduler_fixture.h"

namespace gpushare {
namespace scheduler_test {
namespace {

TEST_F(SchedulerTest, PruningByFreeResourcesChangesNothing) {
  // 360 nodes of three pools, a stream of pods of several shapes arriving
  // and leaving, some selecting a pool of nvidia.com/gpu by its label:
  // binding with and without pruning (free resources and static filters)
  // gives the same nodes, devices and messages.
  auto replay = [](bool prune, bool reuse = true) {
    Cluster cluster(Catalog::Builtin());
    NodePoolSpec a;
    a.name = "a";
    a.gpu_model = "A100-80GB";
    a.nodes = 180;
    a.gpus_per_node = 4;
    a.sharing = TimeSlicingSharing(2);
    cluster.AddPool(a);
    NodePoolSpec b = a;
    b.name = "b";
    b.nodes = 120;
    b.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
    cluster.AddPool(b);
    NodePoolSpec c = a;
    c.name = "c";
    c.nodes = 60;
    c.sharing = ExclusiveSharing();
    cluster.AddPool(c);
    SchedulerProfile profile;
    profile.seed = 3;
    profile.prune_by_free_resources = prune;
    profile.reuse_node_results = reuse;
    profile.check_invariants = true;
    Scheduler scheduler(cluster, profile);
    std::deque<Pod> pods;
    std::vector<std::string> log;
    Rng rng(11);
    const char* kinds[] = {"nvidia.com/gpu", "nvidia.com/mig-1g.10gb",
                           "nvidia.com/mig-3g.40gb", "nvidia.com/mig-2g.20gb"};
    std::vector<PodId> bound;
    for (int i = 0; i < 4000; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(4)));
      pod.requests.Set(ResourceRegistry::kMemoryId, 4096);
      const int kind = static_cast<int>(rng.Below(4));
      pod.requests.Set(cluster.resources().Intern(kinds[kind]),
                       1 + static_cast<int64_t>(rng.Below(2)));
      if (kind == 0 && rng.Below(3) != 0) {
        pod.node_selector["gpushare.io/node-pool"] = rng.Below(2) ? "a" : "c";
      }
      scheduler.Enqueue(i, pod);
      while (scheduler.HasActive()) {
        const ScheduleResult r = scheduler.ScheduleOne();
        log.push_back(std::to_string(r.pod) + ":" + std::to_string(r.node) +
                      ":" + r.message);
        if (r.outcome == Outcome::kBound) {
          bound.push_back(r.pod);
          for (const DeviceGrant& g : scheduler.AllocationOf(r.pod).grants) {
            log.back() += "/" + std::to_string(g.gpu) + "." +
                          std::to_string(g.instance) + "." +
                          std::to_string(g.replica);
          }
        }
      }
      if (rng.Below(3) == 0 && !bound.empty()) {
        const size_t k = rng.Below(bound.size());
        scheduler.Release(bound[k]);
        bound.erase(bound.begin() + static_cast<long>(k));
      }
    }
    return log;
  };
  const std::vector<std::string> pruned = replay(true);
  const std::vector<std::string> full = replay(false);
  ASSERT_EQ(pruned.size(), full.size());
  EXPECT_EQ(pruned, full);
  // Nor does reusing the filter results and scores of unchanged nodes.
  const std::vector<std::string> recomputed = replay(true, /*reuse=*/false);
  ASSERT_EQ(pruned.size(), recomputed.size());
  EXPECT_EQ(pruned, recomputed);
}

TEST_F(SchedulerTest, ReusingNodeResultsChangesNothingUnderHami) {
  // HAMi pods of many shapes (gpumem, gpucores) on 150 nodes, arriving and
  // leaving: the same nodes and devices with and without reuse of unchanged
  // nodes' filter results and scores (HAMiNodePolicy's included).
  auto replay = [](bool reuse) {
    Cluster cluster(Catalog::Builtin());
    NodePoolSpec a;
    a.name = "a";
    a.gpu_model = "A100-80GB";
    a.nodes = 150;
    a.gpus_per_node = 4;
    a.sharing = HamiSharing();
    cluster.AddPool(a);
    SchedulerProfile profile;
    profile.seed = 5;
    profile.reuse_node_results = reuse;
    profile.check_invariants = true;
    Scheduler scheduler(cluster, profile);
    std::deque<Pod> pods;
    std::vector<std::string> log;
    Rng rng(13);
    std::vector<PodId> bound;
    for (int i = 0; i < 3000; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(2)));
      pod.requests.Set(ResourceRegistry::kMemoryId, 4096);
      pod.requests.Set(cluster.resources().Intern("nvidia.com/gpu"),
                       1 + static_cast<int64_t>(rng.Below(2)));
      if (rng.Below(4) != 0) {
        pod.requests.Set(cluster.resources().Intern("nvidia.com/gpumem"),
                         1000 + static_cast<int64_t>(rng.Below(40000)));
        pod.requests.Set(cluster.resources().Intern("nvidia.com/gpucores"),
                         1 + static_cast<int64_t>(rng.Below(100)));
      }
      ScheduleAndChurn(scheduler, i, pod, rng, &bound, &log);
    }
    return log;
  };
  const std::vector<std::string> reused = replay(true);
  const std::vector<std::string> recomputed = replay(false);
  ASSERT_EQ(reused.size(), recomputed.size());
  EXPECT_EQ(reused, recomputed);
}

TEST_F(SchedulerTest, DiagnosisCachesChangeNoMessage) {
  // Three pools told apart by labels and a taint, pods of many shapes that
  // select a pool (or none) and tolerate the taint (or not), arriving and
  // leaving while GPUs fail and recover and node labels change: the
  // FitError messages (Diagnose: the static filters' reasons cached per
  // constraints, each shape's reasons per unchanged node) are those of a
  // scheduler that recomputes every node's reasons at every failure.
  auto replay = [](bool reuse, bool refresh_every_cycle) {
    Cluster cluster(Catalog::Builtin());
    NodePoolSpec a;
    a.name = "a";
    a.gpu_model = "A100-80GB";
    a.nodes = 60;
    a.gpus_per_node = 4;
    a.sharing = HamiSharing();
    cluster.AddPool(a);
    NodePoolSpec b = a;
    b.name = "b";
    b.nodes = 30;
    b.sharing = ExclusiveSharing();
    b.taints = {{"dedicated", "b", TaintEffect::kNoSchedule}};
    cluster.AddPool(b);
    NodePoolSpec c = a;
    c.name = "c";
    c.nodes = 30;
    c.sharing = TimeSlicingSharing(2);
    cluster.AddPool(c);
    const int num_nodes = 120;
    SchedulerProfile profile;
    profile.seed = 21;
    profile.reuse_node_results = reuse;
    profile.check_invariants = true;
    Scheduler scheduler(cluster, profile);
    std::deque<Pod> pods;
    std::vector<std::string> log;
    Rng rng(23);
    std::vector<PodId> bound;
    const char* pools[] = {"a", "b", "c"};
    for (int i = 0; i < 2500; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(8)));
      pod.requests.Set(ResourceRegistry::kMemoryId, 4096);
      pod.requests.Set(cluster.resources().Intern("nvidia.com/gpu"),
                       1 + static_cast<int64_t>(rng.Below(2)));
      if (rng.Below(2) == 0) {
        pod.requests.Set(cluster.resources().Intern("nvidia.com/gpumem"),
                         1000 + 1000 * static_cast<int64_t>(rng.Below(60)));
      }
      const uint64_t pool = rng.Below(4);
      if (pool < 3) pod.node_selector[kNodePoolLabel] = pools[pool];
      if (rng.Below(2) == 0) {
        Toleration t;
        t.key = "dedicated";
        t.value = "b";
        pod.tolerations.push_back(t);
      }
      if (refresh_every_cycle) scheduler.NodeChanged(0);
      ScheduleAndChurn(scheduler, i, pod, rng, &bound, &log);
      if (rng.Below(40) == 0) {
        const int node = static_cast<int>(rng.Below(num_nodes));
        const bool healthy = rng.Below(2) == 0;
        cluster.nodes()[node].devices()->SetHealthy(
            static_cast<int>(rng.Below(4)), -1, healthy);
        scheduler.DevicesChanged(node, healthy);
      }
      if (rng.Below(200) == 0) {
        // A node moves to another pool's label (kubectl label --overwrite).
        const int node = static_cast<int>(rng.Below(num_nodes));
        Labels labels = cluster.nodes()[node].labels();
        labels[kNodePoolLabel] = pools[rng.Below(3)];
        cluster.nodes()[node].SetLabels(labels);
        scheduler.NodeChanged(node);
      }
    }
    return log;
  };
  const std::vector<std::string> cached = replay(true, false);
  const std::vector<std::string> fresh = replay(false, true);
  ASSERT_EQ(cached.size(), fresh.size());
  EXPECT_EQ(cached, fresh);
  int failures = 0;
  for (const std::string& line : cached) {
    failures += line.find("nodes are available") != std::string::npos;
  }
  EXPECT_GT(failures, 1000);  // the caches were exercised
}

TEST_F(SchedulerTest, PruningByHamiFreeSummaryChangesNothing) {
  // HAMi pods of many shapes (vGPU count, gpumem or gpumem-percentage,
  // gpucores, defaults) on a HAMi pool and a time-slicing pool, arriving and
  // leaving while GPUs fail and recover: the same nodes, devices and
  // messages with and without the scheduler's pruning by HAMi free summary.
  auto replay = [](bool prune) {
    Cluster cluster(Catalog::Builtin());
    NodePoolSpec a;
    a.name = "a";
    a.gpu_model = "A100-80GB";
    a.nodes = 140;
    a.gpus_per_node = 4;
    a.sharing = HamiSharing();
    cluster.AddPool(a);
    NodePoolSpec b = a;
    b.name = "b";
    b.nodes = 40;
    b.sharing = TimeSlicingSharing(2);
    cluster.AddPool(b);
    SchedulerProfile profile;
    profile.seed = 9;
    profile.prune_by_free_resources = prune;
    profile.check_invariants = true;
    Scheduler scheduler(cluster, profile);
    std::deque<Pod> pods;
    std::vector<std::string> log;
    Rng rng(17);
    std::vector<PodId> bound;
    for (int i = 0; i < 3000; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(2)));
      pod.requests.Set(ResourceRegistry::kMemoryId, 4096);
      if (rng.Below(5) != 0) {
        pod.requests.Set(cluster.resources().Intern("nvidia.com/gpu"),
                         1 + static_cast<int64_t>(rng.Below(3)));
      }
      switch (rng.Below(4)) {
        case 0:
          pod.requests.Set(cluster.resources().Intern("nvidia.com/gpumem"),
                           1000 + static_cast<int64_t>(rng.Below(60000)));
          break;
        case 1:
          pod.requests.Set(
              cluster.resources().Intern("nvidia.com/gpumem-percentage"),
              1 + static_cast<int64_t>(rng.Below(100)));
          break;
        default:
          break;
      }
      if (rng.Below(3) != 0) {
        pod.requests.Set(cluster.resources().Intern("nvidia.com/gpucores"),
                         1 + static_cast<int64_t>(rng.Below(100)));
      }
      ScheduleAndChurn(scheduler, i, pod, rng, &bound, &log);
      if (rng.Below(50) == 0) {
        const int node = static_cast<int>(rng.Below(180));
        const int gpu = static_cast<int>(rng.Below(4));
        const bool healthy = rng.Below(2) == 0;
        cluster.nodes()[node].devices()->SetHealthy(gpu, -1, healthy);
        scheduler.DevicesChanged(node, healthy);
      }
    }
    return log;
  };
  const std::vector<std::string> pruned = replay(true);
  const std::vector<std::string> full = replay(false);
  ASSERT_EQ(pruned.size(), full.size());
  EXPECT_EQ(pruned, full);
}

TEST_F(SchedulerTest, ExactHamiFitSummaryChangesNothingOnTightNodes) {
  // HAMi pods whose gpumem and gpucores (1..99) are given, so that the
  // scheduler's HamiFitSummary decides NodeResourcesFit and GpuDeviceFit
  // alone, on nodes short of every resource in turn (cpu, memory, pods,
  // slots, GPU memory and cores; 2, 8 and 10 GPUs per node) while GPUs fail
  // and recover: the same nodes, devices and messages as the full scan.
  auto replay = [](bool prune) {
    Cluster cluster(Catalog::Builtin());
    auto add = [&](const char* name, const char* model, int nodes, int gpus,
                   int split_count, int max_pods) {
      NodePoolSpec spec;
      spec.name = name;
      spec.gpu_model = model;
      spec.nodes = nodes;
      spec.gpus_per_node = gpus;
      spec.cpu_milli = 12000;
      spec.memory_mib = 48 * 1024;
      spec.max_pods = max_pods;
      spec.sharing = HamiSharing();
      spec.sharing.hami.split_count = split_count;
      cluster.AddPool(spec);
    };
    add("a", "A100-40GB", 40, 2, 3, 7);
    add("b", "A100-80GB", 40, 8, 2, 3);
    add("c", "A30-24GB", 30, 10, 4, 5);
    SchedulerProfile profile;
    profile.seed = 4;
    profile.prune_by_free_resources = prune;
    profile.check_invariants = true;
    Scheduler scheduler(cluster, profile);
    const int num_nodes = static_cast<int>(cluster.nodes().size());
    std::deque<Pod> pods;
    std::vector<std::string> log;
    Rng rng(29);
    std::vector<PodId> bound;
    ResourceRegistry& r = cluster.resources();
    for (int i = 0; i < 3000; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(4)));
      pod.requests.Set(ResourceRegistry::kMemoryId,
                       4096 * (1 + static_cast<int64_t>(rng.Below(4))));
      pod.requests.Set(r.Intern("nvidia.com/gpu"),
                       1 + static_cast<int64_t>(rng.Below(3)));
      pod.requests.Set(r.Intern("nvidia.com/gpumem"),
                       1000 + static_cast<int64_t>(rng.Below(30000)));
      pod.requests.Set(r.Intern("nvidia.com/gpucores"),
                       1 + static_cast<int64_t>(rng.Below(99)));
      ScheduleAndChurn(scheduler, i, pod, rng, &bound, &log);
      if (rng.Below(20) == 0) {
        const int node = static_cast<int>(rng.Below(num_nodes));
        Node& n = cluster.nodes()[node];
        const bool healthy = rng.Below(2) == 0;
        n.devices()->SetHealthy(static_cast<int>(rng.Below(n.gpus())), -1,
                                healthy);
        scheduler.DevicesChanged(node, healthy);
      }
    }
    return log;
  };
  const std::vector<std::string> pruned = replay(true);
  const std::vector<std::string> full = replay(false);
  ASSERT_EQ(pruned.size(), full.size());
  EXPECT_EQ(pruned, full);
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
