// NvidiaDeviceName: the driver's device names read back.

#include "gpushare/cluster/dra/nvidia_device_name.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

namespace gpushare {
namespace {

TEST(DraNvidiaDeviceNameTest, ReadsWholeGpuAndMigNames) {
  const auto gpu = ParseNvidiaDeviceName("gpu-12");
  ASSERT_TRUE(gpu.has_value());
  EXPECT_EQ(gpu->gpu, 12);
  EXPECT_FALSE(gpu->mig);

  const auto mig = ParseNvidiaDeviceName("gpu-3-mig-3g40gb-9-4");
  ASSERT_TRUE(mig.has_value());
  EXPECT_EQ(mig->gpu, 3);
  EXPECT_TRUE(mig->mig);
  EXPECT_EQ(mig->profile_part, "3g40gb");
  EXPECT_EQ(mig->gi_profile_id, 9);
  EXPECT_EQ(mig->start, 4);

  // The profile part may hold '-' itself.
  const auto me = ParseNvidiaDeviceName("gpu-0-mig-1g10gb-me-20-6");
  ASSERT_TRUE(me.has_value());
  EXPECT_EQ(me->profile_part, "1g10gb-me");
  EXPECT_EQ(me->gi_profile_id, 20);
  EXPECT_EQ(me->start, 6);
}

TEST(DraNvidiaDeviceNameTest, RefusesOtherNames) {
  for (const char* bad :
       {"", "gpu-", "gpu-x", "gpu--1", "gpu-0-", "gpu-0-mig-", "gpu-0-mig-9-4",
        "gpu-0-mig-3g40gb-9", "gpu-0-mig-3g40gb-9-x", "nic-0", "gpu-1234567",
        "gpu-0-mig--9-4"}) {
    EXPECT_FALSE(ParseNvidiaDeviceName(bad).has_value()) << bad;
  }
}

TEST(DraNvidiaDeviceNameTest, InvertsTheSliceBuilder) {
  const Catalog catalog = Catalog::Builtin();
  NvidiaGpuNode node;
  node.node_name = "n1";
  node.model = &catalog.Get("A100-80GB");
  node.gpu_count = 2;
  node.mig_layouts = {
      ResolveMigLayout(*node.model, {"3g.40gb@4", "2g.20gb@0", "1g.10gb+me@2"}),
      ResolveMigLayout(*node.model, {"7g.80gb@0"})};
  std::vector<NvidiaDevicePlace> places;
  const ResourceSlice slice = NvidiaGpuResourceSlice(node, &places);
  ASSERT_EQ(slice.devices.size(), 4u);
  for (size_t i = 0; i < slice.devices.size(); ++i) {
    const auto name = ParseNvidiaDeviceName(slice.devices[i].name);
    ASSERT_TRUE(name.has_value()) << slice.devices[i].name;
    EXPECT_TRUE(name->mig);
    EXPECT_EQ(name->gpu, places[i].gpu);
    const MigInstance& in =
        node.mig_layouts[places[i].gpu][static_cast<size_t>(places[i].instance)];
    EXPECT_EQ(name->start, in.start);
    EXPECT_EQ(name->profile_part,
              NvidiaMigDeviceNamePart(
                  node.model->mig->profiles[in.profile].name));
  }
  EXPECT_EQ(NvidiaMigDeviceNamePart("1g.10gb+me"), "1g10gb-me");
  EXPECT_EQ(NvidiaMigDeviceNamePart("3g.40gb"), "3g40gb");
}

}  // namespace
}  // namespace gpushare
