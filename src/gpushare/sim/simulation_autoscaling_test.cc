// Hand-computed runs of autoscaled pools (docs/model.md, "Elastic node
// pools") driven by a scripted Autoscaler double: the engine's node
// lifecycle (launch, kubelet Ready, GPUs allocatable, give-up, drain,
// removal) and its bookkeeping, apart from the providers' decision models.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "gpushare/metrics/collector.h"
#include "gpushare/sim/autoscaler.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_autoscaling_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

// Decides every 10 s: one node for the pending pods when none is
// launching; removes a ready node empty for `unneeded_s` (seen at its
// decisions); at `down_at_s`, scales down node `down_node` once.
class ScriptedAutoscaler : public Autoscaler {
 public:
  double unneeded_s = std::numeric_limits<double>::infinity();
  double down_at_s = -1;
  int down_node = -1;
  std::vector<double> decisions;

  double NextDecisionS(double now_s) const override {
    return std::floor(now_s / 10) * 10 + 10;
  }
  AutoscalerDecision Decide(const AutoscalerSnapshot& s) override {
    decisions.push_back(s.now_s);
    AutoscalerDecision d;
    for (const AutoscalerGroupView& g : s.groups) {
      bool launching = false;
      for (const AutoscalerNodeView& n : g.nodes) {
        launching |= n.state == AutoscalerNodeView::State::kLaunching;
        if (n.state != AutoscalerNodeView::State::kReady) continue;
        if (!n.pods.empty()) {
          empty_since_.erase(n.node);
          continue;
        }
        auto [it, added] = empty_since_.try_emplace(n.node, s.now_s);
        if (s.now_s - it->second >= unneeded_s) {
          d.scale_downs.push_back({n.node, "unneeded"});
          empty_since_.erase(it);
        }
      }
      if (down_at_s >= 0 && s.now_s >= down_at_s) {
        d.scale_downs.push_back({down_node, "scripted"});
        down_at_s = -1;
      }
      std::vector<PodIndex> pods;
      for (const AutoscalerPendingPod& p : s.pending) {
        if (p.pool == g.pool) pods.push_back(p.pod);
      }
      if (!pods.empty() && !launching) {
        d.scale_ups.push_back({g.pool, 1, "", false, pods});
      }
      for (PodIndex p : pods) {
        if (launching) d.no_scale_up.push_back({p, g.pool, "waits", "x#1"});
      }
    }
    return d;
  }

 private:
  std::map<int, double> empty_since_;
};

struct Outcome {
  SimulationResult result;
};

// Pool "p": exclusive A100-40GB, one GPU a node, `nodes` at the start,
// cluster-autoscaler 0..`max`; bring-up 60 s boot + 300 s GPU stack.
Scenario Elastic(std::vector<Pod> pods, int nodes, int max) {
  Scenario s = ExclusiveWithPods(1, std::move(pods));
  NodePoolSpec& p = s.pools[0];
  p.nodes = nodes;
  p.autoscaling.provider = AutoscalerProvider::kClusterAutoscaler;
  p.autoscaling.min_nodes = 0;
  p.autoscaling.max_nodes = max;
  s.model.node_boot_s = 60;
  s.model.gpu_stack_ready_s = 300;
  return s;
}

Outcome RunWith(const Scenario& scenario, ScriptedAutoscaler* script) {
  static const Catalog catalog = Catalog::Builtin();
  Simulation sim(scenario, catalog);
  ScriptedAutoscaler copy = *script;
  sim.SetAutoscalerFactory(
      [&](AutoscalerProvider, const Cluster&, const std::vector<int>&, Rng) {
        return std::make_unique<ScriptedAutoscaler>(copy);
      });
  Collector collector(sim, scenario.name, scenario.seed, false);
  sim.Run(&collector);
  return {collector.TakeResult()};
}

double A100Price() {
  return Catalog::Builtin().Get("A100-40GB").price_per_hour;
}

// The pod arrives at 5 and fails its cycle (no node); the scan at 10
// launches a node: kubelet Ready at 70, GPUs at 370, where the pod binds
// (waited 365 s) and runs its 100 s to 470. The node is billed 10..470.
TEST(SimulationAutoscalingTest, ScaleUpWaitsForScanBootAndGpuStack) {
  ScriptedAutoscaler script;
  const Outcome r = RunWith(Elastic({TraceJob("a", 5, 100)}, 0, 2), &script);
  ASSERT_EQ(r.result.succeeded, 1);
  const PodRecord& a = r.result.pod_records[0];
  EXPECT_NEAR(a.start_s, 370, 1e-9);
  EXPECT_NEAR(a.end_s, 470, 1e-9);
  const PoolSummary& p = r.result.pools[0];
  ASSERT_TRUE(p.elastic);
  const ElasticPoolStats& s = p.autoscaling;
  EXPECT_EQ(s.nodes_launched, 1);
  EXPECT_EQ(s.pods_waited, 1);
  EXPECT_NEAR(s.wait_mean_s, 365, 1e-9);
  EXPECT_NEAR(s.wait_p99_s, 365, 1e-9);
  EXPECT_NEAR(s.node_hours, 460 / 3600.0, 1e-12);
  EXPECT_NEAR(p.gpu_hours, 460 / 3600.0, 1e-12);
  EXPECT_NEAR(p.cost, 460 / 3600.0 * A100Price(), 1e-9);
  EXPECT_NEAR(r.result.cost, p.cost, 1e-12);
  EXPECT_EQ(s.peak_nodes, 1);
  // Samples every 10 s (a node event at a sample's time comes first): no
  // node at 0, one booting from 10, ready from 370.
  ASSERT_GE(s.samples.size(), 40u);
  EXPECT_EQ(s.samples[0].nodes, 0);
  EXPECT_EQ(s.samples[1].nodes, 1);   // t = 10: booting
  EXPECT_EQ(s.samples[1].ready, 0);
  EXPECT_EQ(s.samples[36].ready, 0);  // t = 360
  EXPECT_EQ(s.samples[37].ready, 1);  // t = 370
  // Pool samples see no GPU before the node: none idle at t = 0.
  EXPECT_EQ(p.samples[0].idle_gpus, 0);
  EXPECT_EQ(p.samples[10].idle_gpus, 1);  // t = 100: booting, billed, idle
}

// The node is empty from 470 (the scan at 470 comes after the completion)
// and removed at 1070; the second pod (arrival 1500, before that instant's
// scan) gets a new node at 1500, ready 1860, done 1960. Billed: 10..1070
// and 1500..1960.
TEST(SimulationAutoscalingTest, ScaleDownAfterTheUnneededTime) {
  ScriptedAutoscaler script;
  script.unneeded_s = 600;
  const Outcome r = RunWith(
      Elastic({TraceJob("a", 5, 100), TraceJob("b", 1500, 100)}, 0, 1),
      &script);
  ASSERT_EQ(r.result.succeeded, 2);
  EXPECT_NEAR(r.result.pod_records[1].start_s, 1860, 1e-9);
  const ElasticPoolStats& s = r.result.pools[0].autoscaling;
  EXPECT_EQ(s.nodes_launched, 2);
  EXPECT_EQ(s.nodes_removed, 1);
  EXPECT_EQ(s.pods_evicted, 0);
  EXPECT_NEAR(s.node_hours, (1060 + 460) / 3600.0, 1e-12);
  EXPECT_EQ(s.samples[106].nodes, 1);  // t = 1060
  EXPECT_EQ(s.samples[107].nodes, 0);  // t = 1070
}

// The node that runs `a` (started at 0 on the node the pool starts with) is
// scaled down at 100: `a` is evicted (grace 30 s, 100 s of work lost) and
// the node goes at 130 when it is gone; `a` waits again, the scan at 130
// launches a node, ready at 490, and `a` runs its 1000 s again to 1490.
TEST(SimulationAutoscalingTest, DrainEvictsAndTheControllerRequeues) {
  ScriptedAutoscaler script;
  script.down_at_s = 100;
  script.down_node = 0;
  Pod a = TraceJob("a", 0, 1000);
  a.termination_grace_period_s = 30;
  const Outcome r = RunWith(Elastic({a}, 1, 1), &script);
  ASSERT_EQ(r.result.succeeded, 1);
  const PodRecord& rec = r.result.pod_records[0];
  EXPECT_NEAR(rec.lost_work_s, 100, 1e-9);
  EXPECT_NEAR(rec.end_s, 1490, 1e-9);
  EXPECT_EQ(r.result.preemptions, 0);
  const ElasticPoolStats& s = r.result.pools[0].autoscaling;
  EXPECT_EQ(s.pods_evicted, 1);
  EXPECT_EQ(s.nodes_removed, 1);
  EXPECT_EQ(s.nodes_launched, 1);
  EXPECT_NEAR(s.node_hours, (130 + 1360) / 3600.0, 1e-12);
  EXPECT_EQ(s.pods_waited, 1);
  EXPECT_NEAR(s.wait_mean_s, 490 - 130, 1e-9);
}

// cluster-autoscaler's --max-node-provision-time 200 s against a 360 s
// bring-up: each node is given up 200 s after its launch and the group
// backs off 300 s (launches at 10 and 510; the next back-off ends past the
// horizon). The pod never runs; 400 node-seconds are billed.
TEST(SimulationAutoscalingTest, NodeNotReadyInTimeIsGivenUp) {
  ScriptedAutoscaler script;
  Scenario s = Elastic({TraceJob("a", 5, 100)}, 0, 2);
  s.pools[0].autoscaling.cluster_autoscaler.max_node_provision_time_s = 200;
  s.horizon_s = 1000;
  const Outcome r = RunWith(s, &script);
  EXPECT_EQ(r.result.succeeded, 0);
  const ElasticPoolStats& st = r.result.pools[0].autoscaling;
  EXPECT_EQ(st.nodes_launched, 2);
  EXPECT_EQ(st.nodes_given_up, 2);
  EXPECT_NEAR(st.node_hours, 400 / 3600.0, 1e-12);
  // The double notes the pod while a node launches (distinct pods).
  ASSERT_EQ(st.no_scale_up.size(), 1u);
  EXPECT_EQ(st.no_scale_up[0].pods, 1);
  EXPECT_EQ(st.no_scale_up[0].upstream, "x#1");
}

// A pool without autoscaling has no elastic stats.
TEST(SimulationAutoscalingTest, FixedPoolsHaveNone) {
  const SimulationResult r = testing_scenarios::RunAndCollect(
      ExclusiveWithPods(1, {TraceJob("a", 0, 10)}));
  EXPECT_FALSE(r.pools[0].elastic);
}

}  // namespace
}  // namespace simulation_autoscaling_test
}  // namespace gpushare
