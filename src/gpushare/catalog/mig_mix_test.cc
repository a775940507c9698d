#include "gpushare/catalog/mig_mix.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout.h"

namespace gpushare {
namespace {

TEST(MigMixTest, WholeGpuProfileIsTheFullBaseProfile) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& h100 = catalog.Get("H100-80GB");
  ASSERT_GE(WholeGpuMigProfile(h100), 0);
  EXPECT_EQ(h100.mig->profiles[WholeGpuMigProfile(h100)].name, "7g.80gb");
  const GpuModel& a30 = catalog.Get("A30-24GB");
  EXPECT_EQ(a30.mig->profiles[WholeGpuMigProfile(a30)].name, "4g.24gb");
  EXPECT_EQ(WholeGpuMigProfile(catalog.Get("L4")), -1);
}

TEST(MigMixTest, WholeGpuCountsAreBounded) {
  EXPECT_EQ(MigMixWholeGpuCounts(1), std::vector<int>{});
  EXPECT_EQ(MigMixWholeGpuCounts(2), std::vector<int>({1}));
  EXPECT_EQ(MigMixWholeGpuCounts(4), std::vector<int>({1, 2, 3}));
  EXPECT_EQ(MigMixWholeGpuCounts(8), std::vector<int>({1, 2, 4, 6}));
  EXPECT_EQ(MigMixWholeGpuCounts(6), std::vector<int>({1, 3, 4}));
  EXPECT_EQ(MigMixWholeGpuCounts(16), std::vector<int>({1, 4, 8, 12}));
}

// H100-80GB on 4 GPUs: k = 1, 2, 3 with each named config but all-7g.80gb,
// all-enabled/-disabled and the +me one: all-1g.10gb, all-1g.20gb,
// all-2g.20gb, all-3g.40gb, all-4g.40gb, all-balanced.
TEST(MigMixTest, H100MixesPairTheWholeGpuWithEachNamedConfig) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& h100 = catalog.Get("H100-80GB");
  const std::vector<MigMix> mixes = MigMixes(h100, 4);
  ASSERT_EQ(mixes.size(), 3u * 6u);
  std::vector<std::string> others;
  for (size_t i = 0; i < 6; ++i) others.push_back(mixes[i].other_config);
  EXPECT_EQ(others,
            std::vector<std::string>({"all-1g.10gb", "all-1g.20gb",
                                      "all-2g.20gb", "all-3g.40gb",
                                      "all-4g.40gb", "all-balanced"}));
  const MigMix& m = mixes[6 + 3];  // k = 2, all-3g.40gb
  EXPECT_EQ(m.whole_gpus, 2);
  EXPECT_EQ(m.other_config, "all-3g.40gb");
  using Items = std::vector<std::string>;
  EXPECT_EQ(m.layouts, std::vector<Items>({Items{"7g.80gb"}, Items{"7g.80gb"},
                                           Items{"3g.40gb:2"},
                                           Items{"3g.40gb:2"}}));
  EXPECT_TRUE(MigMixes(h100, 1).empty());
  EXPECT_TRUE(MigMixes(catalog.Get("L4"), 8).empty());
  EXPECT_EQ(MigMixes(h100, 8).size(), 4u * 6u);
}

}  // namespace
}  // namespace gpushare
