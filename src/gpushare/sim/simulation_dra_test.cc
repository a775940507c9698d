// Runs on DRA pools (cluster/dra/dra_gpu_devices.h), hand-computed: pods run
// on whole GPUs and MIG devices handed out by the DynamicResources plugin as
// they would under the device plugin, and pods holding DRA devices are no
// preemption victims unless the profile's dra_preemption says so.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

}  // namespace
}  // namespace simulation_dra_test
}  // namespace gpushare
