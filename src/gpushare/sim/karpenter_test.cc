// Unit tests of Karpenter on hand-built snapshots; each expected decision is
// computed by hand in the comment above it.

#include "gpushare/sim/karpenter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/sim/test_autoscaler_snapshots.h"

namespace gpushare {
namespace {

using State = AutoscalerNodeView::State;
constexpr AutoscalerProvider kKp = AutoscalerProvider::kKarpenter;

class KarpenterTest : public AutoscalerSnapshotTest {
 protected:
  static Karpenter Make(std::vector<int> pools) {
    return Karpenter(std::move(pools), KarpenterSettings{}, Rng(3));
  }
  std::vector<AutoscalerPendingPod> GpuPods(int count, int pool,
                                            int64_t gpus = 1) {
    std::vector<AutoscalerPendingPod> out;
    for (int i = 0; i < count; ++i) out.push_back(Pending(i, pool, GpuPod(gpus)));
    return out;
  }
  // Types of 1, 4 and 8 GPUs at $10, $35 and $80 an hour.
  static void ThreeTypes(NodePoolSpec* spec) {
    spec->autoscaling.karpenter.instance_types = {
        {"g1", 1, 10, 0}, {"g4", 4, 35, 0}, {"g8", 8, 80, 0}};
  }
  // Decides at `t` (pods first seen there) and at t + 1 s (the batch closes
  // after 1 s idle); returns the second decision.
  AutoscalerDecision Batch(Karpenter* k, double t, AutoscalerGroupView group,
                           std::vector<AutoscalerPendingPod> pods) {
    k->Decide(Snapshot(t, {group}, pods));
    return k->Decide(Snapshot(t + 1, {group}, pods));
  }
  static int TotalPods(const AutoscalerDecision& d) {
    int n = 0;
    for (const ScaleUpAction& a : d.scale_ups) n += static_cast<int>(a.for_pods.size());
    return n;
  }
};

// Idle: the next decision is the consolidation check every 10 s. A pod
// first seen at 3 s opens a batch that closes at 4 s (1 s without a new
// pod): one 8-GPU node for it then, not before.
TEST_F(KarpenterTest, BatchIdleWindow) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  Karpenter k = Make({0});
  k.Decide(Snapshot(0, {Group(0, spec, 80)}));
  EXPECT_DOUBLE_EQ(k.NextDecisionS(0), 10);
  EXPECT_TRUE(k.Decide(Snapshot(3, {Group(0, spec, 80)}, GpuPods(1, 0)))
                  .scale_ups.empty());
  EXPECT_DOUBLE_EQ(k.NextDecisionS(3), 4);
  AutoscalerDecision d = k.Decide(Snapshot(4, {Group(0, spec, 80)}, GpuPods(1, 0)));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].instance_type, "pool0");
  EXPECT_EQ(d.scale_ups[0].nodes, 1);
}

// A new pod every 0.5 s keeps the batch open until 10 s after it opened:
// at 10 s, 21 one-GPU pods go on NodeClaims of 8 GPUs: 8 + 8 + 5 -> 3.
TEST_F(KarpenterTest, BatchMaxWindow) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  Karpenter k = Make({0});
  std::vector<AutoscalerPendingPod> pods;
  AutoscalerDecision d;
  for (int i = 0; i <= 20; ++i) {
    pods.push_back(Pending(i, 0, GpuPod(1)));
    d = k.Decide(Snapshot(0.5 * i, {Group(0, spec, 80)}, pods));
    if (i < 20) {
      EXPECT_TRUE(d.scale_ups.empty()) << i;
    }
  }
  ASSERT_EQ(d.scale_ups.size(), 3u);
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 8u);
  EXPECT_EQ(d.scale_ups[1].for_pods.size(), 8u);
  EXPECT_EQ(d.scale_ups[2].for_pods.size(), 5u);
}

// Time-slicing x4: Karpenter sizes by the type's 8 physical GPUs, so 10
// one-replica pods take 2 new nodes (8 + 2) where one node (32) would do;
// on a ready node advertising 32 replicas (20 used) the same 10 pods fit.
TEST_F(KarpenterTest, TimeSlicingOverProvisions) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  AutoscalerGroupView group = Group(0, spec, 80);
  group.ready_node_allocatable = GpuNode(32);
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, group, GpuPods(10, 0));
  ASSERT_EQ(d.scale_ups.size(), 2u);
  EXPECT_EQ(TotalPods(d), 10);

  group.nodes.push_back(
      Ready(0, 0, GpuNode(32), std::vector<ResourceList>(20, GpuPod(1))));
  Karpenter k2 = Make({0});
  EXPECT_TRUE(Batch(&k2, 0, group, GpuPods(10, 0)).scale_ups.empty());
}

// Types g1 $10, g4 $35, g8 $80; 10 one-GPU pods. Claim A narrows {g1,g4,g8}
// -> {g4,g8} (pod 2) -> {g8} (pod 5), full at 8; pod 9 opens claim B
// {g1,g4,g8}, pod 10 narrows it to {g4,g8}. Launches: g8 ($80) and g4
// ($35) = 12 physical GPUs for 10 time-sliced replicas.
TEST_F(KarpenterTest, CheapestTypeThatHoldsTheClaim) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  ThreeTypes(spec);
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, Group(0, spec), GpuPods(10, 0));
  ASSERT_EQ(d.scale_ups.size(), 2u);
  EXPECT_EQ(d.scale_ups[0].instance_type, "g8");
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 8u);
  EXPECT_EQ(d.scale_ups[1].instance_type, "g4");
  EXPECT_EQ(d.scale_ups[1].for_pods.size(), 2u);
}

// A pod asking 4 replicas where every type has 1 physical GPU (the ready
// node would advertise 4): no type holds it.
TEST_F(KarpenterTest, ReplicasAboveAnyTypesGpusCannotSchedule) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  spec->gpus_per_node = 1;
  spec->autoscaling.karpenter.instance_types = {{"g1", 1, 10, 0}};
  AutoscalerGroupView group = Group(0, spec);
  group.ready_node_allocatable = Res(96000, 1048576, {{gpu_, 4}});
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, group, GpuPods(1, 0, 4));
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 1u);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "Failed to schedule pod, no instance type has enough resources, "
            "resources={\"cpu\":\"1000m\",\"memory\":\"1024Mi\","
            "\"nvidia.com/gpu\":\"4\",\"pods\":\"1\"}");
  EXPECT_EQ(d.no_scale_up[0].upstream, "kubernetes-sigs/karpenter#729");
}

// Spot: g4 $35 (no spot), g8 $80 or $30 spot. 3 one-GPU pods -> options
// {g4, g8}: with spot on, g8 at $30 < g4 at $35 -> g8 spot; spot off -> g4.
TEST_F(KarpenterTest, SpotWhereOfferedAndCheaper) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  spec->autoscaling.karpenter.instance_types = {{"g4", 4, 35, 0},
                                                {"g8", 8, 80, 30}};
  spec->autoscaling.karpenter.spot = true;
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, Group(0, spec), GpuPods(3, 0));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].instance_type, "g8");
  EXPECT_TRUE(d.scale_ups[0].spot);
  spec->autoscaling.karpenter.spot = false;
  Karpenter k2 = Make({0});
  AutoscalerDecision d2 = Batch(&k2, 0, Group(0, spec), GpuPods(3, 0));
  ASSERT_EQ(d2.scale_ups.size(), 1u);
  EXPECT_EQ(d2.scale_ups[0].instance_type, "g4");
  EXPECT_FALSE(d2.scale_ups[0].spot);
}

// limits nvidia.com/gpu 16, a full ready node advertising 8: 8 left. 10
// pods: claim A (8 GPUs; 0 left) takes 8; pods 9 and 10 find no type
// within the limit.
TEST_F(KarpenterTest, NodePoolLimits) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  spec->autoscaling.karpenter.limits = {{"nvidia.com/gpu", 16}};
  AutoscalerGroupView group = Group(0, spec, 80);
  group.nodes.push_back(
      Ready(0, 0, GpuNode(8), std::vector<ResourceList>(8, GpuPod(1))));
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, group, GpuPods(10, 0));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 8u);
  ASSERT_EQ(d.no_scale_up.size(), 2u);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "Failed to schedule pod, all available instance types exceed "
            "limits for nodepool");
}

// max_nodes 1 with one node launching: the node limit is exhausted; its
// type's 8 GPUs (not yet ready) hold the first 8 of 9 pods.
TEST_F(KarpenterTest, NodeLimitAndInflightCapacity) {
  NodePoolSpec* spec = Spec(kKp, 0, 1);
  AutoscalerGroupView group = Group(0, spec, 80);
  group.nodes.push_back(Launching(0, 0));
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(&k, 0, group, GpuPods(9, 0));
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 1u);
  EXPECT_EQ(d.no_scale_up[0].pod, 8);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "Failed to schedule pod, node limits have been exhausted for nodepool");
}

// HAMi's gpumem is no instance type's resource; DRA pods are refused.
TEST_F(KarpenterTest, ExtenderResourcesAndDra) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  Karpenter k = Make({0});
  AutoscalerDecision d = Batch(
      &k, 0, Group(0, spec),
      {Pending(0, 0, Res(1000, 1024, {{gpu_, 1}, {gpumem_, 20000}})),
       Pending(1, 0, Res(1000, 1024, {{dra_, 1}}), 0, /*claims=*/true)});
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 2u);
  EXPECT_EQ(d.no_scale_up[0].pod, 0);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "Failed to schedule pod, no instance type has enough resources, "
            "resources={\"cpu\":\"1000m\",\"memory\":\"1024Mi\","
            "\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":\"20000\","
            "\"pods\":\"1\"}");
  EXPECT_EQ(d.no_scale_up[0].upstream, "aws/karpenter-provider-aws#1900");
  EXPECT_EQ(d.no_scale_up[1].reason,
            "Failed to schedule pod, pod has Dynamic Resource Allocation "
            "requirements that are not yet supported by Karpenter");
}

// consolidateAfter 300 s: node 0, ready (and empty) since 0, is deleted at
// the check at 300 s, not at 290 s; budget ceil(10 % of 2) = 1.
TEST_F(KarpenterTest, EmptyNodeAfterConsolidateAfter) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  spec->autoscaling.karpenter.consolidate_after_s = 300;
  AutoscalerGroupView group = Group(0, spec, 80);
  group.nodes.push_back(Ready(0, 0, GpuNode(8)));
  group.nodes.push_back(Ready(1, 0, GpuNode(8), {GpuPod(8)}));
  Karpenter k = Make({0});
  EXPECT_TRUE(k.Decide(Snapshot(0, {group})).scale_downs.empty());
  EXPECT_TRUE(k.Decide(Snapshot(290, {group})).scale_downs.empty());
  AutoscalerDecision d = k.Decide(Snapshot(300, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 0);
  EXPECT_EQ(d.scale_downs[0].reason, "empty for 300 s (consolidateAfter 300 s)");
}

// Budget: 5 empty nodes, 10 % -> ceil(0.5) = 1 a check; a sixth node being
// deleted: ceil(0.6) - 1 = 0.
TEST_F(KarpenterTest, DisruptionBudget) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  AutoscalerGroupView group = Group(0, spec, 80);
  for (int n = 0; n < 5; ++n) group.nodes.push_back(Ready(n, 0, GpuNode(8)));
  Karpenter k = Make({0});
  EXPECT_EQ(k.Decide(Snapshot(100, {group})).scale_downs.size(), 1u);
  group.nodes.push_back(Node(5, State::kDeleting, 50, GpuNode(8)));
  Karpenter k2 = Make({0});
  EXPECT_TRUE(k2.Decide(Snapshot(100, {group})).scale_downs.empty());
}

// WhenEmptyOrUnderutilized: node 0 (2 one-GPU pods, $80/2 = $40 a pod)
// before node 1 (4 pods, $20 a pod); node 0's pods fit node 1's free 4
// GPUs -> node 0 deleted. Under WhenEmpty nothing happens.
TEST_F(KarpenterTest, UnderutilizedNodeDeleted) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  AutoscalerGroupView group = Group(0, spec, 80);
  group.nodes.push_back(Ready(0, 0, GpuNode(8), {GpuPod(1), GpuPod(1)}));
  group.nodes.push_back(
      Ready(1, 0, GpuNode(8), std::vector<ResourceList>(4, GpuPod(1))));
  Karpenter k = Make({0});
  AutoscalerDecision d = k.Decide(Snapshot(100, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 0);
  EXPECT_EQ(d.scale_downs[0].reason,
            "underutilized: its 2 pods fit on other nodes (consolidation "
            "delete, $80.00/h saved)");
  spec->autoscaling.karpenter.consolidate_when_underutilized = false;
  Karpenter when_empty = Make({0});
  EXPECT_TRUE(when_empty.Decide(Snapshot(100, {group})).scale_downs.empty());
}

// A lone g8 node ($80) holding 2 one-GPU pods: nowhere to move them; the
// cheapest type that holds both is g4 ($35 < $80) -> replace.
TEST_F(KarpenterTest, UnderutilizedNodeReplacedByCheaperType) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  ThreeTypes(spec);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(Ready(0, 0, GpuNode(8), {GpuPod(1), GpuPod(1)}));
  group.nodes[0].instance_type = "g8";
  Karpenter k = Make({0});
  AutoscalerDecision d = k.Decide(Snapshot(100, {group}));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].instance_type, "g4");
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 2u);
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].reason,
            "underutilized: replaced by g4 ($35.00/h < $80.00/h)");
}

// An empty node a pending pod would fit is nominated, not consolidated.
TEST_F(KarpenterTest, NominatedNodeKept) {
  NodePoolSpec* spec = Spec(kKp, 0, 10);
  AutoscalerGroupView group = Group(0, spec, 80);
  group.nodes.push_back(Ready(0, 0, GpuNode(8)));
  Karpenter k = Make({0});
  EXPECT_TRUE(k.Decide(Snapshot(100, {group}, GpuPods(1, 0))).scale_downs.empty());
}

}  // namespace
}  // namespace gpushare
