#include "gpushare/report/next_steps.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

SchemeScore Scored(const std::string& variant, bool served_well) {
  SchemeScore s;
  s.variant = variant;
  s.total = 8;
  s.serves = true;
  s.served_well = served_well;
  return s;
}

ClassChoice Choice(const std::string& name, std::vector<SchemeScore> ranking) {
  ClassChoice c;
  c.tenant_class = name;
  c.ranking = std::move(ranking);
  return c;
}

PoolPlan Pool(const std::string& name, int gpus_per_node, int written_nodes,
              int nodes) {
  PoolPlan p;
  p.pool = name;
  p.gpus_per_node = gpus_per_node;
  p.written_nodes = written_nodes;
  p.nodes = nodes;
  return p;
}

TEST(ClassesNotServedWellTest, NoWinnerOrNotServedByItsPoolsScheme) {
  Selection s;
  s.classes = {Choice("inf", {Scored("mig", true)}),
               Choice("train", {Scored("exclusive", false)}),
               Choice("jobs", {Scored("hami", true)})};
  ClassChoice cpu = Choice("cpu", {});
  cpu.no_scheme = "none of its pods asks for a GPU";
  s.classes.push_back(cpu);
  EXPECT_EQ(ClassesNotServedWell(s), std::vector<std::string>{"train"});
  // The pool plan puts jobs on a scheme that does not serve it well.
  s.has_pool_plan = true;
  PoolSchemeChoice pool;
  pool.pool = "a";
  pool.variant = "mig";
  PoolRoutedClass inf;
  inf.tenant_class = "inf";
  inf.ok = true;
  PoolRoutedClass jobs;
  jobs.tenant_class = "jobs";
  jobs.ok = false;
  pool.classes = {inf, jobs};
  s.pool_plan.pools = {pool};
  EXPECT_EQ(ClassesNotServedWell(s),
            (std::vector<std::string>{"train", "jobs"}));
}

TEST(PlanPreviewLineTest, SaysNodesGpusCostAndHowSure) {
  PlanResult r;
  // Today 6 + 8 nodes; the plan 5 + 9, and a CPU pool that does not count.
  r.pools = {Pool("prod", 8, 6, 5), Pool("platform", 8, 8, 9),
             Pool("cpu", 0, 3, 7)};
  r.chosen.feasible = true;
  r.chosen.gpus = 112;
  r.chosen.cost_per_hour = 726.4;
  r.chosen.seeds = 3;
  r.chosen.seeds_feasible = 1;
  PlanOutcome today;
  today.name = "today";
  today.cost_per_hour = 787.2;
  r.references = {today};
  EXPECT_EQ(PlanPreviewLine(r),
            "plan: today's node count (112 GPUs), $726.40/h (today "
            "$787.20/h), every class served on the mean of 3 seeds (1 of "
            "them alone)");
  r.pools[1].nodes = 12;
  r.chosen.seeds_feasible = 3;
  EXPECT_EQ(PlanPreviewLine(r),
            "plan: +3 nodes (112 GPUs), $726.40/h (today $787.20/h), every "
            "class served on each of 3 seeds");
  // The closest plan when none meets every constraint.
  r.chosen.feasible = false;
  ConstraintCheck missed;
  missed.margin = -1;
  ConstraintCheck met;
  met.margin = 1;
  r.chosen.checks = {missed, met, missed};
  r.pools[1].nodes = 7;
  r.references.clear();
  EXPECT_EQ(PlanPreviewLine(r),
            "plan: -2 nodes (112 GPUs), $726.40/h, the closest plan: it "
            "still misses 2 constraints");
}

TEST(NextStepsTest, EmptyWhenEveryClassIsServedWell) {
  Selection s;
  s.classes = {Choice("inf", {Scored("mig", true)})};
  EXPECT_EQ(NextSteps(Comparison(), s, "gpushare-sim plan", nullptr), "");
  s.classes.push_back(Choice("train", {Scored("exclusive", false)}));
  const std::string out =
      NextSteps(Comparison(), s, "gpushare-sim plan x.yaml", nullptr);
  const std::string next = "\nNext: train is not served well on today's nodes";
  EXPECT_EQ(out.rfind(next, 0), 0u);
  EXPECT_NE(out.find("\n  run: gpushare-sim plan x.yaml\n"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 32), "  run: gpushare-sim plan x.yaml\n");
}

}  // namespace
}  // namespace gpushare
