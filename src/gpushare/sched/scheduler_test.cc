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

namespace gpushare {
namespace scheduler_test {
namespace {

using Outcome = ScheduleResult::Outcome;

class SchedulerTest : public ::testing::Test {
 protected:
  NodePoolSpec Pool(std::string name, const char* model, int nodes, int gpus,
                    SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = std::move(name);
    spec.gpu_model = model;
    spec.nodes = nodes;
    spec.gpus_per_node = gpus;
    spec.cpu_milli = 64000;
    spec.memory_mib = 512 * 1024;
    spec.sharing = std::move(sharing);
    return spec;
  }

  // A pod with `extended` requests (name, quantity) and 1 CPU, 1 GiB.
  Pod& NewPod(std::vector<std::pair<std::string, int64_t>> extended,
              int32_t priority = 0) {
    Pod& pod = pods_.emplace_back();
    pod.name = "pod-" + std::to_string(pods_.size() - 1);
    pod.priority = priority;
    pod.requests.Set(ResourceRegistry::kCpuId, 1000);
    pod.requests.Set(ResourceRegistry::kMemoryId, 1024);
    for (const auto& [name, quantity] : extended) {
      pod.requests.Set(cluster_.resources().Intern(name), quantity);
    }
    return pod;
  }

  SchedulerProfile Profile() {
    SchedulerProfile profile;
    profile.check_invariants = true;
    profile.tie_break = TieBreak::kLowestName;
    return profile;
  }

  // Enqueues every pod not yet enqueued and runs cycles until the queue is
  // empty; returns the results in order.
  std::vector<ScheduleResult> Run(Scheduler& scheduler) {
    for (; enqueued_ < pods_.size(); ++enqueued_) {
      scheduler.Enqueue(static_cast<PodId>(enqueued_), pods_[enqueued_]);
    }
    std::vector<ScheduleResult> results;
    while (scheduler.HasActive()) results.push_back(scheduler.ScheduleOne());
    return results;
  }

  Cluster cluster_{Catalog::Builtin()};
  std::deque<Pod> pods_;  // stable addresses
  size_t enqueued_ = 0;
};

// Enqueues `pod` as `id` and runs every cycle it allows, logging
// "pod:node:message[/gpu...]" per cycle; then, half of the time, releases a
// random bound pod (the churn of the replay tests below).
void ScheduleAndChurn(Scheduler& scheduler, PodId id, const Pod& pod, Rng& rng,
                      std::vector<PodId>* bound,
                      std::vector<std::string>* log) {
  scheduler.Enqueue(id, pod);
  while (scheduler.HasActive()) {
    const ScheduleResult r = scheduler.ScheduleOne();
    log->push_back(std::to_string(r.pod) + ":" + std::to_string(r.node) + ":" +
                   r.message);
    if (r.outcome == ScheduleResult::Outcome::kBound) {
      bound->push_back(r.pod);
      for (const DeviceGrant& g : scheduler.AllocationOf(r.pod).grants) {
        log->back() += "/" + std::to_string(g.gpu);
      }
    }
  }
  if (rng.Below(2) == 0 && !bound->empty()) {
    const size_t k = rng.Below(bound->size());
    scheduler.Release((*bound)[k]);
    bound->erase(bound->begin() + static_cast<long>(k));
  }
}

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

TEST_F(SchedulerTest, PriorityThenArrival) {
  cluster_.AddPool(Pool("p", "L4", 1, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}}, 0);
  NewPod({{"nvidia.com/gpu", 1}}, 10);
  NewPod({{"nvidia.com/gpu", 1}}, 10);
  auto results = Run(scheduler);
  EXPECT_EQ(results[0].pod, 1);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].pod, 2);
  EXPECT_EQ(results[2].pod, 0);
}

TEST_F(SchedulerTest, WaitingTwinsAreRetriedOneAtATime) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 12; ++i) NewPod({{"nvidia.com/gpu", 1}});
  Run(scheduler);
  EXPECT_EQ(scheduler.WaitingCount(), 10);
  const int64_t cycles = scheduler.cycles();
  scheduler.Release(0);
  auto results = Run(scheduler);
  // One binds; the next twin does not pass the filters on the only node
  // that changed, so it stays parked without a scheduling cycle.
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(scheduler.cycles(), cycles + 1);
  EXPECT_EQ(scheduler.WaitingCount(), 9);
  // Two GPUs free up on the node: two twins bind, one after the other.
  scheduler.Release(1);
  scheduler.Release(2);
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_EQ(scheduler.WaitingCount(), 7);
}

// A release while a waiting pod's retry is in flight is not lost: node 0
// frees, its waiting twin is activated; node 1 frees before its cycle and a
// higher-priority pod takes node 0 first; the twin binds on node 1.
TEST_F(SchedulerTest, ReleaseDuringARetryReachesTheRetriedPod) {
  cluster_.AddPool(Pool("p", "A100-80GB", 2, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 3; ++i) NewPod({{"nvidia.com/gpu", 1}});
  Run(scheduler);
  ASSERT_EQ(scheduler.WaitingCount(), 1);  // pod 2
  scheduler.Release(0);                    // node of pod 0: pod 2 retried
  scheduler.Release(1);                    // and the other node frees
  NewPod({{"nvidia.com/gpu", 1}}, /*priority=*/100);
  const auto results = Run(scheduler);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].pod, 2);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_EQ(scheduler.WaitingCount(), 0);
}

// kube-scheduler's back-off with QueueingHints as the model: a node event
// does not retry waiting groups in back-off (it arms their timer); the
// back-off's end retries each on the nodes changed since its failure.
// Without back-off, every waiting group that fits the node is retried.
TEST_F(SchedulerTest, NodeEventsSkipGroupsInBackoff) {
  for (const double backoff : {0.0, 10.0}) {
    SCOPED_TRACE(backoff);
    pods_.clear();
    enqueued_ = 0;
    Cluster cluster(Catalog::Builtin());
    cluster.AddPool(Pool("p", "A100-80GB", 1, 2, ExclusiveSharing()));
    SchedulerProfile profile = Profile();
    profile.pod_initial_backoff_s = backoff;
    profile.pod_max_backoff_s = backoff > 0 ? backoff : 10;
    Scheduler scheduler(cluster, profile);
    // Two bind; four of distinct shapes (cpu) fail at t = 0.
    for (int i = 0; i < 6; ++i) {
      NewPod({{"nvidia.com/gpu", 1}})
          .requests.Set(ResourceRegistry::kCpuId, 1000 + i);
    }
    Run(scheduler);
    ASSERT_EQ(scheduler.WaitingCount(), 4);
    EXPECT_EQ(scheduler.NextBackoffExpiry(),
              std::numeric_limits<double>::infinity());
    const int64_t cycles = scheduler.cycles();
    scheduler.SetTime(1);
    scheduler.Release(0);
    std::vector<ScheduleResult> results = Run(scheduler);
    if (backoff == 0) {
      // All four fit the freed GPU: each gets a cycle, one binds.
      ASSERT_EQ(results.size(), 4u);
      EXPECT_EQ(results[0].outcome, Outcome::kBound);
      EXPECT_EQ(scheduler.WaitingCount(), 3);
      continue;
    }
    // In back-off: no cycle; the event armed their timers.
    EXPECT_TRUE(results.empty());
    EXPECT_EQ(scheduler.cycles(), cycles);
    EXPECT_EQ(scheduler.NextBackoffExpiry(), 10);
    scheduler.SetTime(10);
    scheduler.ExpireBackoffs();
    results = Run(scheduler);
    ASSERT_EQ(results.size(), 4u);
    EXPECT_EQ(results[0].outcome, Outcome::kBound);
    EXPECT_EQ(scheduler.WaitingCount(), 3);
    // The three that failed again back off until 20, with no timer until
    // an event comes.
    EXPECT_EQ(scheduler.NextBackoffExpiry(),
              std::numeric_limits<double>::infinity());
  }
}

// A back-off that ends at the instant of a node event ends first: the pod
// is retried once, on the nodes changed since its failure (this one too).
TEST_F(SchedulerTest, BackoffEndingAtANodeEventRetriesOnce) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 3, ExclusiveSharing()));
  SchedulerProfile profile = Profile();
  profile.pod_initial_backoff_s = 10;
  profile.pod_max_backoff_s = 10;
  Scheduler scheduler(cluster_, profile);
  for (int i = 0; i < 5; ++i) NewPod({{"nvidia.com/gpu", 1}});
  Run(scheduler);
  ASSERT_EQ(scheduler.WaitingCount(), 2);  // pods 3 and 4, until 10
  const int64_t cycles = scheduler.cycles();
  scheduler.SetTime(5);
  scheduler.Release(0);  // arms the timer; no cycle
  EXPECT_TRUE(Run(scheduler).empty());
  EXPECT_EQ(scheduler.NextBackoffExpiry(), 10);
  scheduler.SetTime(10);
  scheduler.Release(1);  // before the timer is looked at
  std::vector<ScheduleResult> results = Run(scheduler);
  // Pod 3 binds (GPU 0 or 1); its twin 4 is retried next and binds too.
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[1].pod, 4);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  scheduler.ExpireBackoffs();
  EXPECT_TRUE(Run(scheduler).empty());
  EXPECT_EQ(scheduler.cycles(), cycles + 2);
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
