// Hand-computed runs with Kueue in front of kube-scheduler: quota holds
// pods back, borrowed quota is reclaimed by eviction, a gang is admitted
// as one workload.

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_kueue_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario);
}

ClusterQueueSpec Team(const std::string& name, int64_t gpus,
                      const std::string& cohort) {
  ClusterQueueSpec q;
  q.name = name;
  q.cohort = cohort;
  ResourceGroupSpec g;
  g.covered_resources = {"cpu", "memory", "nvidia.com/gpu"};
  g.flavors.push_back({"p",
                       {{"cpu", 100000, {}, {}},
                        {"memory", 1 << 20, {}, {}},
                        {"nvidia.com/gpu", gpus, {}, {}}}});
  q.resource_groups.push_back(g);
  return q;
}

Scenario WithQueues(Scenario s, std::vector<ClusterQueueSpec> queues) {
  s.queues.resource_flavors = {{"p", {{kNodePoolLabel, "p"}}}};
  for (const ClusterQueueSpec& q : queues) {
    s.queues.local_queues.push_back({q.name, "default", q.name});
  }
  s.queues.cluster_queues = std::move(queues);
  s.scheduler.check_invariants = true;
  return s;
}

Pod Queued(Pod pod, const std::string& queue) {
  pod.queue_name = queue;
  return pod;
}

// One queue of 2 GPUs on a node of 4: the third job waits for quota, not
// for a GPU, and starts when the first ends.
TEST(SimulationKueueTest, QuotaHoldsPodsBack) {
  std::vector<Pod> pods;
  for (int k = 0; k < 3; ++k) {
    pods.push_back(Queued(TraceJob("j" + std::to_string(k), k, 100), "a"));
  }
  const SimulationResult r =
      RunIt(WithQueues(ExclusiveWithPods(4, pods), {Team("a", 2, "")}));
  ASSERT_EQ(r.succeeded, 3);
  EXPECT_NEAR(r.pod_records[2].start_s, 100, 1e-6);
  EXPECT_NEAR(r.pod_records[2].wait_s, 98, 1e-6);
}

// Team a borrows b's idle 4 GPUs for 8 jobs; b's 2 jobs at 100 s reclaim
// them one at a time: b0 evicts a's most recently admitted (a7, grace 30 s:
// b0 starts at 130 s) while b1 waits behind it in b's queue, then evicts a6
// (b1 starts at 160 s). a's victims (100 s and 130 s of work lost) are
// back in their queue, admitted again when a's other jobs end at 1000 s.
TEST(SimulationKueueTest, BorrowThenReclaim) {
  std::vector<Pod> pods;
  for (int k = 0; k < 8; ++k) {
    pods.push_back(Queued(TraceJob("a" + std::to_string(k), 0, 1000), "a"));
  }
  for (int k = 0; k < 2; ++k) {
    pods.push_back(Queued(TraceJob("b" + std::to_string(k), 100, 1000), "b"));
  }
  ClusterQueueSpec b = Team("b", 4, "org");
  b.reclaim_within_cohort = KueuePreemptionPolicy::kAny;
  const SimulationResult r =
      RunIt(WithQueues(ExclusiveWithPods(8, pods), {Team("a", 4, "org"), b}));
  ASSERT_EQ(r.succeeded, 10);
  EXPECT_EQ(r.preemptions, 2);
  for (int k : {6, 7}) {
    EXPECT_EQ(r.pod_records[k].preemptions, 1) << k;
    EXPECT_NEAR(r.pod_records[k].end_s, 2000, 1e-6) << k;
  }
  EXPECT_NEAR(r.lost_work_s, 230, 1e-6);
  EXPECT_NEAR(r.pod_records[8].start_s, 130, 1e-6);
  EXPECT_NEAR(r.pod_records[9].start_s, 160, 1e-6);
  EXPECT_NEAR(r.pod_records[9].end_s, 1160, 1e-6);
}

// A gang of 4 in a queue of 4 GPUs is one workload: admitted whole once a
// 2-GPU job of the queue ends, never in part.
TEST(SimulationKueueTest, GangIsAdmittedAsOneWorkload) {
  std::vector<Pod> pods;
  Pod big = Queued(TraceJob("big", 0, 500), "a");
  big.needs.gpus = 2;
  pods.push_back(big);
  for (int k = 0; k < 4; ++k) {
    Pod m = Queued(TraceJob("ddp-" + std::to_string(k), 1, 200), "a");
    m.pod_group = "ddp";
    m.gang_min_member = 4;
    m.gang_timeout_s = 60;
    pods.push_back(m);
  }
  const SimulationResult r =
      RunIt(WithQueues(ExclusiveWithPods(8, pods), {Team("a", 4, "")}));
  ASSERT_EQ(r.succeeded, 5);
  EXPECT_EQ(r.gang_timeouts, 0);  // never bound in part
  for (int k = 1; k <= 4; ++k) {
    EXPECT_NEAR(r.pod_records[k].start_s, 500, 1e-6);
    EXPECT_NEAR(r.pod_records[k].end_s, 700, 1e-6);
  }
}

TEST(SimulationKueueTest, UncoveredResourceIsAnInputError) {
  ClusterQueueSpec q = Team("a", 4, "");
  q.resource_groups[0].covered_resources = {"nvidia.com/gpu"};
  q.resource_groups[0].flavors[0].resources = {{"nvidia.com/gpu", 4, {}, {}}};
  const Scenario s = WithQueues(
      ExclusiveWithPods(4, {Queued(TraceJob("j", 0, 10), "a")}), {q});
  const Catalog catalog = Catalog::Builtin();
  try {
    Simulation sim(s, catalog);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("request cpu, which no resource "
                                         "group of ClusterQueue 'a' covers"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace simulation_kueue_test
}  // namespace gpushare
