// Runs on DRA pools (cluster/dra/dra_gpu_devices.h), hand-computed: pods run
// on whole GPUs and MIG devices handed out by the DynamicResources plugin as
// they would under the device plugin, and pods holding DRA devices are no
// preemption victims unless the profile's dra_preemption says so.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_dra_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

Scenario DraWithPods(int gpus, std::vector<Pod> pods) {
  Scenario s = ExclusiveWithPods(gpus, std::move(pods));
  s.pools[0].devices = PoolDevices::kDra;
  s.scheduler.check_invariants = true;
  return s;
}

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario, /*record_devices=*/true);
}

// Two jobs on two DRA GPUs run side by side from 0, as exclusive GPUs.
TEST(SimulationDraTest, WholeGpusRunAsExclusive) {
  const Scenario dra = DraWithPods(2, {TraceJob("a", 0, 100),
                                       TraceJob("b", 0, 100)});
  const SimulationResult r = RunIt(dra);
  ASSERT_EQ(r.succeeded, 2);
  const SimulationResult plugin = RunIt(
      ExclusiveWithPods(2, {TraceJob("a", 0, 100), TraceJob("b", 0, 100)}));
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(r.pod_records[i].start_s, plugin.pod_records[i].start_s, 1e-9);
    EXPECT_NEAR(r.pod_records[i].end_s, plugin.pod_records[i].end_s, 1e-9);
    EXPECT_EQ(r.pod_records[i].pool, "p");
  }
}

// One DRA GPU held by `low`: `high` cannot preempt it (no DRA victims
// upstream until KEP-5690) and starts when low ends at 1000.
TEST(SimulationDraTest, NoDraPodIsAVictim) {
  const SimulationResult r = RunIt(DraWithPods(
      1, {TraceJob("low", 0, 1000, 0), TraceJob("high", 400, 100, 100)}));
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_NEAR(r.pod_records[1].start_s, 1000, 1e-6);
  EXPECT_NEAR(r.pod_records[1].end_s, 1100, 1e-6);
}

// dra_preemption: the version that can preempts as the device plugin's
// pools do: low evicted at 400, high runs after its 30 s grace.
TEST(SimulationDraTest, DraPreemptionSwitchAllowsVictims) {
  Scenario s = DraWithPods(
      1, {TraceJob("low", 0, 1000, 0), TraceJob("high", 400, 100, 100)});
  s.scheduler.dra_preemption = true;
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_NEAR(r.pod_records[1].start_s, 430, 1e-6);
}

// A waiting DRA pod is woken when a pod on a node of its pool ends.
TEST(SimulationDraTest, WaitingPodStartsWhenADeviceIsFreed) {
  const SimulationResult r = RunIt(DraWithPods(
      1, {TraceJob("a", 0, 300), TraceJob("b", 10, 100),
          TraceJob("c", 20, 100)}));
  ASSERT_EQ(r.succeeded, 3);
  EXPECT_NEAR(r.pod_records[1].start_s, 300, 1e-6);
  EXPECT_NEAR(r.pod_records[2].start_s, 400, 1e-6);
}

// The scheduler's speed-ups decide for DRA pods as the full scan does:
// examples/dra.yaml gives the same JSON without pruning by free resources,
// without reused node results, and with every invariant checked.
TEST(SimulationDraTest, SpeedUpsChangeNothingOnTheDraExample) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario fast = ReadScenarioFile(
      GS_TESTDATA_DIR "/../../examples/dra.yaml", catalog);
  Scenario slow = fast;
  slow.scheduler.prune_by_free_resources = false;
  slow.scheduler.reuse_node_results = false;
  slow.scheduler.check_invariants = true;
  const SimulationResult a = RunIt(fast);
  const SimulationResult b = RunIt(slow);
  EXPECT_GT(a.succeeded, 0);
  EXPECT_EQ(ResultToJson(a).dump(), ResultToJson(b).dump());
}

// Two pods of one shared claim (dra_claim "c") on a DRA pool of two GPUs:
// both run on the claim's one GPU, time-sliced as the NVIDIA driver's
// default GpuConfig sharing (TimeSlicing, interval Default) has it: two
// residents with GPU work share a capacity of eta = 1.024 / (1.024 + 0.2),
// each progressing at eta / 2, so 100 s of work ends at 200 / eta =
// 239.0625 s. A pod with a claim of its own gets the other GPU and ends at
// 100.
TEST(SimulationDraTest, PodsOfASharedClaimTimeSliceItsGpu) {
  std::vector<Pod> pods = {TraceJob("a", 0, 100), TraceJob("b", 0, 100),
                           TraceJob("own", 0, 100)};
  pods[0].dra_claim = "c";
  pods[1].dra_claim = "c";
  const SimulationResult r = RunIt(DraWithPods(2, std::move(pods)));
  ASSERT_EQ(r.succeeded, 3);
  EXPECT_EQ(r.pod_records[0].devices, r.pod_records[1].devices);
  EXPECT_NE(r.pod_records[2].devices, r.pod_records[0].devices);
  EXPECT_NEAR(r.pod_records[0].end_s, 200 * 1.224 / 1.024, 1e-6);
  EXPECT_NEAR(r.pod_records[1].end_s, 200 * 1.224 / 1.024, 1e-6);
  EXPECT_NEAR(r.pod_records[2].end_s, 100, 1e-6);
}

// On a pool of the device plugin (a variant of compare or plan) pods of a
// shared claim get GPUs of their own: one after the other on one GPU.
TEST(SimulationDraTest, SharedClaimOffDraIsAGpuPerPod) {
  std::vector<Pod> pods = {TraceJob("a", 0, 100), TraceJob("b", 0, 100)};
  pods[0].dra_claim = "c";
  pods[1].dra_claim = "c";
  const SimulationResult r = RunIt(ExclusiveWithPods(1, std::move(pods)));
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_NEAR(r.pod_records[1].start_s, 100, 1e-6);
}

// "DRA MPS": two pods of one claim share its GPU under the MPS model with
// the claim's limits — 50% of the SMs each (a pod that could use them all
// runs at half speed), slowed by the MPS model's co-runner interference
// (1 + 0.075 for one co-runner, docs/model.md §6.3): 100 s of work ends at
// 100 x 2 x 1.075 = 215 s for both, at once on the one GPU — and a pod above the pinned memory limit (900 MiB; footprints
// are 1000 MiB) is OOM-killed when it starts.
TEST(SimulationDraTest, DraMpsAppliesTheClaimsLimits) {
  std::vector<Pod> pods = {TraceJob("a", 0, 100), TraceJob("b", 0, 100)};
  pods[0].dra_claim = "c";
  pods[1].dra_claim = "c";
  Scenario s = DraWithPods(2, pods);
  s.pools[0].sharing = MpsSharing(4);
  s.pools[0].dra.mps_active_thread_percentage = 50;
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_EQ(r.pod_records[0].devices, r.pod_records[1].devices);
  EXPECT_NEAR(r.pod_records[0].end_s, 215, 1e-6);
  EXPECT_NEAR(r.pod_records[1].end_s, 215, 1e-6);

  s.pools[0].dra.mps_pinned_memory_limit_mib = 900;
  const SimulationResult oom = RunIt(s);
  EXPECT_EQ(oom.succeeded, 0);
  EXPECT_GT(oom.pod_records[0].oom_kills, 0);
}

}  // namespace
}  // namespace simulation_dra_test
}  // namespace gpushare
