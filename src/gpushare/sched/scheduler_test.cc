// Scheduling scenarios per sharing scheme: fits, does not fit, and the
// reason kube-scheduler would give (NVIDIA/k8s-device-plugin README,
// Project-HAMi/HAMi pkg/device/nvidia/device.go, kubernetes/kubernetes
// pkg/scheduler; sources per rule in docs/model.md §2–4).

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

TEST_F(SchedulerTest, ExclusiveWholeGpus) {
  cluster_.AddPool(Pool("train", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 3; ++i) NewPod({{"nvidia.com/gpu", 1}});
  auto results = Run(scheduler);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_EQ(results[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[2].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  // Lowest free index first.
  EXPECT_EQ(scheduler.AllocationOf(0).grants[0].gpu, 0);
  EXPECT_EQ(scheduler.AllocationOf(1).grants[0].gpu, 1);
  EXPECT_EQ(scheduler.WaitingCount(), 1);
  // A pod leaves: the waiting pod is retried and takes its GPU.
  scheduler.Release(0);
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(scheduler.AllocationOf(2).grants[0].gpu, 0);
  EXPECT_EQ(scheduler.WaitingCount(), 0);
}

TEST_F(SchedulerTest, TimeSlicingReplicasDistributed) {
  cluster_.AddPool(Pool("dev", "L4", 1, 2, TimeSlicingSharing(4)));
  EXPECT_EQ(cluster_.nodes()[0].Allocatable(
                cluster_.resources().Find("nvidia.com/gpu")),
            8);
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 9; ++i) NewPod({{"nvidia.com/gpu", 1}});
  auto results = Run(scheduler);
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(results[i].outcome, Outcome::kBound) << i;
    // distributed: the GPU with fewer allocated replicas, lowest first.
    EXPECT_EQ(scheduler.AllocationOf(i).grants[0].gpu, i % 2) << i;
    EXPECT_EQ(scheduler.AllocationOf(i).grants[0].replica, i / 2) << i;
  }
  EXPECT_EQ(results[8].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[8].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
}

TEST_F(SchedulerTest, TimeSlicingPackedAndRenamed) {
  SharingConfig sharing = TimeSlicingSharing(3);
  sharing.replicas.policy = ReplicaPolicy::kPacked;
  sharing.replicas.rename_by_default = true;
  cluster_.AddPool(Pool("dev", "T4", 1, 2, sharing));
  EXPECT_EQ(cluster_.nodes()[0].labels().at("nvidia.com/gpu.product"),
            "Tesla-T4");  // renamed: no -SHARED suffix
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 4; ++i) NewPod({{"nvidia.com/gpu.shared", 1}});
  auto results = Run(scheduler);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(results[i].outcome, Outcome::kBound);
  // packed: fill GPU 0's three replicas before GPU 1.
  EXPECT_EQ(scheduler.AllocationOf(2).grants[0].gpu, 0);
  EXPECT_EQ(scheduler.AllocationOf(3).grants[0].gpu, 1);
}

TEST_F(SchedulerTest, MpsRejectsMoreThanOneReplicaAtAdmission) {
  cluster_.AddPool(Pool("mps", "A100-40GB", 1, 1, MpsSharing(4)));
  EXPECT_EQ(cluster_.nodes()[0].labels().at("nvidia.com/gpu.sharing-strategy"),
            "mps");
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});
  NewPod({{"nvidia.com/gpu", 2}});
  auto results = Run(scheduler);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  const DeviceGrant& grant = scheduler.AllocationOf(0).grants[0];
  EXPECT_EQ(grant.memory_mib,
            40960 / 4);                // set_default_device_pinned_mem_limit
  EXPECT_EQ(grant.cores_percent, 25);  // active thread percentage
  EXPECT_EQ(results[1].outcome, Outcome::kAdmissionFailed);
  EXPECT_NE(results[1].message.find("maximum request size for shared "
                                    "resources is 1"),
            std::string::npos);
  // The failed pod released nothing and holds nothing.
  EXPECT_EQ(cluster_.nodes()[0].Requested(
                cluster_.resources().Find("nvidia.com/gpu")),
            1);
}

TEST_F(SchedulerTest, MigMixedReasonLikeKubeScheduler) {
  cluster_.AddPool(Pool("prod", "H100-80GB", 2, 1,
                        MigSharing(MigStrategy::kMixed, "all-balanced")));
  NodePoolSpec other = Pool("dev", "L4", 1, 1, ExclusiveSharing());
  other.labels["team"] = "research";
  cluster_.AddPool(other);
  EXPECT_EQ(cluster_.nodes()[0].labels().at("nvidia.com/mig-3g.40gb.count"),
            "1");
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 3; ++i) {
    Pod& pod = NewPod({{"nvidia.com/mig-3g.40gb", 1}});
    pod.node_selector[kNodePoolLabel] = "prod";
  }
  auto results = Run(scheduler);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_EQ(results[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[2].message,
            "0/3 nodes are available: 1 node(s) didn't match Pod's node "
            "affinity/selector, 2 Insufficient nvidia.com/mig-3g.40gb.");
  // The granted instance is the 3g.40gb of the balanced layout (at 4).
  const DeviceGrant& grant = scheduler.AllocationOf(0).grants[0];
  const auto* plugin = cluster_.nodes()[0].devices()->AsNvidia();
  const MigInstance& instance = plugin->layouts()[0][grant.instance];
  EXPECT_EQ(instance.start, 4);
  EXPECT_EQ(grant.memory_mib,
            plugin->model().mig->profiles[instance.profile].memory_mib);
}

TEST_F(SchedulerTest, MigSingleStrategyAdvertisesInstancesAsGpus) {
  cluster_.AddPool(Pool("infer", "A100-40GB", 1, 2,
                        MigSharing(MigStrategy::kSingle, "all-1g.5gb")));
  const Node& node = cluster_.nodes()[0];
  EXPECT_EQ(node.Allocatable(cluster_.resources().Find("nvidia.com/gpu")), 14);
  EXPECT_EQ(node.labels().at("nvidia.com/gpu.product"),
            "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb");
  EXPECT_EQ(node.labels().at("nvidia.com/gpu.count"), "14");
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 15; ++i) NewPod({{"nvidia.com/gpu", 1}});
  auto results = Run(scheduler);
  EXPECT_EQ(results[13].outcome, Outcome::kBound);
  EXPECT_EQ(results[14].outcome, Outcome::kUnschedulable);
}

TEST_F(SchedulerTest, HamiSharesGpusByMemoryAndCores) {
  cluster_.AddPool(Pool("vgpu", "A100-80GB", 1, 2, HamiSharing()));
  Scheduler scheduler(cluster_, Profile());
  // spread (HAMi's default GPU policy): the emptiest GPU first.
  NewPod({{"nvidia.com/gpu", 1},
          {"nvidia.com/gpumem", 30000},
          {"nvidia.com/gpucores", 30}});
  NewPod({{"nvidia.com/gpu", 1},
          {"nvidia.com/gpumem", 30000},
          {"nvidia.com/gpucores", 30}});
  NewPod({{"nvidia.com/gpu", 1},
          {"nvidia.com/gpumem", 60000},
          {"nvidia.com/gpucores", 30}});
  auto results = Run(scheduler);
  ASSERT_EQ(results[0].outcome, Outcome::kBound);
  ASSERT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_NE(scheduler.AllocationOf(0).grants[0].gpu,
            scheduler.AllocationOf(1).grants[0].gpu);
  EXPECT_EQ(scheduler.AllocationOf(0).grants[0].memory_mib, 30000);
  EXPECT_EQ(scheduler.AllocationOf(0).grants[0].cores_percent, 30);
  // 81920 - 30000 = 51920 MiB free on each GPU: 60000 does not fit.
  EXPECT_EQ(results[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[2].message,
            "0/1 nodes are available: 1 CardInsufficientMemory.");
}

TEST_F(SchedulerTest, HamiWholeCardIsExclusive) {
  cluster_.AddPool(Pool("vgpu", "A100-80GB", 1, 1, HamiSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1},
          {"nvidia.com/gpumem", 1000},
          {"nvidia.com/gpucores", 10}});
  NewPod({{"nvidia.com/gpu", 1}});  // webhook: 100 % memory, 100 cores
  auto results = Run(scheduler);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
}

TEST_F(SchedulerTest, TaintsAndTolerations) {
  NodePoolSpec spec = Pool("gpu", "L4", 2, 1, ExclusiveSharing());
  spec.taints.push_back(
      {"nvidia.com/gpu", "present", TaintEffect::kNoSchedule});
  cluster_.AddPool(spec);
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});
  Pod& tolerant = NewPod({{"nvidia.com/gpu", 1}});
  Toleration t;
  t.key = "nvidia.com/gpu";
  t.op = Toleration::Operator::kExists;
  tolerant.tolerations.push_back(t);
  auto results = Run(scheduler);
  EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[0].message,
            "0/2 nodes are available: 2 node(s) had untolerated taint "
            "{nvidia.com/gpu: present}.");
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
}

TEST_F(SchedulerTest, LowestNameTieBreakAndSeededRandomIsDeterministic) {
  cluster_.AddPool(Pool("a", "L4", 12, 1, ExclusiveSharing()));
  {
    Scheduler scheduler(cluster_, Profile());
    NewPod({{"nvidia.com/gpu", 1}});
    auto results = Run(scheduler);
    EXPECT_EQ(cluster_.nodes()[results[0].node].name(), "a-00");
    scheduler.Release(0);
  }
  auto place = [&](uint64_t seed) {
    std::vector<int> nodes;
    SchedulerProfile profile = Profile();
    profile.tie_break = TieBreak::kRandom;
    profile.seed = seed;
    Scheduler scheduler(cluster_, profile);
    std::deque<Pod> pods;
    for (int i = 0; i < 6; ++i) {
      Pod& pod = pods.emplace_back();
      pod.requests.Set(cluster_.resources().Find("nvidia.com/gpu"), 1);
      scheduler.Enqueue(i, pod);
    }
    while (scheduler.HasActive()) nodes.push_back(scheduler.ScheduleOne().node);
    for (int i = 0; i < 6; ++i) scheduler.Release(i);
    return nodes;
  };
  EXPECT_EQ(place(7), place(7));
  EXPECT_NE(place(7), place(8));
}

TEST_F(SchedulerTest, NumFeasibleNodesToFind) {
  // kubernetes/kubernetes pkg/scheduler/schedule_one.go
  // numFeasibleNodesToFind: below 100 all; 500 → 46 % = 230;
  // 1000 → 42 % = 420; 5000 → 10 % = 500; 6000 → 5 % floor = 300; at least
  // 100.
  EXPECT_EQ(NumFeasibleNodesToFind(99, 0), 99);
  EXPECT_EQ(NumFeasibleNodesToFind(500, 0), 230);
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 0), 420);
  EXPECT_EQ(NumFeasibleNodesToFind(5000, 0), 500);
  EXPECT_EQ(NumFeasibleNodesToFind(6000, 0), 300);
  EXPECT_EQ(NumFeasibleNodesToFind(150, 10), 100);
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 100), 1000);
}

TEST_F(SchedulerTest, BadProfileIsAnInputError) {
  cluster_.AddPool(Pool("p", "L4", 1, 1, ExclusiveSharing()));
  SchedulerProfile profile = Profile();
  profile.scores.push_back({"MostAllocatedd", 1});
  EXPECT_THROW(Scheduler(cluster_, profile), InputError);
  profile = Profile();
  profile.percentage_of_nodes_to_score = 101;
  EXPECT_THROW(Scheduler(cluster_, profile), InputError);
}

TEST_F(SchedulerTest, UnhealthyGpuLeavesAllocatableUntilItRecovers) {
  cluster_.AddPool(Pool("p", "A100-40GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  Node& node = cluster_.nodes()[0];
  const ResourceId gpu = cluster_.resources().Find("nvidia.com/gpu");
  node.devices()->SetHealthy(1, -1, false);
  scheduler.DevicesChanged(0, /*recovered=*/false);
  EXPECT_EQ(node.Allocatable(gpu), 1);
  EXPECT_EQ(node.Capacity(gpu), 2);
  NewPod({{"nvidia.com/gpu", 2}});
  std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[0].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  node.devices()->SetHealthy(1, -1, true);
  scheduler.DevicesChanged(0, /*recovered=*/true);
  EXPECT_EQ(node.Allocatable(gpu), 2);
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
}

// A stalled device plugin (kubelet lost its registration): the node
// advertises none of its GPU resources although every GPU is healthy, so a
// GPU pod finds no node; running pods keep their grants; once the plugin
// registers again the pending pod binds. Under every scheme's resource, and
// for HAMi also with gpumem and gpucores (decided by HamiFitSummary alone).
TEST_F(SchedulerTest, StalledDevicePluginAdvertisesNothingUntilItRegisters) {
  struct Case {
    SharingConfig sharing;
    const char* resource;
    int64_t count;
    std::vector<std::pair<const char*, int64_t>> extra;
  };
  const std::vector<Case> cases = {
      {ExclusiveSharing(), "nvidia.com/gpu", 1, {}},
      {TimeSlicingSharing(4), "nvidia.com/gpu", 1, {}},
      {MigSharing(MigStrategy::kMixed, "all-balanced"),
       "nvidia.com/mig-1g.10gb",
       1,
       {}},
      {HamiSharing(), "nvidia.com/gpu", 1, {}},
      {HamiSharing(),
       "nvidia.com/gpu",
       1,
       {{"nvidia.com/gpumem", 10000}, {"nvidia.com/gpucores", 30}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.resource);
    Cluster cluster(Catalog::Builtin());
    cluster.AddPool(Pool("p", "A100-80GB", 1, 2, c.sharing));
    Scheduler scheduler(cluster, Profile());
    Node& node = cluster.nodes()[0];
    const ResourceId id = cluster.resources().Find(c.resource);
    ASSERT_GE(id, 0);
    const int64_t advertised = node.Allocatable(id);
    ASSERT_GT(advertised, 0);

    std::vector<Pod> pods(2);
    for (size_t i = 0; i < pods.size(); ++i) {
      Pod& pod = pods[i];
      pod.name = "pod-" + std::to_string(i);
      pod.cpu_milli = 1000;
      pod.memory_mib = 1024;
      pod.requests.Set(ResourceRegistry::kCpuId, pod.cpu_milli);
      pod.requests.Set(ResourceRegistry::kMemoryId, pod.memory_mib);
      pod.requests.Set(id, c.count);
      for (const auto& [name, quantity] : c.extra) {
        pod.requests.Set(cluster.resources().Intern(name), quantity);
      }
    }
    scheduler.Enqueue(0, pods[0]);
    ASSERT_EQ(scheduler.ScheduleOne().outcome, Outcome::kBound);

    node.SetDevicePluginRegistered(false);
    scheduler.DevicesChanged(0, /*recovered=*/false);
    EXPECT_EQ(node.Allocatable(id), 0);
    EXPECT_EQ(node.Capacity(id), advertised);
    EXPECT_TRUE(scheduler.IsBound(0));
    scheduler.Enqueue(1, pods[1]);
    const ScheduleResult stalled = scheduler.ScheduleOne();
    EXPECT_EQ(stalled.outcome, Outcome::kUnschedulable);
    EXPECT_EQ(stalled.message, std::string("0/1 nodes are available: 1 "
                                           "Insufficient ") +
                                   c.resource + ".");

    node.SetDevicePluginRegistered(true);
    scheduler.DevicesChanged(0, /*recovered=*/true);
    EXPECT_EQ(node.Allocatable(id), advertised);
    ASSERT_TRUE(scheduler.HasActive());
    EXPECT_EQ(scheduler.ScheduleOne().outcome, Outcome::kBound);
    EXPECT_TRUE(scheduler.IsBound(1));
  }
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
