// Time-based replay of traces through whole simulations: an openb slice
// under two sharing schemes, and a kubectl import with running pods.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {
namespace trace_replay_test {
namespace {

// Scenario text "read" from tests/data/replay/ so that paths resolve there.
const std::string kFile = GS_TESTDATA_DIR "/replay/inline.yaml";

std::string OpenbScenario(const std::string& sharing) {
  return "name: replay\n"
         "cluster:\n"
         "  import: {format: openb, file: openb_nodes.csv, sharing: " +
         sharing +
         "}\n"
         "workload:\n"
         "  trace: {format: openb, file: openb_pods.csv}\n"
         "sample_interval_s: 600\n";
}

SimulationResult Simulate(const Scenario& scenario) {
  const Catalog catalog = Catalog::Builtin();
  Simulation sim(scenario, catalog);
  Collector collector(sim, scenario.name, scenario.seed, false);
  sim.Run(&collector);
  return collector.TakeResult();
}

std::map<std::string, PodRecord> ByName(const SimulationResult& r) {
  std::map<std::string, PodRecord> out;
  for (const PodRecord& p : r.pod_records) out[p.name] = p;
  return out;
}

TEST(TraceReplayTest, OpenbPodsArriveAndLeaveAtTheirTraceTimes) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario s =
      ReadScenarioYaml(OpenbScenario("{scheme: exclusive}"), kFile, catalog);
  ASSERT_EQ(s.pools.size(), 3u);
  const SimulationResult r = Simulate(s);
  ASSERT_EQ(r.pod_records.size(), 12u);
  const auto pods = ByName(r);
  EXPECT_EQ(pods.at("openb-pod-0000").arrival_s, 0);
  EXPECT_EQ(pods.at("openb-pod-0000").start_s, 0);
  EXPECT_EQ(pods.at("openb-pod-0000").end_s, 3600);
  EXPECT_EQ(pods.at("openb-pod-0000").outcome, PodOutcome::kDeleted);
  EXPECT_EQ(pods.at("openb-pod-0011").arrival_s, 660);
  for (const PodRecord& p : r.pod_records) {
    if (p.outcome != PodOutcome::kDeleted) continue;
    EXPECT_GE(p.start_s, p.arrival_s) << p.name;
  }
  // Exclusive: a 0.46 share takes a whole GPU; the T4-only pod runs on T4.
  EXPECT_EQ(pods.at("openb-pod-0001").requests,
            "cpu=6000m memory=12288Mi nvidia.com/gpu=1");
  EXPECT_EQ(pods.at("openb-pod-0006").pool, "t4-x1");
  EXPECT_EQ(pods.at("openb-pod-0005").pool, "cpu");
}

TEST(TraceReplayTest, OpenbSharesShareGpusUnderHamiAndQueueLess) {
  const Catalog catalog = Catalog::Builtin();
  const SimulationResult exclusive = Simulate(
      ReadScenarioYaml(OpenbScenario("{scheme: exclusive}"), kFile, catalog));
  const SimulationResult hami = Simulate(
      ReadScenarioYaml(OpenbScenario("{scheme: hami}"), kFile, catalog));
  const auto e = ByName(exclusive);
  const auto h = ByName(hami);
  EXPECT_NE(h.at("openb-pod-0001").requests.find("nvidia.com/gpumem=3768"),
            std::string::npos)
      << h.at("openb-pod-0001").requests;
  double wait_exclusive = 0;
  double wait_hami = 0;
  for (const auto& [name, p] : e) wait_exclusive += std::max(0.0, p.wait_s);
  for (const auto& [name, p] : h) wait_hami += std::max(0.0, p.wait_s);
  EXPECT_GT(wait_exclusive, 0);
  EXPECT_LT(wait_hami, wait_exclusive);
  // Same trace, same lifetimes: a pod that ran lived exactly as long.
  for (const auto& [name, p] : h) {
    if (p.outcome == PodOutcome::kDeleted &&
        e.at(name).outcome == PodOutcome::kDeleted) {
      EXPECT_DOUBLE_EQ(p.end_s - p.start_s,
                       e.at(name).end_s - e.at(name).start_s)
          << name;
    }
  }
}

TEST(TraceReplayTest, ReplayIsDeterministic) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario s =
      ReadScenarioYaml(OpenbScenario("{scheme: hami}"), kFile, catalog);
  EXPECT_EQ(ResultToJsonText(Simulate(s)), ResultToJsonText(Simulate(s)));
}

TEST(TraceReplayTest, KubectlRunningPodsOccupyTheirNodesAtTimeZero) {
  const Catalog catalog = Catalog::Builtin();
  const std::string text =
      "name: kubectl\n"
      "cluster:\n"
      "  import: {format: kubectl, file: ../kubectl/nodes.json}\n"
      "workload:\n"
      "  trace:\n"
      "    format: kubectl\n"
      "    file: ../kubectl/pods.json\n"
      "    defaults: {lifetime_s: 1200}\n";
  const SimulationResult r = Simulate(ReadScenarioYaml(text, kFile, catalog));
  const auto pods = ByName(r);
  ASSERT_EQ(pods.size(), 6u);
  const PodRecord& infer = pods.at("ml/infer-a-5d9c7");
  EXPECT_EQ(infer.node, "gpu-a100-0");
  EXPECT_EQ(infer.start_s, 0);
  EXPECT_EQ(infer.end_s, 1200);
  EXPECT_EQ(pods.at("kube-system/kube-proxy-7xk2p").node, "cpu-0");
  EXPECT_EQ(pods.at("platform/notebook-c").node, "gpu-a10-0");
  EXPECT_EQ(pods.at("ml/train-b").node, "gpu-l4-0");
  // Pending pods are scheduled by their selectors, affinity and tolerations.
  EXPECT_EQ(pods.at("ml/pending-d").node, "gpu-a100-0");
  EXPECT_EQ(pods.at("ml/pending-d").requests,
            "cpu=4000m memory=32768Mi nvidia.com/mig-3g.40gb=1");
  EXPECT_EQ(pods.at("research/pending-e").node, "gpu-l4-1");
}

}  // namespace
}  // namespace trace_replay_test
}  // namespace gpushare
