// DraPoolSettings against the pool's sharing: the rules of the scenario's
// `dra:` map, what the driver then runs with, and the names reports use.

#include "gpushare/cluster/dra/dra_pool_settings.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"

namespace gpushare {
namespace {

TEST(DraPoolSettingsTest, TimeSlicingMeansConsumableSharesOfReplicas) {
  const DraPoolSettings none;
  const DraPoolSettings e =
      EffectiveDraPoolSettings(none, TimeSlicingSharing(4));
  EXPECT_EQ(e.consumable_shares, DraConsumableShares::kCount);
  EXPECT_EQ(e.shares, 4);
  EXPECT_EQ(DraConsumableSharesValue(e), "4");
  EXPECT_EQ(DraPoolSettingsProblem(none, TimeSlicingSharing(4)), "");
  DraPoolSettings memory;
  memory.consumable_shares = DraConsumableShares::kMemoryShares;
  EXPECT_EQ(EffectiveDraPoolSettings(memory, TimeSlicingSharing(2))
                .consumable_shares,
            DraConsumableShares::kMemoryShares);
  // Other schemes have none, whatever was written.
  EXPECT_EQ(EffectiveDraPoolSettings(memory, ExclusiveSharing())
                .consumable_shares,
            DraConsumableShares::kDisabled);
}

TEST(DraPoolSettingsTest, Problems) {
  DraPoolSettings three;
  three.consumable_shares = DraConsumableShares::kCount;
  three.shares = 3;
  EXPECT_EQ(DraPoolSettingsProblem(three, TimeSlicingSharing(4)),
            "dra.consumable_shares 3 disagrees with sharing.replicas 4 (on a "
            "DRA pool, time-slicing replicas are the driver's "
            "--consumable-shares)");
  EXPECT_EQ(DraPoolSettingsProblem(three, TimeSlicingSharing(3)), "");
  EXPECT_NE(DraPoolSettingsProblem(three, ExclusiveSharing())
                .find("needs sharing scheme time-slicing"),
            std::string::npos);
  EXPECT_NE(DraPoolSettingsProblem(
                three, MigSharing(MigStrategy::kMixed, "all-balanced"))
                .find("consumable shares on MIG devices are not modelled yet"),
            std::string::npos);
  DraPoolSettings long_slices;
  long_slices.time_slice_interval = DraTimeSliceInterval::kLong;
  EXPECT_EQ(DraPoolSettingsProblem(long_slices, TimeSlicingSharing(2)), "");
  EXPECT_EQ(DraPoolSettingsProblem(long_slices, ExclusiveSharing()),
            "dra.time_slicing_interval Long needs sharing scheme time-slicing "
            "(the claim's TimeSlicing config), not 'exclusive'");
  // KEP-5004: pods asking nvidia.com/gpu; not with memory shares, whose
  // claims must ask memory.
  DraPoolSettings ext;
  ext.extended_resource = true;
  EXPECT_EQ(DraPoolSettingsProblem(ext, ExclusiveSharing()), "");
  EXPECT_EQ(DraPoolSettingsProblem(ext, TimeSlicingSharing(4)), "");
  ext.consumable_shares = DraConsumableShares::kMemoryShares;
  EXPECT_NE(DraPoolSettingsProblem(ext, TimeSlicingSharing(4))
                .find("a pod asking nvidia.com/gpu cannot ask memory"),
            std::string::npos);
}

TEST(DraPoolSettingsTest, Labels) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel* h100 = catalog.Find("H100-80GB");
  DraPoolSettings s;
  EXPECT_EQ(DraPoolSharingLabel(s, ExclusiveSharing(), h100),
            "exclusive (DRA)");
  EXPECT_EQ(DraPoolSharingLabel(
                s, MigSharing(MigStrategy::kMixed, "all-balanced"), h100),
            "MIG (DRA) all-balanced");
  EXPECT_EQ(DraPoolSharingLabel(s, TimeSlicingSharing(4), h100),
            "DRA time-slicing x4");
  s.consumable_shares = DraConsumableShares::kMemoryShares;
  s.time_slice_interval = DraTimeSliceInterval::kShort;
  EXPECT_EQ(DraPoolSharingLabel(s, TimeSlicingSharing(2), h100),
            "DRA shared capacity (memory), interval Short");
  s.consumable_shares = DraConsumableShares::kUnlimited;
  s.time_slice_interval = DraTimeSliceInterval::kDefault;
  EXPECT_EQ(DraPoolSharingLabel(s, TimeSlicingSharing(2), h100),
            "DRA shared capacity (unlimited)");
}

TEST(DraPoolSettingsTest, MpsOnDraHamiStaysOff) {
  EXPECT_EQ(PoolDevicesProblem(PoolDevices::kDra, SharingScheme::kTimeSlicing),
            "");
  EXPECT_EQ(PoolDevicesProblem(PoolDevices::kDra, SharingScheme::kMps), "");
  EXPECT_NE(PoolDevicesProblem(PoolDevices::kDra, SharingScheme::kHami), "");
  EXPECT_EQ(PoolDevicesProblem(PoolDevices::kDevicePlugin, SharingScheme::kMps),
            "");
}

// "DRA MPS": the MPS config is kept for scheme mps only, named in the
// label, and refused on other schemes and with extended_resource.
TEST(DraPoolSettingsTest, MpsSettings) {
  DraPoolSettings s;
  s.mps_active_thread_percentage = 50;
  s.mps_pinned_memory_limit_mib = 10240;
  const DraPoolSettings mps = EffectiveDraPoolSettings(s, MpsSharing(4));
  EXPECT_EQ(mps.mps_active_thread_percentage, 50);
  EXPECT_EQ(mps.mps_pinned_memory_limit_mib, 10240);
  EXPECT_EQ(mps.consumable_shares, DraConsumableShares::kDisabled);
  EXPECT_EQ(DraPoolSharingLabel(s, MpsSharing(4), nullptr),
            "DRA MPS, 50% threads, 10240Mi pinned");
  EXPECT_EQ(DraPoolSharingLabel(DraPoolSettings(), MpsSharing(4), nullptr),
            "DRA MPS");
  EXPECT_EQ(DraPoolSettingsProblem(s, MpsSharing(4)), "");
  EXPECT_EQ(DraPoolSettingsProblem(s, ExclusiveSharing()),
            "dra.mps needs sharing scheme mps (the claims' GpuConfig MPS "
            "config), not 'exclusive'");
  DraPoolSettings kep5004;
  kep5004.extended_resource = true;
  EXPECT_NE(DraPoolSettingsProblem(kep5004, MpsSharing(4)), "");
}

}  // namespace
}  // namespace gpushare
