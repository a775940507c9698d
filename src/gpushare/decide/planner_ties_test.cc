// The planner's answers an operator would sign (issue 54): ties keep
// today's setting and a change says what it buys; a pool whose classes lose
// work with one node fewer is flagged as a knife edge; a class that needs
// memory isolation is not placed on time-slicing.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/plan_spec_reader.h"
#include "gpushare/decide/planner.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace planner_ties_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

PlanResult Plan(const std::string& text) {
  const Scenario scenario = ReadScenarioYaml(text, "ties.yaml", TestCatalog());
  ComparisonSpec spec = ReadComparisonSpec(text, "ties.yaml", scenario);
  spec.compare.seeds = 1;
  const PlanSpec plan_spec =
      ReadPlanSpec(text, "ties.yaml", scenario, spec.selection);
  return RunPlanner(scenario, spec, plan_spec, TestCatalog(), 2);
}

// Two services of 30 GB on nodes of one A100-80GB, written with `sharing`
// on `nodes` nodes: one node under MIG all-3g.40gb (an instance each) or
// time-slicing x2 (60 GB of 80 in use) serves both within their SLO, at
// the same price.
std::string TwoServices(const std::string& sharing, int nodes,
                        const std::string& schemes) {
  return R"(name: ties
seed: 7
horizon_s: 7200
cluster:
  pools:
    - {name: serve, gpu: A100-80GB, nodes: )" +
         std::to_string(nodes) + R"(, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: )" +
         sharing + R"(}
workload:
  horizon_s: 10
  classes:
    - {name: svc, class: inference, count: 2, gpus: 1, gpu_memory_mib: 30000,
       sm_demand: 0.3, duty: 0.5, work_s: 0, lifetime_s: 7000,
       request_rate: 5, gpu_ms_per_request: 5, slo_p99_ms: 1000,
       cpu_milli: 4000, memory_mib: 8192}
plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: )" +
         schemes + R"(, time_slicing_replicas: [2]}
)";
}

TEST(PlannerTiesTest, EqualCostKeepsTodaysSettingWhicheverItIs) {
  // The rating-driven score prefers MIG (isolation 10 vs 1) for an
  // inference class; at equal cost and every constraint met, the setting
  // as written stays, MIG or time-slicing.
  const PlanResult mig = Plan(TwoServices(
      "{scheme: mig, mig_config: all-3g.40gb}", 1, "[time-slicing, mig]"));
  ASSERT_TRUE(mig.chosen.feasible);
  EXPECT_EQ(mig.pools[0].setting, "MIG all-3g.40gb");
  EXPECT_EQ(mig.pools[0].nodes, 1);
  EXPECT_EQ(mig.pools[0].change_buys, "");
  const PlanResult sliced = Plan(TwoServices(
      "{scheme: time-slicing, replicas: 2}", 1, "[time-slicing, mig]"));
  ASSERT_TRUE(sliced.chosen.feasible);
  EXPECT_EQ(sliced.pools[0].setting, "time-slicing x2");
  EXPECT_EQ(sliced.pools[0].nodes, 1);
  EXPECT_EQ(sliced.pools[0].change_buys, "");
  // It says what it was tied with.
  const std::vector<std::string>& tied = sliced.pools[0].kept_over;
  EXPECT_NE(std::find(tied.begin(), tied.end(), "MIG all-3g.40gb"),
            tied.end());
  // Both answers cost the same: the written setting kept at no extra cost.
  EXPECT_DOUBLE_EQ(mig.chosen.cost_per_hour, sliced.chosen.cost_per_hour);
}

TEST(PlannerTiesTest, AChangeSaysWhatItBuys) {
  // Written: exclusive on 2 nodes (a GPU per service). MIG all-3g.40gb
  // serves both on 1 node: the change buys one node's price.
  const PlanResult r = Plan(TwoServices("{scheme: exclusive}", 2,
                                        "[exclusive, mig]"));
  ASSERT_TRUE(r.chosen.feasible);
  const PoolPlan& p = r.pools[0];
  EXPECT_EQ(p.setting, "MIG all-3g.40gb");
  EXPECT_EQ(p.nodes, 1);
  const double price = TestCatalog().Get("A100-80GB").price_per_hour;
  EXPECT_EQ(p.change_buys,
            fmt::format("cheaper by ${:.2f}/h than today's setting at its "
                        "fewest nodes that meet every constraint (2, "
                        "${:.2f}/h)",
                        price, 2 * price));
}

// Two long-lived notebooks of 50 GB on time-slicing x2 nodes of one
// A100-80GB: on 2 nodes each has a GPU to itself; on 1 both share one
// GPU's 80 GB and the second is OOM-killed at its start and at each of its
// 6 restarts (back-off 10 + 20 + 40 + 80 + 160 + 300 = 610 s), then fails
// for good.
std::string TwoBigNotebooks(int max_nodes) {
  return R"(name: edge
seed: 7
horizon_s: 7200
cluster:
  pools:
    - {name: dev, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: time-slicing, replicas: 2}}
workload:
  horizon_s: 10
  classes:
    - {name: notebooks, class: dev, count: 2, gpus: 1, gpu_memory_mib: 50000,
       sm_demand: 0.2, duty: 0.1, work_s: 0, lifetime_s: 7000,
       cpu_milli: 4000, memory_mib: 8192}
plan:
  pools:
    dev: {nodes: {min: 1, max: )" +
         std::to_string(max_nodes) +
         R"(}, schemes: [time-slicing], time_slicing_replicas: [2]}
)";
}

TEST(PlannerTiesTest, AMarginOfOneNodeOnLostWorkIsAKnifeEdge) {
  const PlanResult r = Plan(TwoBigNotebooks(3));
  ASSERT_TRUE(r.chosen.feasible);
  const PoolPlan& p = r.pools[0];
  EXPECT_EQ(p.setting, "time-slicing x2");
  EXPECT_EQ(p.nodes, 2);
  ASSERT_TRUE(p.binding_known);
  EXPECT_TRUE(p.knife_edge);
  // By hand, at 1 node: 7 OOM kills (the start and 6 restarts), 1 failed
  // pod; it lost the part of its 7000 s life it was not up: 7000 - 610 s
  // (a notebook OOM-killed at start has no session to lose).
  EXPECT_EQ(p.edge_oom_kills, 7);
  EXPECT_EQ(p.edge_failed, 1);
  EXPECT_EQ(p.edge_evictions, 0);
  EXPECT_NEAR(p.edge_lost_gpu_hours, 6390.0 / 3600, 1e-9);
  // At the minimum of its range there is no node fewer to look at.
  const PlanResult one = Plan(TwoBigNotebooks(3).replace(
      TwoBigNotebooks(3).find("min: 1"), 6, "min: 2"));
  EXPECT_TRUE(one.pools[0].at_minimum);
  EXPECT_FALSE(one.pools[0].knife_edge);
}

TEST(PlannerTiesTest, TrainingIsNotPlacedOnTimeSlicing) {
  // Two training jobs of 8000 s on a pool that may run time-slicing or
  // exclusive: exclusive on one node makes the second wait 8000 s (mean
  // 4000 s > 3600); time-slicing x2 would run both on one node; training
  // needs memory isolation, so the answer is exclusive on 2 nodes and the
  // notes say why time-slicing was ruled out.
  const std::string text = R"(name: iso
seed: 7
horizon_s: 14400
cluster:
  pools:
    - {name: gpu, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
workload:
  horizon_s: 10
  classes:
    - {name: ddp, class: training, count: 2, gpus: 1, gpu_memory_mib: 30000,
       sm_demand: 0.3, duty: 0.5, work_s: 8000, cpu_milli: 4000,
       memory_mib: 8192}
plan:
  pools:
    gpu: {nodes: {min: 1, max: 2}, schemes: [exclusive, time-slicing],
          time_slicing_replicas: [2]}
)";
  const PlanResult r = Plan(text);
  ASSERT_TRUE(r.chosen.feasible);
  EXPECT_EQ(r.pools[0].setting, "exclusive");
  EXPECT_EQ(r.pools[0].nodes, 2);
  bool noted = false;
  for (const std::string& n : r.notes) {
    noted = noted || n.find("pool gpu: time-slicing x2, time-slicing x4 do "
                            "not meet ddp, which needs memory isolation") == 0;
  }
  EXPECT_TRUE(noted);
  // Without the requirement, time-slicing x2 on one node is cheaper.
  const PlanResult loose = Plan(
      text + "  constraints:\n    classes:\n      ddp: "
             "{needs_memory_isolation: false}\n");
  EXPECT_EQ(loose.pools[0].setting, "time-slicing x2");
  EXPECT_EQ(loose.pools[0].nodes, 1);
}

}  // namespace
}  // namespace planner_ties_test
}  // namespace gpushare
