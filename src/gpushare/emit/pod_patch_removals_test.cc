#include "gpushare/emit/pod_patch_removals.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace pod_patch_removals_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

Scenario Pools(const std::string& pools) {
  return ReadScenarioYaml("name: p\ncluster:\n  pools:\n" + pools +
                              "workload:\n  classes:\n"
                              "    - {name: a, class: batch, count: 1}\n",
                          "p.yaml", TestCatalog());
}

std::vector<std::string> Names(const ClusterGpuSchemes& s) {
  return {s.resource_names.begin(), s.resource_names.end()};
}

// Each scheme's names as its device plugin advertises them: time-sliced MIG
// instances renamed to <profile>.shared, a single-strategy MIG pool's
// nvidia.com/gpu, a KEP-5004 DRA pool's class resources; a DRA pool with
// claims adds none.
TEST(PodPatchRemovalsTest, NamesEachSchemeAdvertises) {
  const Scenario s = Pools(
      "    - {name: ts, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: time-slicing, replicas: 2, mig_config: "
      "all-1g.10gb,\n"
      "                 mig_strategy: mixed, rename_by_default: true}}\n"
      "    - {name: single, gpu: A100-80GB, nodes: 1,\n"
      "       sharing: {scheme: mig, mig_config: all-3g.40gb}}\n"
      "    - {name: claims, gpu: A100-80GB, nodes: 1, devices: dra,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed, mig_config: "
      "all-2g.20gb}}\n");
  const ClusterGpuSchemes plain = ClusterGpuSchemesOf(s, nullptr, TestCatalog());
  EXPECT_EQ(Names(plain), (std::vector<std::string>{
                              "nvidia.com/gpu", "nvidia.com/mig-1g.10gb.shared"}));
  EXPECT_TRUE(plain.dra);
  EXPECT_FALSE(plain.hami);

  // Today: HAMi and a KEP-5004 DRA MIG pool.
  const Scenario today = Pools(
      "    - {name: ts, gpu: L4, nodes: 1, sharing: {scheme: hami}}\n"
      "    - {name: claims, gpu: A100-80GB, nodes: 1, devices: dra,\n"
      "       dra: {extended_resource: true},\n"
      "       sharing: {scheme: mig, mig_strategy: mixed, mig_config: "
      "all-2g.20gb}}\n"
      "    - {name: none, nodes: 1, gpus_per_node: 0}\n");
  const ClusterGpuSchemes both = ClusterGpuSchemesOf(s, &today, TestCatalog());
  EXPECT_EQ(Names(both),
            (std::vector<std::string>{
                "nvidia.com/gpu", "nvidia.com/gpucores", "nvidia.com/gpumem",
                "nvidia.com/gpumem-percentage", "nvidia.com/mig-1g.10gb.shared",
                "nvidia.com/mig-2g.20gb", "nvidia.com/priority"}));
  EXPECT_TRUE(both.hami);
  EXPECT_TRUE(both.dra);
}

}  // namespace
}  // namespace pod_patch_removals_test
}  // namespace gpushare
