// Hand-computed tiny runs of the execution model (docs/model.md §6).

#include "gpushare/sim/simulation.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_test {
namespace {

using testing_scenarios::Jobs;
using testing_scenarios::OnePool;

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario);
}

TEST(SimulationTest, ExclusivePodRunsAtFullSpeed) {
  Scenario s = OnePool("A100-40GB", 1, ExclusiveSharing());
  s.workload.classes.push_back(Jobs("j", 1, 1, 1000, 100));
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 1);
  const PodRecord& p = r.pod_records[0];
  EXPECT_NEAR(p.run_s, 100, 1e-6);
  EXPECT_NEAR(p.slowdown, 1.0, 1e-9);
}

TEST(SimulationTest, BackoffDelaysTheRetryOfAFailedPod) {
  // One GPU, three jobs of 100 s arriving at (almost) 0: the first runs, the
  // other two fail their first cycle and wait (one group). Without back-off
  // the second starts when the first ends (100 s), the third at 200 s. With
  // a 150-s initial back-off, as kube-scheduler: the first's end (100 s)
  // moves both waiting pods to the back-off queue; at ~150 s both are
  // active, the second binds and the third fails its second attempt (the
  // GPU is taken) and backs off 300 s: it starts at ~450 s, although the
  // GPU is free from ~250 s.
  Scenario s = OnePool("A100-40GB", 1, ExclusiveSharing());
  s.workload.classes.push_back(Jobs("j", 3, 1, 1000, 100));
  const SimulationResult off = RunIt(s);
  ASSERT_EQ(off.succeeded, 3);
  std::vector<double> starts;
  for (const PodRecord& p : off.pod_records) starts.push_back(p.start_s);
  std::sort(starts.begin(), starts.end());
  EXPECT_NEAR(starts[1], 100, 1e-3);
  EXPECT_NEAR(starts[2], 200, 1e-3);

  s.scheduler.pod_initial_backoff_s = 150;
  s.scheduler.pod_max_backoff_s = 1000;
  const SimulationResult on = RunIt(s);
  ASSERT_EQ(on.succeeded, 3);
  starts.clear();
  for (const PodRecord& p : on.pod_records) starts.push_back(p.start_s);
  std::sort(starts.begin(), starts.end());
  EXPECT_NEAR(starts[0], 0, 1);
  EXPECT_NEAR(starts[1], 150, 1);
  EXPECT_NEAR(starts[2], 450, 1);
  // The run ends when the last job does, not at a stale event.
  EXPECT_NEAR(on.end_s, starts[2] + 100, 10);
}

TEST(SimulationTest, TwoPodsTimeSliced) {
  // η = 1.024 / (1.024 + 0.2) = 0.83660; each gets x = η/2 = 0.41830 of the
  // GPU: 100 s of work take 100 / 0.41830 = 239.06 s.
  Scenario s = OnePool("A100-40GB", 1, TimeSlicingSharing(2));
  s.workload.classes.push_back(Jobs("j", 2, 1, 1000, 100));
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  for (const PodRecord& p : r.pod_records) {
    EXPECT_NEAR(p.run_s, 100 / (0.5 * 1.024 / 1.224), 1e-6);
    EXPECT_NEAR(p.slowdown, 2.390625, 1e-6);
  }
}

TEST(SimulationTest, MigInstanceWithSmDemand) {
  // all-balanced A100-40GB; a 15000 MiB pod gets 3g.20gb (42 of 108 SMs);
  // d = 0.3: g = 1 / (0.7 + 0.3 × 108/42) = 0.67961; 100 s → 147.14 s.
  Scenario s =
      OnePool("A100-40GB", 1, MigSharing(MigStrategy::kMixed, "all-balanced"));
  WorkloadClassSpec c = Jobs("j", 1, 1, 15000, 100);
  c.sm_demand = Distribution::Constant(0.3);
  s.workload.classes.push_back(c);
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 1);
  EXPECT_NE(r.pod_records[0].requests.find("nvidia.com/mig-3g.20gb=1"),
            std::string::npos);
  EXPECT_NEAR(r.pod_records[0].run_s, 100 * (0.7 + 0.3 * 108.0 / 42.0), 1e-6);
}

TEST(SimulationTest, JobOnSeveralMigInstancesPaysForCommunication) {
  // Two 3g.20gb instances for a 2-GPU job (d = 0: no SM effect): its
  // communication share c = 0.1 goes through host memory k = 10 times
  // slower: 100 s x (1 + 0.1 x 9) = 190 s. Whole GPUs, or one instance,
  // pay nothing. Its class runs one process per instance (without that it
  // cannot run: multi_gpu_sharing_test.cc).
  Scenario s =
      OnePool("A100-40GB", 1, MigSharing(MigStrategy::kMixed, "all-3g.20gb"));
  WorkloadClassSpec c = Jobs("j", 1, 2, 15000, 100);
  c.sm_demand = Distribution::Constant(0);
  c.multi_process = true;
  s.workload.classes.push_back(c);
  SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 1);
  EXPECT_NE(r.pod_records[0].requests.find("nvidia.com/mig-3g.20gb=2"),
            std::string::npos);
  EXPECT_NEAR(r.pod_records[0].run_s, 190, 1e-6);
  EXPECT_NEAR(r.pod_records[0].slowdown, 1.9, 1e-9);

  s.model.mig_comm_slowdown = 4;  // 1 + 0.1 x 3
  EXPECT_NEAR(RunIt(s).pod_records[0].run_s, 130, 1e-6);
  s.model.multi_gpu_comm_share = 0;
  EXPECT_NEAR(RunIt(s).pod_records[0].run_s, 100, 1e-6);

  Scenario whole = OnePool("A100-40GB", 2, ExclusiveSharing());
  whole.workload.classes.push_back(c);
  EXPECT_NEAR(RunIt(whole).pod_records[0].run_s, 100, 1e-6);
  Scenario one = s;
  one.model = ModelParams();
  one.workload.classes[0] = Jobs("j", 1, 1, 15000, 100);
  one.workload.classes[0].sm_demand = Distribution::Constant(0);
  EXPECT_NEAR(RunIt(one).pod_records[0].run_s, 100, 1e-6);
}

TEST(SimulationTest, OutOfMemoryUnderTimeSlicing) {
  // A (30000 MiB) starts first; B (20000 MiB) allocates last on the same
  // 40960 MiB GPU and fails; its restarts at 10, 30 and 70 s (back-off 10,
  // 20, 40) fail while A runs alone until 100 s; at 150 s B starts alone
  // and ends at 250 s.
  Scenario s = OnePool("A100-40GB", 1, TimeSlicingSharing(2));
  WorkloadClassSpec a = Jobs("a", 1, 1, 30000, 100);
  WorkloadClassSpec b = Jobs("b", 1, 1, 20000, 100);
  b.arrival_rate_per_s = 1e6;  // arrives just after A
  s.workload.classes = {a, b};
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  const PodRecord& pa =
      r.pod_records[0].name == "a-0" ? r.pod_records[0] : r.pod_records[1];
  const PodRecord& pb =
      r.pod_records[0].name == "a-0" ? r.pod_records[1] : r.pod_records[0];
  EXPECT_EQ(pa.oom_kills, 0);
  EXPECT_NEAR(pa.end_s, 100, 1e-3);
  EXPECT_EQ(pb.oom_kills, 4);
  EXPECT_EQ(pb.restarts, 4);
  EXPECT_NEAR(pb.end_s, 250, 1e-3);
  EXPECT_EQ(r.oom_kills, 4);
}

TEST(SimulationTest, HamiMemoryLimitFailsThePod) {
  // The pod asks for 10000 MiB of gpumem but needs 20000: CUDA OOM at every
  // start (0, 10 s, 30 s); with max_restarts 2 it fails for good at 30 s
  // and frees its vGPU.
  Scenario s = OnePool("A100-80GB", 1, HamiSharing());
  s.model.max_restarts = 2;
  WorkloadClassSpec c = Jobs("j", 1, 0.5, 20000, 100);
  c.requests = {{"nvidia.com/gpu", 1},
                {"nvidia.com/gpumem", 10000},
                {"nvidia.com/gpucores", 50}};
  s.workload.classes.push_back(c);
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.failed, 1);
  const PodRecord& p = r.pod_records[0];
  EXPECT_EQ(p.outcome, PodOutcome::kFailed);
  EXPECT_EQ(p.oom_kills, 3);
  EXPECT_EQ(p.restarts, 2);
  EXPECT_NEAR(p.end_s, 30, 1e-6);
  EXPECT_NE(p.message.find("footprint 20000 MiB over its limit of 10000 MiB"),
            std::string::npos)
      << p.message;
  // A pod that fails for good wastes every GPU-hour it held.
  EXPECT_GT(p.gpu_hours, 0);
  EXPECT_EQ(p.wasted_gpu_hours, p.gpu_hours);
  // The translated request (gpumem = footprint) runs.
  s.workload.classes[0].requests.clear();
  EXPECT_EQ(RunIt(s).succeeded, 1);
}

// One request per class (docs/model.md §3): a class whose footprint is
// 10000 MiB for 85 % of its pods and 30000 for 15 % asks its p80, 10000 MiB,
// under HAMi; its 30000 MiB pods are OOM-killed at every start and fail for
// good, as in a cluster; with request_percentile 90 every pod runs.
TEST(SimulationTest, PodsAboveTheirClassRequestAreOomKilled) {
  Scenario s = OnePool("A100-80GB", 2, HamiSharing());
  s.model.max_restarts = 1;
  WorkloadClassSpec c = Jobs("j", 40, 0.5, 10000, 100);
  c.gpu_memory_mib = Distribution::Choice({{10000, 0.85}, {30000, 0.15}});
  c.request_percentile = 80;
  s.workload.classes.push_back(c);
  const SimulationResult r = RunIt(s);
  int64_t big = 0;
  for (const PodRecord& p : r.pod_records) {
    const bool above = p.message.find("footprint 30000 MiB over its limit of "
                                      "10000 MiB") != std::string::npos;
    big += above ? 1 : 0;
    EXPECT_EQ(p.outcome, above ? PodOutcome::kFailed : PodOutcome::kSucceeded)
        << p.name << " " << p.message;
  }
  EXPECT_GT(big, 0);
  EXPECT_EQ(r.failed, big);
  s.workload.classes[0].request_percentile = 90;
  EXPECT_EQ(RunIt(s).succeeded, 40);
}

// Pools that mix schemes (docs/model.md §3): two 40 GB jobs translated for
// the exclusive A100 pool ask for nvidia.com/gpu: 1, which the HAMi L4 pool
// also advertises (a whole-memory vGPU of 23 GB there). Pinned to their
// pool, the second waits for the first (ends at 200 s) instead of starting
// on the L4 and being OOM killed.
TEST(SimulationTest, PodsAreKeptOnThePoolTheirRequestsWereWrittenFor) {
  Scenario s = OnePool("A100-80GB", 1, ExclusiveSharing());
  NodePoolSpec l4 = s.pools[0];
  l4.name = "l4";
  l4.gpu_model = "L4";
  l4.sharing = HamiSharing();
  s.pools.push_back(l4);
  s.workload.classes.push_back(Jobs("j", 2, 1, 40000, 100));
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  double last_end = 0;
  for (const PodRecord& p : r.pod_records) {
    EXPECT_EQ(p.pool, "p") << p.name;
    EXPECT_EQ(p.oom_kills, 0) << p.name;
    last_end = std::max(last_end, p.end_s);
  }
  EXPECT_NEAR(last_end, 200, 1e-6);
  // Small jobs fit both, but the L4 pool runs another scheme: still pinned.
  s.workload.classes[0] = Jobs("j", 2, 1, 8000, 100);
  for (const PodRecord& p : RunIt(s).pod_records) EXPECT_EQ(p.pool, "p");
  // With both pools exclusive, the same request means the same thing on
  // either: the second job spills over to the (slower) L4 and starts at
  // once.
  s.pools[1].sharing = ExclusiveSharing();
  const SimulationResult spill = RunIt(s);
  ASSERT_EQ(spill.succeeded, 2);
  EXPECT_NE(spill.pod_records[0].pool, spill.pod_records[1].pool);
  for (const PodRecord& p : spill.pod_records) EXPECT_LT(p.start_s, 1);
}

TEST(SimulationTest, FaultBlastRadiusMigAgainstTimeSlicing) {
  // Seven pods on one A100: time-sliced (7 replicas) they share the GPU and
  // a fault kills all seven; on MIG (7 x 1g.5gb, every instance used) each
  // has its own instance and the fault stays in exactly one.
  auto run = [](SharingConfig sharing) {
    Scenario s = OnePool("A100-40GB", 1, std::move(sharing));
    s.workload.classes.push_back(Jobs("j", 7, 1, 4000, 1000));
    FaultSpec f;
    f.pool = "p";
    f.at_s = 10;
    f.node = 0;
    f.gpu = 0;
    s.faults.push_back(f);
    return RunIt(s);
  };
  const SimulationResult ts = run(TimeSlicingSharing(7));
  EXPECT_EQ(ts.faults, 1);
  EXPECT_EQ(ts.fault_kills, 7);
  EXPECT_EQ(ts.max_blast_radius, 7);
  const SimulationResult mig =
      run(MigSharing(MigStrategy::kSingle, "all-1g.5gb"));
  EXPECT_EQ(mig.faults, 1);
  EXPECT_EQ(mig.fault_kills, 1);
  EXPECT_EQ(mig.max_blast_radius, 1);
  // Work done before the fault is lost, and killed pods restart after the
  // recovery and still complete.
  EXPECT_LT(ts.goodput, 1);
  EXPECT_EQ(ts.succeeded, 7);
  EXPECT_EQ(mig.succeeded, 7);
}

TEST(SimulationTest, EverySchemeCompletesItsWorkDeterministically) {
  // Work conservation is checked at every completion inside the simulation
  // (GS_CHECK); here every pod of a mixed workload must complete, and two
  // runs must give byte-identical JSON.
  for (SharingConfig sharing :
       {ExclusiveSharing(), TimeSlicingSharing(4), MpsSharing(4),
        MigSharing(MigStrategy::kMixed, "all-balanced"), HamiSharing()}) {
    Scenario s = OnePool("A100-80GB", 4, sharing);
    WorkloadClassSpec c = Jobs("j", 60, 0.25, 8000, 300);
    c.arrival_rate_per_s = 0.2;
    c.sm_demand = Distribution::Uniform(0.1, 0.9);
    c.duty = Distribution::Uniform(0.2, 1.0);
    c.work_s = Distribution::Exponential(300);
    s.workload.classes.push_back(c);
    const SimulationResult a = RunIt(s);
    const SimulationResult b = RunIt(s);
    EXPECT_EQ(a.succeeded, 60) << SharingSchemeName(sharing.scheme());
    EXPECT_EQ(ResultToJsonText(a), ResultToJsonText(b));
  }
}

TEST(SimulationTest, PodWaitsForAFaultedGpuToRecover) {
  // A GPU faults at t = 0 and is down for 100 s: its device plugin reports
  // it Unhealthy, so the node's allocatable drops and a pod that only fits
  // there waits (unschedulable) until it recovers, then starts at once.
  auto run = [](SharingConfig sharing, int gpus, int gpu, int pods) {
    Scenario s = OnePool("A100-40GB", gpus, std::move(sharing));
    s.workload.classes.push_back(Jobs("j", pods, 1, 4000, 1000));
    FaultSpec f;
    f.pool = "p";
    f.at_s = 0;
    f.node = 0;
    f.gpu = gpu;
    f.recovery_s = 100;
    s.faults.push_back(f);
    return RunIt(s);
  };
  auto started_late = [](const SimulationResult& r) {
    int late = 0;
    for (const PodRecord& p : r.pod_records) {
      EXPECT_EQ(p.fault_kills, 0);
      if (p.start_s > 1) {
        EXPECT_NEAR(p.start_s, 100, 1e-6);
        EXPECT_NEAR(p.wait_s, 100, 1e-6);
        ++late;
      } else {
        EXPECT_NEAR(p.wait_s, 0, 1e-6);
      }
    }
    return late;
  };
  // Exclusive, 2 GPUs, GPU 1 down: of two pods one waits.
  const SimulationResult excl = run(ExclusiveSharing(), 2, 1, 2);
  EXPECT_EQ(excl.succeeded, 2);
  EXPECT_EQ(started_late(excl), 1);
  // Time-slicing x2: both replicas of GPU 1 go; of four pods two wait.
  const SimulationResult ts = run(TimeSlicingSharing(2), 2, 1, 4);
  EXPECT_EQ(ts.succeeded, 4);
  EXPECT_EQ(started_late(ts), 2);
  // MIG 7 x 1g.5gb: the fault stays in one instance; of seven pods one waits.
  const SimulationResult mig =
      run(MigSharing(MigStrategy::kSingle, "all-1g.5gb"), 1, 0, 7);
  EXPECT_EQ(mig.succeeded, 7);
  EXPECT_EQ(started_late(mig), 1);
  // HAMi: the whole-card pods need an empty healthy GPU.
  const SimulationResult hami = run(HamiSharing(), 2, 1, 2);
  EXPECT_EQ(hami.succeeded, 2);
  EXPECT_EQ(started_late(hami), 1);
}

}  // namespace
}  // namespace simulation_test
}  // namespace gpushare
