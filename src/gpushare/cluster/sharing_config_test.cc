// SharingConfig::Validate, scheme() and ParseSharingScheme against the rules
// of NVIDIA's stack and HAMi: MIG configs and strategies (NVIDIA/gpu-operator
// assets/state-mig-manager/0400_configmap.yaml; NVIDIA/k8s-device-plugin
// README), time-slicing and MPS replicas (NVIDIA/k8s-device-plugin
// api/config/v1, README "Shared Access to GPUs", mps/device.go) and HAMi
// device-config keys (Project-HAMi/HAMi
// charts/hami/templates/scheduler/device-configmap.yaml).

#include "gpushare/cluster/sharing_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_config.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

using ::testing::HasSubstr;

class SharingConfigTest : public ::testing::Test {
 protected:
  const GpuModel& Model(const char* name) { return catalog_.Get(name); }

  // The message of the InputError Validate throws, or "" when it is valid.
  std::string Problem(const SharingConfig& config, const char* gpu,
                      int gpus = 8) {
    try {
      config.Validate(Model(gpu), gpus);
    } catch (const InputError& e) {
      return e.message();
    }
    return "";
  }

  Catalog catalog_ = Catalog::Builtin();
};

// Device plugin api/config/v1: "replicas < 2 is an error" for both time-slicing
// and MPS.
TEST_F(SharingConfigTest, ReplicasBelowTwoAreRejected) {
  for (int replicas : {1, 0, -3}) {
    const std::string ts = Problem(TimeSlicingSharing(replicas), "A100-40GB");
    EXPECT_THAT(ts, HasSubstr("at least 2")) << replicas;
    EXPECT_THAT(ts, HasSubstr("time-slicing")) << replicas;
    const std::string mps = Problem(MpsSharing(replicas), "A100-40GB");
    EXPECT_THAT(mps, HasSubstr("at least 2")) << replicas;
    EXPECT_THAT(mps, HasSubstr("MPS")) << replicas;
  }
  EXPECT_EQ(Problem(TimeSlicingSharing(2), "A100-40GB"), "");
  EXPECT_EQ(Problem(MpsSharing(2), "A100-40GB"), "");
  // Time-slicing has no upper limit of its own.
  EXPECT_EQ(Problem(TimeSlicingSharing(100), "A100-40GB"), "");
}

// mps/device.go: max MPS replicas per GPU = 48 for compute capability >= 7.5,
// else 16.
TEST_F(SharingConfigTest, MpsReplicaLimitFollowsComputeCapability) {
  ASSERT_EQ(Model("A100-40GB").compute_capability, "8.0");
  EXPECT_EQ(Problem(MpsSharing(48), "A100-40GB"), "");
  const std::string a100 = Problem(MpsSharing(49), "A100-40GB");
  EXPECT_THAT(a100, HasSubstr("49"));
  EXPECT_THAT(a100, HasSubstr("48 MPS clients"));

  // V100 is Volta, compute capability 7.0 < 7.5: limit 16.
  ASSERT_EQ(Model("V100-16GB").compute_capability, "7.0");
  EXPECT_EQ(Problem(MpsSharing(16), "V100-16GB"), "");
  const std::string v100 = Problem(MpsSharing(17), "V100-16GB");
  EXPECT_THAT(v100, HasSubstr("16 MPS clients"));
  EXPECT_THAT(v100, HasSubstr("7.0"));

  // T4 is exactly 7.5: the larger limit applies.
  ASSERT_EQ(Model("T4").compute_capability, "7.5");
  EXPECT_EQ(Problem(MpsSharing(48), "T4"), "");
  EXPECT_NE(Problem(MpsSharing(49), "T4"), "");
}

// Device plugin README: "MPS only for full GPUs ... not on MIG-enabled
// devices".
TEST_F(SharingConfigTest, MpsOnMigIsRejected) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kMps;
  c.replicas.replicas = 4;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("MPS"));
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("MIG"));
}

// Device plugin README: time-slicing can replicate MIG resources; that stays
// valid.
TEST_F(SharingConfigTest, TimeSlicingOnMigIsAccepted) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = 2;
  EXPECT_EQ(Problem(c, "A100-40GB"), "");
}

// HAMi's dynamic MIG is not modelled: rejected.
TEST_F(SharingConfigTest, HamiOnMigIsRejected) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kHami;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("HAMi"));
}

TEST_F(SharingConfigTest, MigOnANonMigGpuIsRejected) {
  ASSERT_FALSE(Model("L4").mig_capable());
  EXPECT_EQ(Problem(MigSharing(MigStrategy::kMixed, "all-balanced"), "L4"),
            "L4 does not support MIG");
}

// GPU Operator: all-balanced on A100-40GB is 2 x 1g.5gb + 2g.10gb + 3g.20gb;
// the 3g must sit at 4 for the two 1g's to fit, 2g from the lowest start, 1g's
// from the highest free start (HAMi's preference order).
TEST_F(SharingConfigTest, NamedConfigResolvesToOneLayoutPerGpu) {
  const GpuModel& a100 = Model("A100-40GB");
  const SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  const std::vector<MigLayout> layouts = c.Validate(a100, 8);
  ASSERT_EQ(layouts.size(), 8u);
  for (const MigLayout& layout : layouts) {
    EXPECT_EQ(FormatMigLayout(a100, layout),
              "2g.10gb@0 1g.5gb@2 1g.5gb@3 3g.20gb@4");
    EXPECT_EQ(layout, FindNamedMigConfig(a100, "all-balanced").layout);
  }
  EXPECT_EQ(c.Validate(a100, 1).size(), 1u);
}

TEST_F(SharingConfigTest, MigOffYieldsNoLayouts) {
  EXPECT_TRUE(ExclusiveSharing().Validate(Model("A100-40GB"), 8).empty());
  EXPECT_TRUE(TimeSlicingSharing(4).Validate(Model("A100-40GB"), 8).empty());
  EXPECT_TRUE(HamiSharing().Validate(Model("A100-40GB"), 8).empty());
}

TEST_F(SharingConfigTest, NamedConfigThatDisablesMigIsRejected) {
  EXPECT_THAT(
      Problem(MigSharing(MigStrategy::kMixed, "all-disabled"), "A100-40GB"),
      HasSubstr("disables MIG"));
}

TEST_F(SharingConfigTest, UnknownNamedConfigNamesTheClosest) {
  const std::string p =
      Problem(MigSharing(MigStrategy::kMixed, "all-balance"), "A100-40GB");
  EXPECT_THAT(p, HasSubstr("unknown MIG config 'all-balance'"));
  EXPECT_THAT(p, HasSubstr("all-balanced"));
}

TEST_F(SharingConfigTest, MigWithoutConfigOrLayoutsIsRejected) {
  EXPECT_THAT(Problem(MigSharing(MigStrategy::kMixed, ""), "A100-40GB"),
              HasSubstr("neither a config name nor layouts"));
}

TEST_F(SharingConfigTest, ExplicitLayoutForAllGpus) {
  const GpuModel& a100 = Model("A100-40GB");
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  c.mig.layouts = {{"3g.20gb:2"}};
  const std::vector<MigLayout> layouts = c.Validate(a100, 4);
  ASSERT_EQ(layouts.size(), 4u);
  for (const MigLayout& layout : layouts) {
    // MIG User Guide: 3g.20gb placements {0,4}:4.
    EXPECT_EQ(FormatMigLayout(a100, layout), "3g.20gb@0 3g.20gb@4");
  }
}

TEST_F(SharingConfigTest, ExplicitLayoutPerGpu) {
  const GpuModel& a100 = Model("A100-40GB");
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  c.mig.layouts = {{"7g.40gb"}, {"3g.20gb@4", "2g.10gb@0"}};
  const std::vector<MigLayout> layouts = c.Validate(a100, 2);
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(FormatMigLayout(a100, layouts[0]), "7g.40gb@0");
  EXPECT_EQ(FormatMigLayout(a100, layouts[1]), "2g.10gb@0 3g.20gb@4");
}

TEST_F(SharingConfigTest, ExplicitLayoutsOfTheWrongCountAreRejected) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  c.mig.layouts = {{"7g.40gb"}, {"7g.40gb"}, {"7g.40gb"}};
  const std::string p = Problem(c, "A100-40GB", 2);
  EXPECT_THAT(p, HasSubstr("one per GPU (2)"));
  EXPECT_THAT(p, HasSubstr("got 3"));
  // One per GPU is fine.
  EXPECT_EQ(Problem(c, "A100-40GB", 3), "");
}

TEST_F(SharingConfigTest, ImpossibleExplicitLayoutNamesTheGpu) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  // MIG User Guide: 4g.20gb has Max 1 on A100-40GB.
  c.mig.layouts = {{"3g.20gb:2"}, {"4g.20gb:2"}};
  EXPECT_EQ(Problem(c, "A100-40GB", 2),
            "MIG layout of GPU 1: max 1 x 4g.20gb on A100-40GB (layout has "
            "2)");
  // The same layout for every GPU fails on GPU 0 first.
  c.mig.layouts = {{"4g.20gb:2"}};
  EXPECT_THAT(Problem(c, "A100-40GB", 2), HasSubstr("MIG layout of GPU 0: "));
}

TEST_F(SharingConfigTest, ConfigNameAndLayoutsTogetherAreRejected) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.mig.layouts = {{"7g.40gb"}};
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("not both"));
}

// Device plugin README: the single strategy needs one identical profile on
// every GPU; otherwise GFD labels the node <model>-MIG-INVALID.
TEST_F(SharingConfigTest, SingleStrategyWithSeveralProfilesIsRejected) {
  const std::string p =
      Problem(MigSharing(MigStrategy::kSingle, "all-balanced"), "A100-40GB");
  EXPECT_THAT(p, HasSubstr("MIG-INVALID"));
  EXPECT_THAT(p, HasSubstr("use strategy mixed"));
  // Mixed accepts the same config.
  EXPECT_EQ(
      Problem(MigSharing(MigStrategy::kMixed, "all-balanced"), "A100-40GB"),
      "");
  // Different profiles on different GPUs are just as invalid.
  SharingConfig c = MigSharing(MigStrategy::kSingle, "");
  c.mig.layouts = {{"7g.40gb"}, {"3g.20gb:2"}};
  EXPECT_THAT(Problem(c, "A100-40GB", 2), HasSubstr("MIG-INVALID"));
}

TEST_F(SharingConfigTest, SingleStrategyWithOneProfileIsAccepted) {
  const GpuModel& a100 = Model("A100-40GB");
  // GPU Operator: all-1g.10gb is 4 x 1g.10gb on A100-40GB.
  const std::vector<MigLayout> layouts =
      MigSharing(MigStrategy::kSingle, "all-1g.10gb").Validate(a100, 2);
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(layouts[0].size(), 4u);
  EXPECT_EQ(FormatMigCounts(a100, MigProfileCounts(a100, layouts[1])),
            "4 x 1g.10gb");
}

// Device plugin README: "If a MIG-enabled GPU has no MIG devices" under
// single → MIG-INVALID.
TEST_F(SharingConfigTest, SingleStrategyWithoutInstancesIsRejected) {
  EXPECT_THAT(
      Problem(MigSharing(MigStrategy::kSingle, "all-enabled"), "A100-40GB"),
      HasSubstr("MIG-INVALID"));
  EXPECT_EQ(
      Problem(MigSharing(MigStrategy::kMixed, "all-enabled"), "A100-40GB"), "");
}

// HAMi device config: deviceSplitCount, deviceMemoryScaling, deviceCoreScaling,
// defaultCores (a percentage) and defaultMemory (MiB of the device).
TEST_F(SharingConfigTest, HamiSettingsAreChecked) {
  EXPECT_EQ(Problem(HamiSharing(), "A100-40GB"), "");

  SharingConfig c = HamiSharing();
  c.hami.split_count = 0;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("deviceSplitCount"));
  c.hami.split_count = 1;
  EXPECT_EQ(Problem(c, "A100-40GB"), "");

  c = HamiSharing();
  c.hami.memory_scaling = 0;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("deviceMemoryScaling"));
  c.hami.memory_scaling = -1;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("deviceMemoryScaling"));
  c.hami.memory_scaling = 2;
  EXPECT_EQ(Problem(c, "A100-40GB"), "");

  c = HamiSharing();
  c.hami.core_scaling = 0;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("deviceCoreScaling"));

  c = HamiSharing();
  c.hami.default_cores = 101;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("defaultCores"));
  c.hami.default_cores = -1;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("defaultCores"));
  c.hami.default_cores = 100;
  EXPECT_EQ(Problem(c, "A100-40GB"), "");

  c = HamiSharing();
  c.hami.default_memory_mib = -1;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("defaultMemory"));
  // A100-40GB has 40960 MiB.
  c.hami.default_memory_mib = 40961;
  EXPECT_THAT(Problem(c, "A100-40GB"), HasSubstr("defaultMemory"));
  c.hami.default_memory_mib = 40960;
  EXPECT_EQ(Problem(c, "A100-40GB"), "");
}

TEST_F(SharingConfigTest, SchemeOfEachCombination) {
  EXPECT_EQ(ExclusiveSharing().scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(TimeSlicingSharing(4).scheme(), SharingScheme::kTimeSlicing);
  EXPECT_EQ(MpsSharing(4).scheme(), SharingScheme::kMps);
  EXPECT_EQ(MigSharing(MigStrategy::kMixed, "all-balanced").scheme(),
            SharingScheme::kMig);
  EXPECT_EQ(MigSharing(MigStrategy::kSingle, "all-3g.20gb").scheme(),
            SharingScheme::kMig);
  EXPECT_EQ(HamiSharing().scheme(), SharingScheme::kHami);

  // MIG wins over time-slicing of its instances.
  SharingConfig mig_ts = MigSharing(MigStrategy::kMixed, "all-balanced");
  mig_ts.sharing = DeviceSharing::kTimeSlicing;
  mig_ts.replicas.replicas = 2;
  EXPECT_EQ(mig_ts.scheme(), SharingScheme::kMig);
  // HAMi wins over MIG (an invalid combination, but scheme() still answers).
  SharingConfig hami_mig = MigSharing(MigStrategy::kMixed, "all-balanced");
  hami_mig.sharing = DeviceSharing::kHami;
  EXPECT_EQ(hami_mig.scheme(), SharingScheme::kHami);
}

// Device plugin config.go: failRequestsGreaterThanOne defaults to true for MPS,
// false for time-slicing; renameByDefault false; policy distributed.
TEST_F(SharingConfigTest, FactoryDefaults) {
  EXPECT_TRUE(MpsSharing(4).replicas.fail_requests_greater_than_one);
  EXPECT_FALSE(TimeSlicingSharing(4).replicas.fail_requests_greater_than_one);
  EXPECT_FALSE(TimeSlicingSharing(4).replicas.rename_by_default);
  EXPECT_EQ(TimeSlicingSharing(4).replicas.policy, ReplicaPolicy::kDistributed);
  // gpu-operator's default MIG strategy is single (values.yaml).
  EXPECT_EQ(SharingConfig().mig.strategy, MigStrategy::kSingle);
  // HAMi device-config defaults.
  const HamiSettings h = HamiSharing().hami;
  EXPECT_EQ(h.split_count, 10);
  EXPECT_EQ(h.memory_scaling, 1.0);
  EXPECT_EQ(h.core_scaling, 1.0);
  EXPECT_EQ(h.default_memory_mib, 0);
  EXPECT_EQ(h.default_cores, 0);
  EXPECT_EQ(h.node_policy, HamiPolicy::kBinpack);
  EXPECT_EQ(h.gpu_policy, HamiPolicy::kSpread);
}

TEST(ParseSharingSchemeTest, NamesAndAlias) {
  SharingScheme s = SharingScheme::kMig;
  ASSERT_TRUE(ParseSharingScheme("exclusive", &s));
  EXPECT_EQ(s, SharingScheme::kExclusive);
  ASSERT_TRUE(ParseSharingScheme("time-slicing", &s));
  EXPECT_EQ(s, SharingScheme::kTimeSlicing);
  ASSERT_TRUE(ParseSharingScheme("mps", &s));
  EXPECT_EQ(s, SharingScheme::kMps);
  ASSERT_TRUE(ParseSharingScheme("mig", &s));
  EXPECT_EQ(s, SharingScheme::kMig);
  ASSERT_TRUE(ParseSharingScheme("hami", &s));
  EXPECT_EQ(s, SharingScheme::kHami);
  s = SharingScheme::kExclusive;
  ASSERT_TRUE(ParseSharingScheme("vgpu", &s));
  EXPECT_EQ(s, SharingScheme::kHami);

  s = SharingScheme::kMps;
  EXPECT_FALSE(ParseSharingScheme("", &s));
  EXPECT_FALSE(ParseSharingScheme("MIG", &s));
  EXPECT_FALSE(ParseSharingScheme("timeslicing", &s));
  EXPECT_FALSE(ParseSharingScheme("vGPU", &s));
  EXPECT_EQ(s, SharingScheme::kMps);  // untouched on failure
}

TEST(ParseSharingSchemeTest, NamesRoundTrip) {
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
        SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami}) {
    SharingScheme parsed = SharingScheme::kExclusive;
    ASSERT_TRUE(ParseSharingScheme(SharingSchemeName(s), &parsed));
    EXPECT_EQ(parsed, s);
  }
}

TEST(SharingSchemeDisplayNameTest, NamesUsersKnow) {
  EXPECT_EQ(SharingSchemeDisplayName(SharingScheme::kExclusive), "exclusive");
  EXPECT_EQ(SharingSchemeDisplayName(SharingScheme::kTimeSlicing),
            "time-slicing");
  EXPECT_EQ(SharingSchemeDisplayName(SharingScheme::kMps), "MPS");
  EXPECT_EQ(SharingSchemeDisplayName(SharingScheme::kMig), "MIG");
  EXPECT_EQ(SharingSchemeDisplayName(SharingScheme::kHami), "vGPU (HAMi)");
}

TEST(SharingLabelTest, NamesEachSettingAsReportsShowIt) {
  EXPECT_EQ(SharingLabel(ExclusiveSharing()), "exclusive");
  EXPECT_EQ(SharingLabel(TimeSlicingSharing(4)), "time-slicing x4");
  EXPECT_EQ(SharingLabel(MpsSharing(2)), "MPS x2");
  SharingConfig hami = HamiSharing();
  hami.hami.split_count = 7;
  EXPECT_EQ(SharingLabel(hami), "vGPU (HAMi) split 7");
  EXPECT_EQ(SharingLabel(MigSharing(MigStrategy::kMixed, "all-balanced")),
            "MIG all-balanced");
  SharingConfig custom = MigSharing(MigStrategy::kMixed, "");
  custom.mig.layouts = {{"3g.40gb:1", "2g.20gb:2"}};
  EXPECT_EQ(SharingLabel(custom), "MIG custom layout");
  const Catalog catalog = Catalog::Builtin();
  EXPECT_EQ(SharingLabel(custom, &catalog.Get("A100-80GB")),
            "MIG 3g.40gb + 2 x 2g.20gb");
  // Per-GPU layouts: runs of GPUs with the same counts, by GPU index.
  SharingConfig mix = MigSharing(MigStrategy::kMixed, "");
  mix.mig.layouts = {{"7g.80gb"}, {"7g.80gb"}, {"3g.40gb:2"}, {"3g.40gb:2"}};
  const GpuModel& h100 = catalog.Get("H100-80GB");
  EXPECT_EQ(SharingLabel(mix, &h100),
            "MIG 7g.80gb on GPUs 0-1, 2 x 3g.40gb on GPUs 2-3");
  mix.mig.layouts = {{"7g.80gb"}, {"3g.40gb:2"}, {"7g.80gb"}};
  EXPECT_EQ(SharingLabel(mix, &h100),
            "MIG 7g.80gb on GPU 0, 2 x 3g.40gb on GPU 1, 7g.80gb on GPU 2");
  mix.mig.layouts = {{"3g.40gb:2"}, {"3g.40gb@0", "3g.40gb@4"}};
  EXPECT_EQ(SharingLabel(mix, &h100), "MIG 2 x 3g.40gb");
  mix.mig.layouts = {{"7g.80gb"}, {"9g.90gb"}};
  EXPECT_EQ(SharingLabel(mix, &h100), "MIG custom layout");
  EXPECT_EQ(SharingLabel(mix), "MIG custom layout");
}

}  // namespace
}  // namespace gpushare
