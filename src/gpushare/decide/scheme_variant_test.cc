#include "gpushare/decide/scheme_variant.h"

#include <gtest/gtest.h>

#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {
namespace scheme_variant_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Three pools: MIG on H100, HAMi with a licence on A100, time-slicing x8 on
// L4 (no MIG); one class with requests written for HAMi.
Scenario Mixed() {
  return ReadScenarioYaml(
      "cluster:\n"
      "  pools:\n"
      "    - name: prod\n"
      "      gpu: H100-80GB\n"
      "      nodes: 1\n"
      "      sharing: {scheme: mig, mig_strategy: mixed, mig_config: "
      "all-1g.10gb}\n"
      "    - name: platform\n"
      "      gpu: A100-80GB\n"
      "      nodes: 1\n"
      "      licence_per_gpu_hour: 0.5\n"
      "      sharing: {scheme: hami}\n"
      "    - name: dev\n"
      "      gpu: L4\n"
      "      nodes: 1\n"
      "      gpus_per_node: 4\n"
      "      sharing: {scheme: time-slicing, replicas: 8}\n"
      "workload:\n"
      "  classes:\n"
      "    - name: jobs\n"
      "      class: batch\n"
      "      count: 2\n"
      "      gpus: 0.5\n"
      "      requests: {nvidia.com/gpu: 1, nvidia.com/gpumem: 8000}\n"
      "      node_selector: {gpushare.io/node-pool: platform}\n",
      "mixed.yaml", TestCatalog());
}

TEST(SchemeVariantTest, MixedPlanIsDetected) {
  EXPECT_TRUE(HasMixedPlan(Mixed()));
  Scenario uniform = Mixed();
  for (NodePoolSpec& p : uniform.pools) p.sharing = ExclusiveSharing();
  EXPECT_FALSE(HasMixedPlan(uniform));
}

TEST(SchemeVariantTest, TimeSlicingKeepsAPoolsOwnReplicas) {
  const SchemeVariant v = MakeSchemeVariant(
      Mixed(), SharingScheme::kTimeSlicing, CompareSpec(), TestCatalog());
  EXPECT_EQ(v.name, "time-slicing");
  for (const NodePoolSpec& p : v.scenario.pools) {
    EXPECT_EQ(p.sharing.scheme(), SharingScheme::kTimeSlicing) << p.name;
    EXPECT_FALSE(p.sharing.mig_enabled);
  }
  EXPECT_EQ(v.scenario.pools[0].sharing.replicas.replicas, 4);
  EXPECT_EQ(v.scenario.pools[2].sharing.replicas.replicas, 8);
  // The licence is for vGPU only; HAMi requests are dropped.
  EXPECT_EQ(v.scenario.pools[1].licence_per_gpu_hour, 0);
  EXPECT_TRUE(v.scenario.workload.classes[0].requests.empty());
  ASSERT_EQ(v.notes.size(), 1u);
  EXPECT_EQ(v.notes[0],
            "class jobs: requests written for the scenario's plan dropped; "
            "translated from its needs");
}

TEST(SchemeVariantTest, MigFallsBackToExclusiveWithoutMig) {
  const SchemeVariant v =
      MakeSchemeVariant(Mixed(), SharingScheme::kMig, CompareSpec(),
                        TestCatalog(), {"3g", "balanced", "3g"});
  EXPECT_EQ(v.scenario.pools[0].sharing.mig.config_name, "all-3g.40gb");
  EXPECT_EQ(v.scenario.pools[0].sharing.mig.strategy, MigStrategy::kMixed);
  EXPECT_EQ(v.scenario.pools[1].sharing.mig.config_name, "all-balanced");
  EXPECT_EQ(v.scenario.pools[2].sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(v.mig_families,
            (std::vector<std::string>{"3g", "balanced", ""}));
  EXPECT_EQ(v.notes[0], "L4 has no MIG: pool dev stays exclusive");
}

// A DRA pool keeps DRA for exclusive and MIG variants and runs the schemes
// DRA does not serve yet through their device plugin, with a note.
TEST(SchemeVariantTest, DraPoolUsesTheDevicePluginWhereDraCannot) {
  Scenario s = Mixed();
  s.pools[0].devices = PoolDevices::kDra;
  const SchemeVariant mps =
      MakeSchemeVariant(s, SharingScheme::kMps, CompareSpec(), TestCatalog());
  EXPECT_EQ(mps.scenario.pools[0].devices, PoolDevices::kDevicePlugin);
  ASSERT_FALSE(mps.notes.empty());
  EXPECT_EQ(mps.notes[0],
            "pool prod runs mps through its device plugin (DRA MPS shares "
            "a GPU only among pods sharing a claim, and a variant's pods "
            "share none)");
  const SchemeVariant exclusive = MakeSchemeVariant(
      s, SharingScheme::kExclusive, CompareSpec(), TestCatalog());
  EXPECT_EQ(exclusive.scenario.pools[0].devices, PoolDevices::kDra);
  NodePoolSpec pool = s.pools[0];
  EXPECT_EQ(UseDevicePluginWhereDraCannot(pool), "");  // MIG: served
  EXPECT_EQ(pool.devices, PoolDevices::kDra);
  // Time-slicing stays on DRA: the driver's consumable shares, N = the
  // variant's replicas.
  const SchemeVariant sliced = MakeSchemeVariant(
      s, SharingScheme::kTimeSlicing, CompareSpec(), TestCatalog());
  EXPECT_EQ(sliced.scenario.pools[0].devices, PoolDevices::kDra);
  const DraPoolSettings driver = EffectiveDraPoolSettings(
      sliced.scenario.pools[0].dra, sliced.scenario.pools[0].sharing);
  EXPECT_EQ(driver.consumable_shares, DraConsumableShares::kCount);
  EXPECT_EQ(driver.shares, 4);
}

// A DRA pool's driver settings follow its scheme: memory shares and an
// interval written for time-slicing are dropped in an exclusive variant.
TEST(SchemeVariantTest, DraSettingsOfTimeSlicingLeaveWithIt) {
  Scenario s = Mixed();
  s.pools[2].devices = PoolDevices::kDra;
  s.pools[2].sharing = TimeSlicingSharing(8);
  s.pools[2].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  s.pools[2].dra.time_slice_interval = DraTimeSliceInterval::kLong;
  const SchemeVariant v = MakeSchemeVariant(s, SharingScheme::kExclusive,
                                            CompareSpec(), TestCatalog());
  const NodePoolSpec& p = v.scenario.pools[2];
  EXPECT_EQ(p.devices, PoolDevices::kDra);
  EXPECT_EQ(p.dra, DraPoolSettings());
  // It builds: the settings no longer contradict the scheme.
  EXPECT_NO_THROW(Simulation(v.scenario, TestCatalog()));
}

TEST(SchemeVariantTest, HamiKeepsItsLicenceAndGivesItToConvertedPools) {
  CompareSpec spec;
  spec.hami_split_count = 7;
  const SchemeVariant v = MakeSchemeVariant(Mixed(), SharingScheme::kHami,
                                            spec, TestCatalog());
  EXPECT_EQ(v.scenario.pools[0].sharing.hami.split_count, 7);
  EXPECT_EQ(v.scenario.pools[1].sharing.hami.split_count, 10);  // its own
  for (const NodePoolSpec& p : v.scenario.pools) {
    EXPECT_EQ(p.licence_per_gpu_hour, 0.5) << p.name;
  }
  spec.vgpu_licence_per_gpu_hour = 0;
  const SchemeVariant free = MakeSchemeVariant(Mixed(), SharingScheme::kHami,
                                               spec, TestCatalog());
  EXPECT_EQ(free.scenario.pools[0].licence_per_gpu_hour, 0);
  EXPECT_EQ(free.scenario.pools[1].licence_per_gpu_hour, 0.5);
}

TEST(SchemeVariantTest, MpsAtTheClientLimitConvertsEveryPool) {
  CompareSpec spec;
  spec.mps_replicas = 48;
  Scenario s = Mixed();
  s.pools[0].gpus_per_node = 8;
  const SchemeVariant v =
      MakeSchemeVariant(s, SharingScheme::kMps, spec, TestCatalog());
  for (const NodePoolSpec& p : v.scenario.pools) {
    EXPECT_EQ(p.sharing.scheme(), SharingScheme::kMps) << p.name;
  }
}

TEST(SchemeVariantTest, PlanIsTheScenarioAsWritten) {
  const SchemeVariant v = MakePlanVariant(Mixed());
  EXPECT_TRUE(v.plan);
  EXPECT_EQ(v.scenario.pools[0].sharing.mig.config_name, "all-1g.10gb");
  EXPECT_FALSE(v.scenario.workload.classes[0].requests.empty());
}

TEST(SchemeVariantTest, MigConfigOfFamily) {
  const Catalog& c = TestCatalog();
  EXPECT_EQ(MigConfigOfFamily(c.Get("A100-40GB"), "1g"), "all-1g.5gb");
  EXPECT_EQ(MigConfigOfFamily(c.Get("A100-40GB"), "7g"), "all-7g.40gb");
  EXPECT_EQ(MigConfigOfFamily(c.Get("A100-80GB"), "balanced"),
            "all-balanced");
  EXPECT_EQ(MigConfigOfFamily(c.Get("A30"), "4g"), "all-4g.24gb");
  EXPECT_EQ(MigConfigOfFamily(c.Get("A30"), "3g"), "");
  EXPECT_EQ(MigConfigOfFamily(c.Get("L4"), "1g"), "");
}

}  // namespace
}  // namespace scheme_variant_test
}  // namespace gpushare
