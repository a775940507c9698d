#include "gpushare/decide/planner.h"

#include <gtest/gtest.h>

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

PlanResult Plan(const std::string& text, int threads = 2) {
  const Scenario scenario =
      ReadScenarioYaml(text, "two-services.yaml", TestCatalog());
  const ComparisonSpec spec =
      ReadComparisonSpec(text, "two-services.yaml", scenario);
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

}  // namespace
}  // namespace planner_test
}  // namespace gpushare
