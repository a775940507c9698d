// Random small multi-tenant runs (priorities, preemption policies, gangs,
// checkpoints, faults, every NVIDIA scheme, Kueue queues with random
// policies and limits, KAI-Scheduler queues with random quotas, weights and
// limits) under the scheduler's invariant
// checks: nothing is over-allocated after any bind, no gang ever runs
// partly, quota holds but for borrowing within the limits, KAI's units stay
// within the cluster's and the limits and no non-preemptible job is
// reclaimed, every eviction
// by DefaultPreemption is of a lower priority, no bind takes the room of a
// pod of equal or higher priority nominated to its node (the scheduler's
// invariant checks, at every bind), gangs preempt for their members, no pod
// is evicted for ever (a livelock would), the counting dry run agrees
// with the one on the real nodes, and the same scenario gives the same
// bytes.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace tenancy_property_test {
namespace {

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario);
}

Scenario RandomScenario(uint64_t seed) {
  Rng rng(seed);
  Scenario s;
  s.name = "property";
  s.seed = seed;
  s.sample_interval_s = 300;
  NodePoolSpec pool;
  pool.name = "p";
  pool.nodes = 1 + static_cast<int>(rng.Below(3));
  pool.gpus_per_node = 2 + static_cast<int>(rng.Below(3)) * 2;
  switch (rng.Below(4)) {
    case 0:
      pool.gpu_model = "A100-80GB";
      pool.sharing = ExclusiveSharing();
      break;
    case 1:
      pool.gpu_model = "A100-80GB";
      pool.sharing = TimeSlicingSharing(2);
      break;
    case 2:
      pool.gpu_model = "A100-80GB";
      pool.sharing = MpsSharing(2);
      break;
    default:
      pool.gpu_model = "H100-80GB";
      pool.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
      break;
  }
  s.pools.push_back(pool);
  s.workload.horizon_s = 3600;
  const int classes = 2 + static_cast<int>(rng.Below(3));
  for (int c = 0; c < classes; ++c) {
    WorkloadClassSpec k;
    k.name = "c" + std::to_string(c);
    k.workload_class = WorkloadClass::kTraining;
    k.count = 3 + static_cast<int64_t>(rng.Below(10));
    k.arrival_rate_per_s = 0.002 + 0.01 * rng.Uniform01();
    k.priority = static_cast<int32_t>(rng.Below(3)) * 100;
    if (rng.Below(4) == 0) k.preemption_policy = PreemptionPolicy::kNever;
    k.gpus = Distribution::Constant(rng.Below(3) == 0 ? 0.5 : 1);
    k.gpu_memory_mib = Distribution::Uniform(2000, 9000);
    k.sm_demand = Distribution::Uniform(0.2, 1.0);
    k.work_s = Distribution::Exponential(900);
    k.cpu_milli = Distribution::Constant(1000);
    k.memory_mib = Distribution::Constant(2048);
    k.termination_grace_period_s = 10 * static_cast<double>(rng.Below(4));
    if (rng.Below(2) == 0) k.checkpoint_interval_s = 300;
    if (rng.Below(3) == 0) {
      k.gang_size = 2 + static_cast<int>(rng.Below(3));
      k.gang_timeout_s = 120;
    }
    s.workload.classes.push_back(k);
  }
  if (rng.Below(2) == 0) {
    FaultSpec f;
    f.pool = "p";
    f.rate_per_gpu_hour = 0.2;
    f.recovery_s = 120;
    s.faults.push_back(f);
  }
  // Kueue in front for some: two ClusterQueues of one cohort splitting the
  // pool's GPUs, random policies, each class in one of them.
  const bool whole_gpus = s.pools[0].sharing.scheme() != SharingScheme::kMig;
  if (whole_gpus && rng.Below(2) == 0) {
    const int64_t gpus = s.pools[0].nodes * s.pools[0].gpus_per_node;
    s.queues.resource_flavors = {{"p", {{kNodePoolLabel, "p"}}}};
    for (int q = 0; q < 2; ++q) {
      ClusterQueueSpec cq;
      cq.name = "q" + std::to_string(q);
      cq.cohort = "org";
      if (rng.Below(2) == 0)
        cq.queueing_strategy = QueueingStrategy::kStrictFifo;
      ResourceGroupSpec g;
      g.covered_resources = {"cpu", "memory", "nvidia.com/gpu"};
      ResourceQuotaSpec gpu{"nvidia.com/gpu", gpus / 2 + q, {}, {}};
      if (rng.Below(2) == 0) gpu.borrowing_limit = rng.Below(3);
      if (rng.Below(2) == 0) gpu.lending_limit = rng.Below(2);
      g.flavors.push_back(
          {"p", {{"cpu", 1000000, {}, {}}, {"memory", 1 << 24, {}, {}}, gpu}});
      cq.resource_groups.push_back(g);
      const KueuePreemptionPolicy policies[] = {
          KueuePreemptionPolicy::kNever, KueuePreemptionPolicy::kLowerPriority,
          KueuePreemptionPolicy::kAny};
      cq.reclaim_within_cohort = policies[rng.Below(3)];
      cq.within_cluster_queue = rng.Below(2) == 0
                                    ? KueuePreemptionPolicy::kNever
                                    : KueuePreemptionPolicy::kLowerPriority;
      if (cq.reclaim_within_cohort != KueuePreemptionPolicy::kNever &&
          rng.Below(2) == 0) {
        cq.borrow_within_cohort = KueuePreemptionPolicy::kLowerPriority;
      }
      s.queues.cluster_queues.push_back(cq);
      s.queues.local_queues.push_back({cq.name, "default", cq.name});
    }
    for (WorkloadClassSpec& k : s.workload.classes) {
      if (rng.Below(4) != 0) k.queue_name = "q" + std::to_string(rng.Below(2));
    }
  } else if (rng.Below(2) == 0) {
    // Or KAI-Scheduler's queues: two leaves under one parent, random
    // quotas, weights, limits and queue priorities.
    const double gpus = s.pools[0].nodes * s.pools[0].gpus_per_node;
    KaiQueueSpec org;
    org.name = "org";
    org.gpu_quota = rng.Below(2) == 0 ? kKaiUnlimited : gpus;
    s.kai_queues.queues.push_back(org);
    for (int q = 0; q < 2; ++q) {
      KaiQueueSpec leaf;
      leaf.name = "q" + std::to_string(q);
      leaf.parent = "org";
      leaf.priority = static_cast<int>(rng.Below(2));
      leaf.gpu_quota = static_cast<double>(rng.Below(3));
      leaf.gpu_over_quota_weight = static_cast<double>(rng.Below(3));
      if (rng.Below(3) == 0) leaf.gpu_limit = leaf.gpu_quota + 2 + rng.Below(6);
      s.kai_queues.queues.push_back(leaf);
    }
    if (rng.Below(2) == 0) s.kai_queues.reclaimer_utilization_multiplier = 1.5;
    for (WorkloadClassSpec& k : s.workload.classes) {
      if (rng.Below(4) != 0) k.queue_name = "q" + std::to_string(rng.Below(2));
      // Mostly preemptible for KAI (below 100), in the same order.
      if (rng.Below(4) != 0) k.priority /= 4;
    }
  }
  if (rng.Below(3) == 0) {
    // kube-scheduler's back-off, with preemption, gangs and queues.
    s.scheduler.pod_initial_backoff_s = 1 + static_cast<double>(rng.Below(20));
    s.scheduler.pod_max_backoff_s = s.scheduler.pod_initial_backoff_s * 10;
  }
  s.scheduler.check_invariants = true;
  return s;
}

// Kueue's quota: within nominal + borrowing limit per queue, and the
// cohort within what its queues lend plus what they keep, at every sample.
void ExpectQuotaHeld(const Scenario& scenario, const SimulationResult& r) {
  if (r.queue_system != "Kueue") return;
  double capacity = 0;
  std::vector<double> cohort_used;
  for (size_t q = 0; q < r.queues.size(); ++q) {
    const QueueQuota* gpu = nullptr;
    for (const QueueQuota& k : r.queues[q].quotas) {
      if (k.resource == "nvidia.com/gpu") gpu = &k;
    }
    ASSERT_NE(gpu, nullptr);
    capacity += gpu->nominal;
    cohort_used.resize(gpu->used.size());
    for (size_t i = 0; i < gpu->used.size(); ++i) {
      if (gpu->borrowing_limit >= 0) {
        EXPECT_LE(gpu->used[i], gpu->nominal + gpu->borrowing_limit);
      }
      cohort_used[i] += gpu->used[i];
    }
  }
  for (double u : cohort_used) EXPECT_LE(u, capacity);
  (void)scenario;
}

// KAI's units: the top-level queues within the cluster's GPU units, every
// queue within its limit, and the fair shares of siblings within their
// parent's, at every sample.
void ExpectKaiBoundsHeld(const Scenario& scenario, const SimulationResult& r) {
  if (r.queue_system != "KAI-Scheduler") return;
  Cluster cluster(Catalog::Builtin());
  for (const NodePoolSpec& p : scenario.pools) cluster.AddPool(p);
  double capacity = 0;
  for (const Node& node : cluster.nodes()) {
    for (const auto& [id, quantity] : node.extended().items()) {
      capacity += static_cast<double>(GpuUnitsOf(cluster.resources().Name(id)) *
                                      quantity);
    }
  }
  ASSERT_EQ(r.queues.size(), 3u);
  const QueueQuota& org = r.queues[0].quotas.at(0);
  for (size_t i = 0; i < org.used.size(); ++i) {
    EXPECT_LE(org.used[i], capacity);
    EXPECT_LE(org.fair_share[i], capacity + 1e-6);
    double leaves = 0, fair = 0;
    for (size_t q = 1; q < 3; ++q) {
      const QueueQuota& k = r.queues[q].quotas.at(0);
      const double limit = scenario.kai_queues.queues[q].gpu_limit;
      if (limit >= 0) {
        EXPECT_LE(k.used[i], limit);
      }
      leaves += k.used[i];
      fair += k.fair_share[i];
    }
    EXPECT_DOUBLE_EQ(leaves, org.used[i]);
    EXPECT_LE(fair, org.fair_share[i] + 1e-6);
  }
}

// Equal JSON, or the first difference in context (not megabytes of it).
void ExpectSameJson(const std::string& got, const std::string& want,
                    const char* what) {
  if (got == want) return;
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  const size_t from = at > 200 ? at - 200 : 0;
  ADD_FAILURE() << what << " differs at byte " << at << ":\n  got  ..."
                << got.substr(from, 300) << "\n  want ..."
                << want.substr(from, 300);
}

TEST(TenancyPropertyTest, RandomRunsKeepTheInvariants) {
  int64_t preemptions = 0;
  int64_t gangs = 0;
  int64_t kueue_runs = 0;
  int64_t kueue_evictions = 0;
  int64_t kai_runs = 0;
  int64_t kai_evictions = 0;
  int64_t gang_preemptions = 0;
  // Seeds 1..300, 591 and 1256 (a Kueue preemption that looped for ever at
  // one instant: the victim was admitted again and evicted again) and the
  // KAI regressions below;
  // GS_PROPERTY_SEEDS=FROM-TO runs others instead (a soak: 1-3300 passes in
  // about 30 s).
  std::vector<uint64_t> seeds;
  for (uint64_t seed = 1; seed <= 300; ++seed) seeds.push_back(seed);
  seeds.push_back(591);
  seeds.push_back(1256);
  // KAI: a reclaimer's free units taken by another queue in the same cycle
  // (evictions for ever, 2147); a job whose victims were gone allocated
  // above its queue's limit (1216, 2055).
  seeds.push_back(1216);
  seeds.push_back(2055);
  seeds.push_back(2147);
  if (const char* range = getenv("GS_PROPERTY_SEEDS")) {
    char* end = nullptr;
    const uint64_t from = strtoull(range, &end, 10);
    const uint64_t to = *end == '-' ? strtoull(end + 1, nullptr, 10) : from;
    seeds.clear();
    for (uint64_t seed = from; seed <= to; ++seed) seeds.push_back(seed);
  }
  for (uint64_t seed : seeds) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Scenario scenario = RandomScenario(seed);
    SimulationResult r;
    try {
      r = RunIt(scenario);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    preemptions += r.preemptions;
    ExpectQuotaHeld(scenario, r);
    ExpectKaiBoundsHeld(scenario, r);
    const bool kai = r.queue_system == "KAI-Scheduler";
    (kai ? kai_runs : kueue_runs) += !r.queues.empty();
    for (const QueueSummary& q : r.queues) {
      (kai ? kai_evictions : kueue_evictions) += q.evictions;
    }
    std::map<std::string, int32_t> priority;
    for (const WorkloadClassSpec& c : scenario.workload.classes) {
      priority[c.name] = c.priority;
    }
    // Every eviction is of a lower priority than its preemptor's, but
    // Kueue's reclaim of quota another queue borrowed.
    for (const SimulationResult::Preemption& e : r.preemption_events) {
      const PodRecord& victim = r.pod_records[e.pod];
      const PodRecord& by = r.pod_records[e.preemptor];
      if (!victim.cluster_queue.empty() && !by.cluster_queue.empty() &&
          victim.cluster_queue != by.cluster_queue) {
        continue;
      }
      EXPECT_LT(priority[victim.tenant_class], priority[by.tenant_class]);
      gang_preemptions += !by.pod_group.empty();
    }
    // Nominated room ends the eviction loops: no pod is evicted more than
    // a handful of times in an hour's workload.
    for (const PodRecord& p : r.pod_records) {
      EXPECT_LE(p.preemptions, 10) << p.name;
    }
    // KAI never evicts a non-preemptible job (priority >= 100): only
    // DefaultPreemption does, for a higher priority.
    for (const SimulationResult::Preemption& e : r.preemption_events) {
      const PodRecord& victim = r.pod_records[e.pod];
      if (!kai || priority[victim.tenant_class] < kKaiNonPreemptiblePriority) {
        continue;
      }
      EXPECT_LT(priority[victim.tenant_class],
                priority[r.pod_records[e.preemptor].tenant_class]);
    }
    // Gang members (minMember = size) first start at one moment, or none
    // starts; each pod is in one final state.
    std::map<std::string, std::set<double>> starts;
    std::map<std::string, int> members;
    for (const PodRecord& p : r.pod_records) {
      if (p.pod_group.empty()) continue;
      ++members[p.pod_group];
      starts[p.pod_group].insert(p.start_s);
    }
    for (const auto& [group, times] : starts) {
      ++gangs;
      EXPECT_EQ(times.size(), 1u) << group;
    }
    EXPECT_EQ(r.succeeded + r.failed + r.unschedulable +
                  std::count_if(r.pod_records.begin(), r.pod_records.end(),
                                [](const PodRecord& p) {
                                  return p.outcome == PodOutcome::kPending ||
                                         p.outcome == PodOutcome::kRunning;
                                }),
              r.pods);
    // The arithmetic dry run agrees with the one on the real nodes, and a
    // second run gives the same bytes.
    Scenario slow = scenario;
    slow.scheduler.reuse_node_results = false;
    const std::string json = ResultToJson(r).dump();
    ExpectSameJson(ResultToJson(RunIt(slow)).dump(), json, "real dry run");
    ExpectSameJson(ResultToJson(RunIt(scenario)).dump(), json, "second run");
  }
  // The draw exercises what it claims to.
  EXPECT_GT(preemptions, 150);
  EXPECT_GT(gang_preemptions, 10);
  EXPECT_GT(gangs, 150);
  EXPECT_GT(kueue_runs, 80);
  EXPECT_GT(kueue_evictions, 20);
  EXPECT_GT(kai_runs, 50);
  EXPECT_GT(kai_evictions, 20) << kai_runs;
}

}  // namespace
}  // namespace tenancy_property_test
}  // namespace gpushare
