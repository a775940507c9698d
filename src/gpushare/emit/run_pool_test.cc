// The pool a pod runs on: its node's when bound, else the first admitting.

#include "gpushare/emit/run_pool.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"

namespace gpushare {
namespace run_pool_test {
namespace {

TEST(RunPoolsTest, ABoundPodRunsOnItsNodesPool) {
  const Scenario s = emit_test::PoolsScenario(
      "r",
      "    - {name: l4, gpu: L4, nodes: 1, devices: dra}\n"
      "    - {name: a100, gpu: A100-80GB, nodes: 2, devices: dra}\n");
  Cluster cluster(emit_test::TestCatalog());
  for (const NodePoolSpec& p : s.pools) cluster.AddPool(p);
  const RunPools pools(cluster);
  Pod pod;
  pod.dra_device_class = "gpu.nvidia.com";
  // Unbound: the first pool serving the class.
  EXPECT_EQ(pools.Of(pod), 0);
  pod.node_name = cluster.nodes()[2].name();  // a100's second node
  EXPECT_EQ(pools.Of(pod), 1);
  // A node the cluster no longer has (a pool the plan shrank): routed.
  pod.node_name = "gone";
  EXPECT_EQ(pools.Of(pod), 0);
}

}  // namespace
}  // namespace run_pool_test
}  // namespace gpushare
