#include "gpushare/decide/class_metrics.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace class_metrics_test {
namespace {

PodRecord Job(double arrival, double start, double end, double alone) {
  PodRecord p;
  p.tenant_class = "jobs";
  p.workload_class = "batch";
  p.arrival_s = arrival;
  p.start_s = start;
  p.wait_s = start - arrival;
  p.end_s = end;
  p.alone_s = alone;
  p.work_s = alone;
  p.run_s = end - start;
  p.slowdown = (end - start) / alone;
  p.outcome = PodOutcome::kSucceeded;
  return p;
}

PodRecord Service(double arrival, double start, double end, int samples,
                  int met) {
  PodRecord p;
  p.tenant_class = "svc";
  p.workload_class = "inference";
  p.arrival_s = arrival;
  p.start_s = start;
  p.wait_s = start - arrival;
  p.end_s = end;
  p.work_s = 0;
  p.slo_p99_ms = 100;
  p.latency_samples = samples;
  p.slo_met_samples = met;
  p.outcome = PodOutcome::kDeleted;
  return p;
}

TEST(ClassMetricsTest, JobPerformanceIsAloneOverTurnaround) {
  // Waits 50 s, runs 150 s for 100 s of work alone: 100 / 200.
  EXPECT_DOUBLE_EQ(PodPerformance(Job(0, 50, 200, 100), 1000), 0.5);
  // A job still running at the horizon does not count.
  PodRecord running = Job(0, 10, -1, 100);
  running.outcome = PodOutcome::kRunning;
  EXPECT_LT(PodPerformance(running, 1000), 0);
}

TEST(ClassMetricsTest, ServicePerformanceIsAvailabilityTimesSlo) {
  // Up 300 s after waiting 100 s; 3 of 4 samples met: 0.75 · 0.75.
  EXPECT_DOUBLE_EQ(PodPerformance(Service(0, 100, 400, 4, 3), 1000),
                   0.75 * 0.75);
  // Running at the horizon: up until the end of the run.
  PodRecord up = Service(0, 0, -1, 2, 2);
  up.outcome = PodOutcome::kRunning;
  EXPECT_DOUBLE_EQ(PodPerformance(up, 1000), 1.0);
}

TEST(ClassMetricsTest, NeverServedScoresZero) {
  PodRecord p;
  p.outcome = PodOutcome::kUnschedulable;
  EXPECT_EQ(PodPerformance(p, 10), 0);
  p.outcome = PodOutcome::kPending;
  EXPECT_EQ(PodPerformance(p, 10), 0);
  PodRecord failed = Job(0, 0, 5, 10);
  failed.outcome = PodOutcome::kFailed;
  EXPECT_EQ(PodPerformance(failed, 10), 0);
}

TEST(ClassMetricsTest, ClassAggregates) {
  SimulationResult r;
  r.end_s = 1000;
  r.pod_records = {Job(0, 50, 200, 100), Job(0, 0, 100, 100),
                   Service(0, 100, 400, 4, 3)};
  r.pod_records[0].cost = 3;
  r.pod_records[1].cost = 1;
  r.pod_records[1].oom_kills = 2;
  PodRecord stuck;
  stuck.tenant_class = "jobs";
  stuck.workload_class = "batch";
  stuck.outcome = PodOutcome::kUnschedulable;
  r.pod_records.push_back(stuck);

  const ClassMetrics jobs = ComputeClassMetrics(r, "jobs");
  EXPECT_EQ(jobs.pods, 3);
  EXPECT_EQ(jobs.served, 2);
  EXPECT_EQ(jobs.cannot_run, 1);
  EXPECT_EQ(jobs.killed, 1);
  EXPECT_EQ(jobs.oom_kills, 2);
  EXPECT_DOUBLE_EQ(jobs.mean_wait_s, 25);
  EXPECT_DOUBLE_EQ(jobs.mean_slowdown, (1.5 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(jobs.performance, (0.5 + 1.0 + 0) / 3);
  EXPECT_DOUBLE_EQ(jobs.cost, 4);
  EXPECT_DOUBLE_EQ(jobs.cost_per_served_pod, 2);
  EXPECT_EQ(jobs.workload_class, "batch");
  EXPECT_LT(jobs.slo_attainment, 0);

  const ClassMetrics svc = ComputeClassMetrics(r, "svc");
  EXPECT_DOUBLE_EQ(svc.slo_attainment, 0.75);
  const ClassMetrics all = ComputeClassMetrics(r, "");
  EXPECT_EQ(all.pods, 4);
  EXPECT_EQ(all.workload_class, "");  // mixed kinds
}

}  // namespace
}  // namespace class_metrics_test
}  // namespace gpushare
