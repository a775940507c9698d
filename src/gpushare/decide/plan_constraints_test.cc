#include "gpushare/decide/plan_constraints.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(PlanConstraintsTest, ChecksEverySetLimitWithItsMargin) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kInference);
  c.tenant_class = "web";
  c.min_slo_attainment = 0.99;
  ClassMetrics m;
  m.pods = 10;
  m.mean_wait_s = 75;
  m.slo_attainment = 0.995;
  m.oom_kills = 2;
  const std::vector<ConstraintCheck> checks = CheckClassConstraints(c, m);
  ASSERT_EQ(checks.size(), 6u);  // SLO, mean wait, OOM, failed, cannot, pending
  EXPECT_EQ(checks[0].constraint, "min_slo_attainment");
  EXPECT_TRUE(checks[0].met());
  EXPECT_NEAR(checks[0].margin, 0.005, 1e-12);
  EXPECT_EQ(checks[1].constraint, "max_mean_wait_s");
  EXPECT_FALSE(checks[1].met());
  EXPECT_DOUBLE_EQ(checks[1].margin, -15);
  EXPECT_EQ(checks[2].constraint, "max_oom_kills");
  EXPECT_FALSE(checks[2].met());
  EXPECT_FALSE(AllMet(checks));
  EXPECT_EQ(Missed(checks).size(), 2u);
  // The OOM kills are lost work, counted apart from (and before) the wait.
  EXPECT_DOUBLE_EQ(SeverityOf(checks).relative, 15.0 / 60);
  EXPECT_DOUBLE_EQ(SeverityOf(checks).lost_work, 2);
  EXPECT_DOUBLE_EQ(SeverityOf(checks).stranded_pods, 0);
  EXPECT_EQ(DescribeCheck(checks[1]), "web max_mean_wait_s 75 > 60");
  EXPECT_EQ(DescribeCheck(checks[0]), "web min_slo_attainment 0.995 >= 0.99");
}

// A plan whose pods wait long beats one that leaves a pod no node can hold,
// however much longer the queue: a stranded pod never runs.
TEST(PlanConstraintsTest, StrandedPodsWeighMoreThanAnyWait) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kInference);
  c.tenant_class = "web";
  ClassMetrics waits;
  waits.pods = 100;
  waits.mean_wait_s = 3000;
  waits.pending = 97;
  ClassMetrics strands;
  strands.pods = 100;
  strands.mean_wait_s = 1800;
  strands.pending = 45;
  strands.cannot_run = 1;
  const MissSeverity a = SeverityOf(CheckClassConstraints(c, waits));
  const MissSeverity b = SeverityOf(CheckClassConstraints(c, strands));
  EXPECT_EQ(a.stranded_pods, 0);
  EXPECT_EQ(b.stranded_pods, 1);
  EXPECT_GT(a.relative, b.relative);
  EXPECT_TRUE(MissesLess(a, b));
  EXPECT_FALSE(MissesLess(b, a));
  strands.cannot_run = 0;
  EXPECT_TRUE(MissesLess(SeverityOf(CheckClassConstraints(c, strands)), a));
}

// Work thrown away weighs before any wait: two OOM kills miss more than a
// queue ten times over its limit.
TEST(PlanConstraintsTest, LostWorkWeighsMoreThanAnyWait) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kTraining);
  c.tenant_class = "ddp";
  ClassMetrics killed;
  killed.pods = 10;
  killed.oom_kills = 2;
  ClassMetrics waits;
  waits.pods = 10;
  waits.mean_wait_s = 36000;
  waits.mean_slowdown = 5;
  const MissSeverity a = SeverityOf(CheckClassConstraints(c, killed));
  const MissSeverity b = SeverityOf(CheckClassConstraints(c, waits));
  EXPECT_EQ(a.lost_work, 2);
  EXPECT_EQ(b.lost_work, 0);
  EXPECT_GT(b.relative, a.relative);
  EXPECT_TRUE(MissesLess(b, a));
  EXPECT_EQ(DescribeInWords(CheckClassConstraints(c, waits)),
            "mean wait 36000 s (limit 3600 s), 0 OOM kills (limit 0), 0 "
            "failed pods (limit 0), 0 pods it cannot run (limit 0), 0 pods "
            "never started (limit 0), slowdown 5.00x (limit 3x)");
  EXPECT_EQ(DescribeInWords(Missed(CheckClassConstraints(c, killed))),
            "2 OOM kills (limit 0)");
  EXPECT_EQ(DescribeLimits(c, /*with_slo=*/false),
            "no OOM kills, failed, unrunnable or never-started pods; mean "
            "wait <= 3600 s; slowdown <= 3x");
  c.max_oom_kills = 5;
  c.max_preemptions = 2;
  c.max_pending = -1;
  EXPECT_EQ(DescribeLimits(c, /*with_slo=*/false),
            "no failed or unrunnable pods; <= 5 OOM kills; <= 2 evictions; "
            "mean wait <= 3600 s; slowdown <= 3x");
}

TEST(PlanConstraintsTest, PreemptionsAreCheckedWhenLimited) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kTraining);
  c.tenant_class = "ddp";
  ClassMetrics m;
  m.pods = 8;
  m.preemptions = 3;
  EXPECT_TRUE(AllMet(CheckClassConstraints(c, m)));  // no limit by default
  c.max_preemptions = 2;
  const std::vector<ConstraintCheck> checks = CheckClassConstraints(c, m);
  EXPECT_FALSE(AllMet(checks));
  EXPECT_EQ(DescribeCheck(checks.back()), "ddp max_preemptions 3 > 2");
}

TEST(PlanConstraintsTest, TheSloTargetNeedsLatencySamples) {
  ClassConstraints c;
  c.min_slo_attainment = 0.99;
  ClassMetrics m;
  m.pods = 1;
  m.slo_attainment = -1;
  for (const ConstraintCheck& k : CheckClassConstraints(c, m)) {
    EXPECT_NE(k.constraint, "min_slo_attainment");
  }
}

TEST(PlanConstraintsTest, AClassWithoutPodsMeetsEverything) {
  EXPECT_TRUE(
      CheckClassConstraints(ClassConstraints{}, ClassMetrics{}).empty());
}

TEST(PlanConstraintsTest, ClusterLimits) {
  ClusterConstraints c;
  EXPECT_TRUE(CheckClusterConstraints(c, 100, 1e6).empty());
  c.max_gpus = 64;
  c.max_cost_per_hour = 200;
  const std::vector<ConstraintCheck> k = CheckClusterConstraints(c, 72, 150);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_FALSE(k[0].met());
  EXPECT_EQ(DescribeCheck(k[0]), "cluster max_gpus 72 > 64");
  EXPECT_TRUE(k[1].met());
}

TEST(PlanConstraintsTest, DefaultsPerWorkloadClass) {
  EXPECT_EQ(DefaultClassConstraints(WorkloadClass::kInference).max_mean_wait_s,
            60);
  EXPECT_EQ(DefaultClassConstraints(WorkloadClass::kDev).max_mean_wait_s, 300);
  EXPECT_EQ(DefaultClassConstraints(WorkloadClass::kBatch).max_mean_wait_s,
            1800);
  EXPECT_EQ(DefaultClassConstraints(WorkloadClass::kTraining).max_mean_wait_s,
            3600);
}

}  // namespace
}  // namespace gpushare
