// The scheduling queue (scheduling_queue.cc): order by priority then
// arrival, waiting groups of identical pods retried one at a time, wake-ups
// on releases and node events, and kube-scheduler's back-off.

#include "gpushare/sched/scheduler.h"

#include <gtest/gtest.h>

#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sched/test_scheduler_fixture.h"

namespace gpushare {
namespace scheduler_test {
namespace {

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


// Whether `pod` passes the default filters on `node`, judged from the node
// itself (its labels, free resources and device plugin), not from any cache
// or hint of the scheduler: the reference of the test below.
bool FitsByHand(const Cluster& cluster, const Pod& pod, const Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.labels().find(key);
    if (it == node.labels().end() || it->second != value) return false;
  }
  if (node.pod_count() + 1 > node.max_pods()) return false;
  bool extended = false;
  for (const auto& [id, quantity] : pod.requests.items()) {
    extended = extended || id > ResourceRegistry::kMemoryId;
    if (cluster.resources().IgnoredByScheduler(id)) continue;
    if (quantity > node.Allocatable(id) - node.Requested(id)) return false;
  }
  return !extended ||
         (node.devices() != nullptr && node.devices()->Fits(pod.requests, nullptr));
}

TEST_F(SchedulerTest, NodeEventsRetryEveryWaitingPodThatFits) {
  // QueueingHints' promise: a node event re-tests only the waiting groups
  // whose static filters pass its node and, for HAMi pods, whose free
  // summary admits them — and never skips one that could fit. Three pools
  // (HAMi, exclusive, time-slicing) and pods of many shapes, most bound to
  // one pool by selector, arrive and leave while GPUs fail and recover and
  // nodes change pools: after every event, no waiting pod fits any node.
  Cluster cluster(Catalog::Builtin());
  const char* names[] = {"a", "b", "c"};
  const SharingConfig sharing[] = {HamiSharing(), ExclusiveSharing(),
                                   TimeSlicingSharing(2)};
  for (int p = 0; p < 3; ++p) {
    NodePoolSpec spec;
    spec.name = names[p];
    spec.gpu_model = "A100-80GB";
    spec.nodes = 6;
    spec.gpus_per_node = 2;
    spec.sharing = sharing[p];
    cluster.AddPool(spec);
  }
  const int num_nodes = static_cast<int>(cluster.nodes().size());
  SchedulerProfile profile;
  profile.seed = 5;
  profile.check_invariants = true;
  Scheduler scheduler(cluster, profile);
  std::deque<Pod> pods;
  std::vector<std::string> log;
  std::vector<PodId> bound;
  Rng rng(31);
  const ResourceId gpu = cluster.resources().Intern("nvidia.com/gpu");
  const ResourceId gpumem = cluster.resources().Intern("nvidia.com/gpumem");
  const ResourceId gpucores = cluster.resources().Intern("nvidia.com/gpucores");
  std::vector<char> placed(1500, 0);
  size_t logged = 0;
  int waiting_seen = 0;
  for (int i = 0; i < 1500; ++i) {
    Pod& pod = pods.emplace_back();
    pod.name = "p" + std::to_string(i);
    pod.requests.Set(ResourceRegistry::kCpuId, 1000 * (1 + rng.Below(4)));
    pod.requests.Set(ResourceRegistry::kMemoryId, 4096);
    pod.requests.Set(gpu, 1 + static_cast<int64_t>(rng.Below(2)));
    const uint64_t pool = rng.Below(4);
    if (pool < 3) pod.node_selector[kNodePoolLabel] = names[pool];
    if (pool == 0 || (pool == 3 && rng.Below(2) == 0)) {
      pod.requests.Set(gpumem, 4000 * (1 + static_cast<int64_t>(rng.Below(16))));
      pod.requests.Set(gpucores, 10 * (1 + static_cast<int64_t>(rng.Below(9))));
    }
    ScheduleAndChurn(scheduler, i, pod, rng, &bound, &log);
    if (rng.Below(30) == 0) {
      const int node = static_cast<int>(rng.Below(num_nodes));
      const bool healthy = rng.Below(2) == 0;
      cluster.nodes()[node].devices()->SetHealthy(
          static_cast<int>(rng.Below(2)), -1, healthy);
      scheduler.DevicesChanged(node, healthy);
    } else if (rng.Below(60) == 0) {
      const int node = static_cast<int>(rng.Below(num_nodes));
      Labels labels = cluster.nodes()[node].labels();
      labels[kNodePoolLabel] = names[rng.Below(3)];
      cluster.nodes()[node].SetLabels(labels);
      scheduler.NodeChanged(node);
    }
    // The events above may have activated pods: run their cycles.
    while (scheduler.HasActive()) {
      const ScheduleResult r = scheduler.ScheduleOne();
      log.push_back(std::to_string(r.pod) + ":" + std::to_string(r.node) +
                    ":" + r.message);
      if (r.outcome == Outcome::kBound) bound.push_back(r.pod);
    }
    // A cycle that chose a node ("pod:node:...", node >= 0) bound the pod
    // or had kubelet reject it: it is not pending any more.
    for (; logged < log.size(); ++logged) {
      const std::string& line = log[logged];
      const size_t colon = line.find(':');
      if (line.compare(colon + 1, 2, "-1") != 0) {
        placed[std::stoi(line.substr(0, colon))] = 1;
      }
    }
    for (int p = 0; p <= i; ++p) {
      if (placed[p]) continue;
      ++waiting_seen;
      for (int n = 0; n < num_nodes; ++n) {
        ASSERT_FALSE(FitsByHand(cluster, pods[p], cluster.nodes()[n]))
            << "waiting pod " << p << " fits node " << n << " after step "
            << i;
      }
    }
  }
  EXPECT_GT(waiting_seen, 10000);  // a queue stood, step after step
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
