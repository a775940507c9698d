// Hand-computed runs with KAI-Scheduler's queues in front of
// kube-scheduler: reclaim down to the fair share, allocations converging to
// the deserved quotas, a non-leaf queue refused.

#include <gtest/gtest.h>

#include <cmath>

#include "gpushare/io/input_error.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_kai_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

KaiQueueSpec Queue(const std::string& name, double quota,
                   const std::string& parent = "") {
  KaiQueueSpec q;
  q.name = name;
  q.parent = parent;
  q.gpu_quota = quota;
  return q;
}

Scenario WithKai(Scenario s, std::vector<KaiQueueSpec> queues) {
  s.kai_queues.queues = std::move(queues);
  s.scheduler.check_invariants = true;
  return s;
}

Pod Queued(Pod pod, const std::string& queue) {
  pod.queue_name = queue;
  return pod;
}

// a takes all 8 GPUs at 0 s (b requests nothing). b's 2 jobs at 100 s:
// fair shares a 6, b 2 (quotas 4 and 4; b wants only 2), so b reclaims two
// of a's jobs, the newest (a7, a6: grace 30 s, b starts at 130 s), and no
// third: a keeps its fair share. a's victims lost 100 s each and run again
// when a's other jobs end at 1000 s.
TEST(SimulationKaiTest, ReclaimDownToTheFairShare) {
  std::vector<Pod> pods;
  for (int k = 0; k < 8; ++k) {
    pods.push_back(Queued(TraceJob("a" + std::to_string(k), 0, 1000), "a"));
  }
  for (int k = 0; k < 2; ++k) {
    pods.push_back(Queued(TraceJob("b" + std::to_string(k), 100, 1000), "b"));
  }
  const SimulationResult r = testing_scenarios::RunAndCollect(
      WithKai(ExclusiveWithPods(8, pods), {Queue("a", 4), Queue("b", 4)}));
  ASSERT_EQ(r.succeeded, 10);
  EXPECT_EQ(r.queue_system, "KAI-Scheduler");
  EXPECT_EQ(r.preemptions, 2);
  for (int k : {6, 7}) {
    EXPECT_EQ(r.pod_records[k].preemptions, 1) << k;
    EXPECT_NEAR(r.pod_records[k].end_s, 2000, 1e-6) << k;
  }
  EXPECT_NEAR(r.lost_work_s, 200, 1e-6);
  for (int k : {8, 9}) {
    EXPECT_NEAR(r.pod_records[k].start_s, 130, 1e-6) << k;
  }
  ASSERT_EQ(r.queues.size(), 2u);
  EXPECT_EQ(r.queues[0].evictions, 2);
  ASSERT_EQ(r.queues[1].preempted_by_reason.size(), 1u);
  EXPECT_EQ(r.queues[1].preempted_by_reason[0].first, "Reclaim");
  EXPECT_EQ(r.queues[1].preempted_by_reason[0].second, 2);
}

// Three queues deserving 2, 2 and 4 of 8 GPUs, each with far more work
// than that; a arrives first and takes everything. Once b and c ask,
// reclaim and the allocation order bring every queue to its deserved
// quota (the fair shares, as the quotas use the whole cluster) and keep it
// there: over the second half of the run each queue holds its quota.
TEST(SimulationKaiTest, FairShareConvergesToDeservedQuotas) {
  std::vector<Pod> pods;
  const std::vector<std::pair<std::string, double>> queues = {
      {"a", 2}, {"b", 2}, {"c", 4}};
  for (const auto& [queue, quota] : queues) {
    const double start = queue == "a" ? 0 : 50;
    for (int k = 0; k < 60; ++k) {
      pods.push_back(
          Queued(TraceJob(queue + std::to_string(k), start, 100), queue));
    }
  }
  Scenario s = WithKai(ExclusiveWithPods(8, pods),
                       {Queue("a", 2), Queue("b", 2), Queue("c", 4)});
  s.sample_interval_s = 10;
  const SimulationResult r = testing_scenarios::RunAndCollect(s);
  ASSERT_EQ(r.succeeded, 180);
  ASSERT_EQ(r.queues.size(), 3u);
  for (size_t q = 0; q < 3; ++q) {
    const QueueQuota& k = r.queues[q].quotas.at(0);
    ASSERT_EQ(k.used.size(), k.fair_share.size());
    // From 200 s (reclaim done) to 1,400 s (before c runs dry).
    double used = 0, fair = 0;
    int n = 0;
    for (size_t i = 0; i < k.used.size(); ++i) {
      const double t = r.pools[0].samples[i].time_s;
      if (t < 200 || t > 1400) continue;
      used += k.used[i];
      fair += k.fair_share[i];
      ++n;
    }
    ASSERT_GT(n, 100);
    EXPECT_NEAR(used / n, queues[q].second, 0.05) << r.queues[q].name;
    EXPECT_NEAR(fair / n, queues[q].second, 1e-9) << r.queues[q].name;
  }
  // a was over its share at 50 s and gave back what b and c deserved.
  EXPECT_EQ(r.queues[0].evictions, 6);
}

TEST(SimulationKaiTest, APodOfAParentQueueIsAnInputError) {
  std::vector<Pod> pods = {Queued(TraceJob("j", 0, 10), "org")};
  Scenario s = WithKai(ExclusiveWithPods(2, pods),
                       {Queue("org", 2), Queue("a", 2, "org")});
  try {
    testing_scenarios::RunAndCollect(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a leaf queue of kai_queues"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace simulation_kai_test
}  // namespace gpushare
