#include "gpushare/decide/planner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/plan_spec_reader.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace planner_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Two long-lived services whose 30 GB footprint needs a 3g.40gb instance
// (or a whole GPU), on nodes of one A100-80GB each.
std::string TwoServices(const std::string& plan) {
  return R"(name: two-services
seed: 7
horizon_s: 7200
cluster:
  pools:
    - name: serve
      gpu: A100-80GB
      nodes: 2
      gpus_per_node: 1
      cpu: 32
      memory_gib: 256
      sharing: {scheme: exclusive}
workload:
  horizon_s: 10
  classes:
    - name: svc
      class: inference
      count: 2
      gpus: 1
      gpu_memory_mib: 30000
      sm_demand: 0.3
      duty: 0.5
      work_s: 0
      lifetime_s: 7000
      request_rate: 5
      gpu_ms_per_request: 5
      slo_p99_ms: 1000
      cpu_milli: 4000
      memory_mib: 8192
)" + plan;
}

// `seeds` > 0 overrides compare.seeds, as plan --seeds does.
PlanResult Plan(const std::string& text, int threads = 2, int seeds = 0) {
  const Scenario scenario =
      ReadScenarioYaml(text, "two-services.yaml", TestCatalog());
  ComparisonSpec spec = ReadComparisonSpec(text, "two-services.yaml", scenario);
  if (seeds > 0) spec.compare.seeds = seeds;
  const PlanSpec plan_spec =
      ReadPlanSpec(text, "two-services.yaml", scenario, spec.selection);
  return RunPlanner(scenario, spec, plan_spec, TestCatalog(), threads);
}

const std::string kExclusiveOrMig = R"(plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: [exclusive, mig]}
)";

TEST(PlannerTest, TwoServicesThatNeed3gFitOneMigGpu) {
  const PlanResult r = Plan(TwoServices(kExclusiveOrMig));
  ASSERT_EQ(r.pools.size(), 1u);
  const PoolPlan& p = r.pools[0];
  EXPECT_EQ(p.nodes, 1);
  EXPECT_EQ(p.setting, "MIG all-3g.40gb");
  EXPECT_TRUE(p.at_minimum);
  EXPECT_TRUE(r.chosen.feasible);
  EXPECT_EQ(r.chosen_from, "search");
  EXPECT_EQ(r.chosen.gpus, 1);
  const double price = TestCatalog().Get("A100-80GB").price_per_hour;
  EXPECT_DOUBLE_EQ(r.chosen.cost_per_hour, price);
  // Exclusive needs a GPU per service: 2 nodes, what the search logged.
  bool exclusive_one_fails = false, exclusive_two_meets = false;
  for (const PlanProbe& probe : r.log) {
    if (probe.candidate != "exclusive" || probe.pilot) continue;
    if (probe.nodes == 1) exclusive_one_fails = !probe.feasible;
    if (probe.nodes == 2) exclusive_two_meets = probe.feasible;
  }
  EXPECT_TRUE(exclusive_one_fails);
  EXPECT_TRUE(exclusive_two_meets);
  // Today's plan (2 exclusive nodes) meets everything at twice the cost.
  ASSERT_FALSE(r.references.empty());
  EXPECT_EQ(r.references[0].name, "today");
  EXPECT_TRUE(r.references[0].feasible);
  EXPECT_DOUBLE_EQ(r.references[0].cost_per_hour, 2 * price);
  // The plan's scenario is what it reports.
  EXPECT_EQ(r.plan.pools[0].nodes, 1);
  EXPECT_TRUE(r.plan.pools[0].sharing.mig_enabled);
}

TEST(PlannerTest, ExclusiveOnlyNeedsTwoNodesAndSaysWhatBindsAtOne) {
  const PlanResult r = Plan(TwoServices(R"(plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: [exclusive]}
)"));
  const PoolPlan& p = r.pools[0];
  EXPECT_EQ(p.nodes, 2);
  EXPECT_EQ(p.setting, "exclusive");
  ASSERT_FALSE(p.binding.empty());
  EXPECT_EQ(p.binding[0].tenant_class, "svc");
  EXPECT_TRUE(r.chosen.feasible);
}

TEST(PlannerTest, AClusterLimitThatCannotBeMetIsReportedWithItsMiss) {
  const PlanResult r = Plan(TwoServices(R"(plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: [exclusive]}
  constraints:
    cluster: {max_gpus: 1}
)"));
  EXPECT_FALSE(r.chosen.feasible);
  const std::vector<ConstraintCheck> missed = Missed(r.chosen.checks);
  ASSERT_FALSE(missed.empty());
  bool gpus_or_class = false;
  for (const ConstraintCheck& c : missed) {
    gpus_or_class =
        gpus_or_class || c.constraint == "max_gpus" || c.tenant_class == "svc";
  }
  EXPECT_TRUE(gpus_or_class);
}

TEST(PlannerTest, SameResultOnOneAndManyThreads) {
  const PlanResult a = Plan(TwoServices(kExclusiveOrMig), 1);
  const PlanResult b = Plan(TwoServices(kExclusiveOrMig), 4);
  ASSERT_EQ(a.log.size(), b.log.size());
  for (size_t i = 0; i < a.log.size(); ++i) {
    EXPECT_EQ(a.log[i].candidate, b.log[i].candidate);
    EXPECT_EQ(a.log[i].nodes, b.log[i].nodes);
    EXPECT_EQ(a.log[i].feasible, b.log[i].feasible);
  }
  EXPECT_EQ(a.chosen.pools, b.chosen.pools);
}

TEST(PlannerTest, NeverCostsMoreThanAFeasibleReferenceInItsSpace) {
  const PlanResult r = Plan(TwoServices(R"(plan:
  pools:
    serve: {nodes: {min: 1, max: 4}}
)"));
  ASSERT_TRUE(r.chosen.feasible);
  for (const PlanOutcome& o : r.references) {
    if (o.feasible && o.in_space) {
      EXPECT_LE(r.chosen.cost_per_hour, o.cost_per_hour + 1e-9) << o.name;
    }
  }
}

// About 11 one-GPU batch jobs of 30 min on exclusive nodes of one GPU,
// judged on their mean wait. Measured per seed (run --seed):
//   nodes   seed 21   seed 22   seed 23   mean
//     3      225.8      82.5     474.4    260.9
//     4       55.0       3.1      38.3     32.1
// Under 250 s, 3 nodes meet the limit on seed 21 alone (what --seeds 1
// judges) and on 2 of the 3 seeds, not on their mean; under 500 s on all.
std::string SeedsEdge(const std::string& limit) {
  return R"(name: seeds-edge
seed: 21
horizon_s: 14400
cluster:
  pools:
    - {name: train, gpu: A100-80GB, nodes: 4, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
workload:
  horizon_s: 7200
  classes:
    - {name: jobs, class: batch, arrival_rate_per_s: 0.0012, gpus: 1,
       gpu_memory_mib: 20000, sm_demand: 0.8, duty: 0.9,
       work_s: {exponential: 1800}, cpu_milli: 4000, memory_mib: 8192}
plan:
  pools:
    train: {nodes: {min: 1, max: 8}, schemes: [exclusive]}
  constraints:
    classes:
      jobs: {max_mean_wait_s: )" +
         limit + "}\n";
}

TEST(PlannerTest, OneSeedTakesThreeNodes) {
  const PlanResult r = Plan(SeedsEdge("250"), 2, 1);
  EXPECT_EQ(r.pools[0].nodes, 3);
  EXPECT_EQ(r.chosen_from, "search");
  EXPECT_TRUE(r.rejected.empty());
}

TEST(PlannerTest, ThreeSeedsJudgeEveryProbeOnTheirMeanAndNameWhatTheyReject) {
  const PlanResult r = Plan(SeedsEdge("250"), 2, 3);
  // 3 nodes miss on the mean (260.9 s): 4 nodes, found by the search, not
  // today's plan taken for want of a cheaper one.
  ASSERT_EQ(r.pools.size(), 1u);
  EXPECT_EQ(r.pools[0].nodes, 4);
  EXPECT_EQ(r.chosen_from, "search");
  EXPECT_TRUE(r.chosen.feasible);
  for (const PlanProbe& p : r.log) {
    EXPECT_EQ(p.seeds, 3);
    EXPECT_EQ(p.feasible, p.missed.empty());
  }
  // The 3-node plan, rejected: met on seeds 21 and 22, missed on 23.
  ASSERT_EQ(r.rejected.size(), 1u);
  const RejectedPlan& x = r.rejected[0];
  EXPECT_EQ(x.pool, "train");
  EXPECT_EQ(x.setting, "exclusive");
  EXPECT_EQ(x.nodes, 3);
  EXPECT_DOUBLE_EQ(x.cost_per_hour,
                   3 * TestCatalog().Get("A100-80GB").price_per_hour);
  EXPECT_EQ(x.seeds, 3);
  EXPECT_EQ(x.seeds_feasible, 2);
  ASSERT_EQ(x.missed.size(), 1u);
  EXPECT_EQ(x.missed[0].constraint, "max_mean_wait_s");
  EXPECT_NEAR(x.missed[0].value, 260.9, 0.05);
  ASSERT_EQ(x.seed_misses.size(), 1u);
  EXPECT_EQ(x.seed_misses[0].seed, 23u);
  ASSERT_EQ(x.seed_misses[0].missed.size(), 1u);
  EXPECT_NEAR(x.seed_misses[0].missed[0].value, 474.4, 0.05);
  // The one-node-fewer line is the answer's: 3 nodes, what they miss on
  // the mean and on seed 23.
  const PoolPlan& p = r.pools[0];
  EXPECT_TRUE(p.binding_known);
  ASSERT_EQ(p.binding.size(), 1u);
  EXPECT_EQ(p.binding[0].constraint, "max_mean_wait_s");
  EXPECT_EQ(p.binding_seeds, 3);
  ASSERT_EQ(p.binding_seed_misses.size(), 1u);
  EXPECT_EQ(p.binding_seed_misses[0].seed, 23u);
}

TEST(PlannerTest, APlanThatHoldsOnEverySeedIsKept) {
  const PlanResult one = Plan(SeedsEdge("500"), 2, 1);
  const PlanResult three = Plan(SeedsEdge("500"), 2, 3);
  EXPECT_EQ(one.pools[0].nodes, 3);
  EXPECT_EQ(three.pools[0].nodes, 3);
  EXPECT_EQ(three.chosen.seeds_feasible, 3);
  EXPECT_TRUE(three.rejected.empty());
}

// Notebooks through a ClusterQueue of 16 GPUs on 4 nodes of 4 L40S
// (tests/data/plan/quota-bound.yaml, shared with tests/plan_cli_test.py);
// their mean wait is admission wait, 236.5 s on the mean of seeds 5-7 at any
// node count while the quota stays: the quota must grow with the pool.
// `pinned`, when given, is a plan line put before its constraints.
std::string NotebooksQueue(const std::string& pinned) {
  std::ifstream in(std::string(GS_TESTDATA_DIR) + "/plan/quota-bound.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string out = text.str();
  EXPECT_NE(out.find("  constraints:"), std::string::npos);
  if (!pinned.empty()) {
    out.replace(out.find("  constraints:"), 0, pinned + "\n");
  }
  return out;
}

const ResourceQuotaSpec* GpuQuota(const Scenario& s) {
  for (const ResourceQuotaSpec& r :
       s.queues.cluster_queues[0].resource_groups[0].flavors[0].resources) {
    if (r.resource == "nvidia.com/gpu") return &r;
  }
  return nullptr;
}

TEST(PlannerTest, QuotasGrowWithThePoolsThePlanResizes) {
  const PlanResult r = Plan(NotebooksQueue(""));
  ASSERT_TRUE(r.chosen.feasible);
  const int nodes = r.pools[0].nodes;
  EXPECT_GT(nodes, 4);
  EXPECT_LT(nodes, 8);
  // 16 GPUs of quota on 16 GPUs: 4 per node on the plan's nodes, and cpu
  // and memory with them; the note says so.
  const ResourceQuotaSpec* gpu = GpuQuota(r.plan);
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->nominal_quota, 4 * nodes);
  bool noted = false;
  for (const std::string& n : r.notes) {
    noted = noted || n.find(
                         "ClusterQueue notebooks flavor l40s: quota scaled "
                         "with its pools' nodes: nvidia.com/gpu 16 to") == 0;
  }
  EXPECT_TRUE(noted);
  EXPECT_TRUE(r.chosen.quota_bound.empty());
}

TEST(PlannerTest, APinnedQuotaLeavesTheClassQuotaBound) {
  const PlanResult r = Plan(NotebooksQueue("  pinned_quotas: [notebooks]"));
  EXPECT_FALSE(r.chosen.feasible);
  EXPECT_EQ(GpuQuota(r.plan)->nominal_quota, 16);
  ASSERT_EQ(r.chosen.quota_bound.size(), 1u);
  const QuotaBoundClass& q = r.chosen.quota_bound[0];
  EXPECT_EQ(q.tenant_class, "notebooks");
  EXPECT_EQ(q.queue, "notebooks");
  EXPECT_TRUE(q.pinned);
  EXPECT_GT(q.mean_admission_wait_s, 0.5 * q.mean_wait_s);
  EXPECT_GT(q.idle_at_quota_share, 0);
}

}  // namespace
}  // namespace planner_test
}  // namespace gpushare
