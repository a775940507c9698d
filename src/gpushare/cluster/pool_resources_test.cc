// PoolExtendedResources(): what each scheme's device plugin serves.

#include "gpushare/cluster/pool_resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"

namespace gpushare {
namespace {

using Names = std::vector<std::string>;

NodePoolSpec Pool(SharingConfig sharing, int gpus = 2) {
  NodePoolSpec p;
  p.name = "p";
  p.gpu_model = "A100-80GB";
  p.gpus_per_node = gpus;
  p.sharing = std::move(sharing);
  return p;
}

TEST(PoolExtendedResourcesTest, EachSchemesResources) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& a100 = catalog.Get("A100-80GB");
  EXPECT_EQ(PoolExtendedResources(Pool(ExclusiveSharing()), a100),
            Names{"nvidia.com/gpu"});
  EXPECT_EQ(PoolExtendedResources(Pool(TimeSlicingSharing(4)), a100),
            Names{"nvidia.com/gpu"});
  SharingConfig renamed = TimeSlicingSharing(4);
  renamed.replicas.rename_by_default = true;
  EXPECT_EQ(PoolExtendedResources(Pool(renamed), a100),
            Names{"nvidia.com/gpu.shared"});
  EXPECT_EQ(PoolExtendedResources(Pool(HamiSharing()), a100),
            (Names{"nvidia.com/gpu", "nvidia.com/gpucores", "nvidia.com/gpumem",
                   "nvidia.com/gpumem-percentage"}));
  // all-balanced on an A100-80GB: 2 x 1g.10gb, 2g.20gb, 3g.40gb.
  EXPECT_EQ(PoolExtendedResources(
                Pool(MigSharing(MigStrategy::kMixed, "all-balanced")), a100),
            (Names{"nvidia.com/mig-1g.10gb", "nvidia.com/mig-2g.20gb",
                   "nvidia.com/mig-3g.40gb"}));
  EXPECT_EQ(PoolExtendedResources(
                Pool(MigSharing(MigStrategy::kSingle, "all-1g.10gb")), a100),
            Names{"nvidia.com/gpu"});
  EXPECT_EQ(PoolExtendedResources(Pool(ExclusiveSharing(), 0), a100), Names{});
}

}  // namespace
}  // namespace gpushare
