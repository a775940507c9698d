// MakeAutoscaler: one model per provider, its once-only flags from the
// first of its pools.

#include "gpushare/sim/autoscaler.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpushare/catalog/catalog.h"

namespace gpushare {
namespace {

NodePoolSpec AutoscaledCpuPool(const std::string& name, AutoscalerProvider provider) {
  NodePoolSpec spec;
  spec.name = name;
  spec.nodes = 1;
  spec.gpus_per_node = 0;
  spec.autoscaling.provider = provider;
  spec.autoscaling.min_nodes = 0;
  spec.autoscaling.max_nodes = 4;
  return spec;
}

// Pools 1 (scan 30 s) and 2 (scan 5 s) under cluster-autoscaler: the
// deployment's flags are pool 1's, so decisions fall every 30 s.
TEST(MakeAutoscalerTest, ClusterAutoscalerTakesFirstPoolsFlags) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(AutoscaledCpuPool("fixed", AutoscalerProvider::kNone));
  NodePoolSpec first = AutoscaledCpuPool("a", AutoscalerProvider::kClusterAutoscaler);
  first.autoscaling.cluster_autoscaler.scan_interval_s = 30;
  NodePoolSpec second = AutoscaledCpuPool("b", AutoscalerProvider::kClusterAutoscaler);
  second.autoscaling.cluster_autoscaler.scan_interval_s = 5;
  cluster.AddPool(first);
  cluster.AddPool(second);
  std::unique_ptr<Autoscaler> ca = MakeAutoscaler(
      AutoscalerProvider::kClusterAutoscaler, cluster, {2, 1}, Rng(1));
  EXPECT_DOUBLE_EQ(ca->NextDecisionS(0), 30);
  EXPECT_DOUBLE_EQ(ca->NextDecisionS(45), 60);
}

// Karpenter: idle, the next decision is its first consolidation check (now);
// after one check at 0 s, the next at 10 s.
TEST(MakeAutoscalerTest, KarpenterPollsConsolidation) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(AutoscaledCpuPool("k", AutoscalerProvider::kKarpenter));
  std::unique_ptr<Autoscaler> k =
      MakeAutoscaler(AutoscalerProvider::kKarpenter, cluster, {0}, Rng(1));
  AutoscalerSnapshot snapshot;
  snapshot.resources = &cluster.resources();
  k->Decide(snapshot);
  EXPECT_DOUBLE_EQ(k->NextDecisionS(0), 10);
}

}  // namespace
}  // namespace gpushare
