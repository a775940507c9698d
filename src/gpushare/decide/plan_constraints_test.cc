#include "gpushare/decide/plan_constraints.h"

#include <gtest/gtest.h>

#include <algorithm>

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
  EXPECT_DOUBLE_EQ(SeverityOf(checks).lost_pods, 2);
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
  EXPECT_EQ(a.lost_pods, 2);
  EXPECT_EQ(b.lost_pods, 0);
  EXPECT_GT(b.relative, a.relative);
  EXPECT_TRUE(MissesLess(b, a));
  EXPECT_EQ(DescribeInWords(CheckClassConstraints(c, waits)),
            "mean wait 36000 s (limit 3600 s), 0 OOM kills (limit 0), 0 "
            "failed pods (limit 0), 0 pods it cannot run (limit 0), 0 pods "
            "never started (limit 0), slowdown 5.00x (limit 3x), 0 pods "
            "placed where another pod can take their GPU memory (it needs "
            "memory isolation)");
  EXPECT_EQ(DescribeInWords(Missed(CheckClassConstraints(c, killed))),
            "2 OOM kills (limit 0)");
  EXPECT_EQ(DescribeLimits(c, /*with_slo=*/false),
            "no OOM kills, failed, unrunnable or never-started pods; mean "
            "wait <= 3600 s; slowdown <= 3x; memory isolated from other "
            "pods");
  c.max_oom_kills = 5;
  c.max_preemptions = 2;
  c.max_pending = -1;
  EXPECT_EQ(DescribeLimits(c, /*with_slo=*/false),
            "no failed or unrunnable pods; <= 5 OOM kills; <= 2 evictions; "
            "mean wait <= 3600 s; slowdown <= 3x; memory isolated from "
            "other pods");
}

// Issue 54's notebook pool (L40S, Kueue), by hand. 365 one-hour notebooks
// (dev services, 1 GPU, lifetime 3600 s, each arriving at least an hour
// before the end of the run). Exclusive: 291 never started, so 291 x 1 h =
// 291 GPU-hours lost, no kill. Time-slicing x4: 8 never started (8 h) and 2
// OOM kills of sessions up 30 min each (2 x 0.5 h): 9 GPU-hours. By pods
// over their limits exclusive missed less (291 never-started pods then
// weighed as a relative miss, the 2 OOM kills as lost work); a pod that
// never started lost all of its work, so time-slicing is the closer.
TEST(PlanConstraintsTest, NeverStartedPodsAreLostWorkWeighedInGpuHours) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kDev);
  c.tenant_class = "notebooks";
  ClassMetrics exclusive;
  exclusive.pods = 365;
  exclusive.pending = 291;
  exclusive.mean_wait_s = 2000;
  exclusive.lost_gpu_hours = 291 * 1.0;
  ClassMetrics sliced;
  sliced.pods = 365;
  sliced.pending = 8;
  sliced.oom_kills = 2;
  sliced.mean_wait_s = 400;
  sliced.lost_gpu_hours = 8 * 1.0 + 2 * 0.5;
  const std::vector<ConstraintCheck> ex = CheckClassConstraints(c, exclusive);
  const std::vector<ConstraintCheck> ts = CheckClassConstraints(c, sliced);
  const MissSeverity a = SeverityOf(ex);
  const MissSeverity b = SeverityOf(ts);
  EXPECT_DOUBLE_EQ(a.lost_gpu_hours, 291);  // the class once, not per check
  EXPECT_DOUBLE_EQ(a.lost_pods, 291);
  EXPECT_DOUBLE_EQ(b.lost_gpu_hours, 9);
  EXPECT_DOUBLE_EQ(b.lost_pods, 10);  // 8 never started + 2 OOM kills
  EXPECT_TRUE(MissesLess(b, a));
  EXPECT_FALSE(MissesLess(a, b));
  // Each lost-work check carries the class's GPU-hours; the others none.
  for (const ConstraintCheck& k : ts) {
    EXPECT_EQ(k.lost_gpu_hours, IsLostWorkConstraint(k.constraint) ? 9 : 0)
        << k.constraint;
  }
  EXPECT_TRUE(IsLostWorkConstraint("max_pending"));
  EXPECT_FALSE(IsLostWorkConstraint("max_cannot_run"));
}

// Lost work is weighed by what was lost, not counted: one OOM kill of a
// 3-day, 8-GPU training job 2.5 days in (60 h x 8 GPUs = 480 GPU-hours)
// misses more than ten OOM-killed 1-hour notebook sessions (5 GPU-hours),
// and both miss more than any wait.
TEST(PlanConstraintsTest, OneTrainingJobsKillOutweighsTenNotebookKills) {
  ClassConstraints training = DefaultClassConstraints(WorkloadClass::kTraining);
  training.tenant_class = "ddp";
  ClassConstraints dev = DefaultClassConstraints(WorkloadClass::kDev);
  dev.tenant_class = "notebooks";
  ClassMetrics ddp_ok;
  ddp_ok.pods = 4;
  ClassMetrics ddp_killed = ddp_ok;
  ddp_killed.oom_kills = 1;
  ddp_killed.lost_gpu_hours = 480;
  ClassMetrics nb_ok;
  nb_ok.pods = 100;
  nb_ok.mean_wait_s = 30000;  // a hundred times its limit
  ClassMetrics nb_killed;
  nb_killed.pods = 100;
  nb_killed.oom_kills = 10;
  nb_killed.lost_gpu_hours = 5;
  const auto plan = [&](const ClassMetrics& ddp, const ClassMetrics& nb) {
    std::vector<ConstraintCheck> all = CheckClassConstraints(training, ddp);
    const std::vector<ConstraintCheck> more = CheckClassConstraints(dev, nb);
    all.insert(all.end(), more.begin(), more.end());
    return SeverityOf(all);
  };
  const MissSeverity kills_training = plan(ddp_killed, nb_ok);
  const MissSeverity kills_notebooks = plan(ddp_ok, nb_killed);
  const MissSeverity only_waits = plan(ddp_ok, nb_ok);
  EXPECT_DOUBLE_EQ(kills_training.lost_gpu_hours, 480);
  EXPECT_DOUBLE_EQ(kills_notebooks.lost_gpu_hours, 5);
  EXPECT_TRUE(MissesLess(kills_notebooks, kills_training));  // 10 pods > 1
  EXPECT_TRUE(MissesLess(only_waits, kills_notebooks));
  // Equal GPU-hours (within 10^-3): fewer pods over their limits, then the
  // relative rest.
  MissSeverity x{0, 5.0004, 3, 9}, y{0, 5, 4, 0};
  EXPECT_TRUE(MissesLess(x, y));
  x.lost_pods = 4;
  EXPECT_TRUE(MissesLess(y, x));
}

// A training class needs memory isolation by default: pods placed where
// another pod can take their memory miss it however the run went.
TEST(PlanConstraintsTest, TrainingNeedsMemoryIsolation) {
  ClassConstraints c = DefaultClassConstraints(WorkloadClass::kTraining);
  c.tenant_class = "ddp";
  EXPECT_TRUE(c.needs_memory_isolation);
  EXPECT_FALSE(
      DefaultClassConstraints(WorkloadClass::kDev).needs_memory_isolation);
  EXPECT_FALSE(DefaultClassConstraints(WorkloadClass::kInference)
                   .needs_memory_isolation);
  ClassMetrics m;
  m.pods = 60;
  m.memory_unprotected = 60;  // every pod on time-slicing, no OOM kill
  const std::vector<ConstraintCheck> missed =
      Missed(CheckClassConstraints(c, m));
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].constraint, "needs_memory_isolation");
  EXPECT_EQ(DescribeCheck(missed[0]), "ddp needs_memory_isolation 60 > 0");
  EXPECT_EQ(DescribeInWords(missed[0]),
            "60 pods placed where another pod can take their GPU memory (it "
            "needs memory isolation)");
  // Not lost work: ranked with the waits.
  EXPECT_DOUBLE_EQ(SeverityOf(missed).relative, 60);
  EXPECT_DOUBLE_EQ(SeverityOf(missed).lost_pods, 0);
  c.needs_memory_isolation = false;
  EXPECT_TRUE(AllMet(CheckClassConstraints(c, m)));
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
  const auto preemptions =
      std::find_if(checks.begin(), checks.end(), [](const ConstraintCheck& k) {
        return k.constraint == "max_preemptions";
      });
  ASSERT_NE(preemptions, checks.end());
  EXPECT_EQ(DescribeCheck(*preemptions), "ddp max_preemptions 3 > 2");
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
