// MIG geometry against hand-checked cases: the profile tables (NVIDIA MIG
// User Guide, "Supported MIG Profiles") and the valid-combination rule
// (instances at allowed starts, memory ranges not overlapping; the guide's
// "Creating GPU Instances > Instance Geometry").

#include "gpushare/catalog/mig_layout.h"

#include <set>

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

class MigLayoutTest : public ::testing::Test {
 protected:
  const GpuModel& Model(const char* name) { return *catalog_.Find(name); }

  // The message of the InputError ResolveMigLayout throws, or "" if none.
  std::string Problem(const char* gpu, std::vector<std::string> items) {
    try {
      ResolveMigLayout(Model(gpu), items);
    } catch (const InputError& e) {
      return e.message();
    }
    return "";
  }

  std::string Resolve(const char* gpu, std::vector<std::string> items) {
    return FormatMigLayout(Model(gpu), ResolveMigLayout(Model(gpu), items));
  }

  Catalog catalog_ = Catalog::Builtin();
};

TEST_F(MigLayoutTest, A100_40GB_ThreeTwoOneOneFitsOnlyWithThe3gAt4) {
  // 3g.20gb + 2g.10gb + 1g.5gb + 1g.5gb only with the 3g at start 4 (the
  // MIG User Guide's 3-2-1-1 example: it fails unless 3g.20gb comes first).
  EXPECT_EQ(Resolve("A100-40GB", {"3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb"}),
            "2g.10gb@0 1g.5gb@2 1g.5gb@3 3g.20gb@4");
  EXPECT_EQ(Problem("A100-40GB", {"3g.20gb@4", "2g.10gb@0", "1g.5gb@2",
                                  "1g.5gb@3"}),
            "");
  // With the 3g at 0, 1g starts stop at 6 so only 3g + 2g + 1g fits.
  EXPECT_NE(Problem("A100-40GB", {"3g.20gb@0", "2g.10gb", "1g.5gb", "1g.5gb"}),
            "");
  EXPECT_EQ(Resolve("A100-40GB", {"3g.20gb@0", "2g.10gb", "1g.5gb"}),
            "3g.20gb@0 2g.10gb@4 1g.5gb@6");
}

TEST_F(MigLayoutTest, A100_40GB_1g10gbTakesTwoMemoryPositions) {
  EXPECT_EQ(Problem("A100-40GB", {"1g.10gb@0", "1g.5gb@1"}),
            "1g.10gb@0 and 1g.5gb@1 overlap memory position 1");
  EXPECT_EQ(Problem("A100-40GB", {"1g.10gb@1"}),
            "1g.10gb cannot start at 1 on A100-40GB (allowed starts: 0, 2, "
            "4, 6)");
  EXPECT_EQ(Problem("A100-40GB", {"1g.10gb:4"}), "");
  EXPECT_EQ(Problem("A100-40GB", {"1g.10gb:5"}),
            "max 4 x 1g.10gb on A100-40GB (layout has 5)");
  // 1g.10gb@6 is one of the few ways to reach memory position 7.
  EXPECT_EQ(Problem("A100-40GB", {"4g.20gb@0", "1g.5gb@4", "1g.5gb@5",
                                  "1g.10gb@6"}),
            "");
}

TEST_F(MigLayoutTest, A100_40GB_Limits) {
  EXPECT_EQ(Problem("A100-40GB", {"1g.5gb:7"}), "");
  EXPECT_EQ(Problem("A100-40GB", {"1g.5gb:8"}),
            "max 7 x 1g.5gb on A100-40GB (layout has 8)");
  EXPECT_EQ(Problem("A100-40GB", {"1g.5gb:7", "1g.5gb+me"}),
            "A100-40GB holds at most 7 GPU instances (layout has 8)");
  EXPECT_EQ(Problem("A100-40GB", {"7g.40gb@0", "1g.5gb@3"}),
            "compute slices add up to 8, more than the 7 of A100-40GB");
  EXPECT_EQ(Problem("A100-40GB", {"4g.20gb", "3g.20gb", "1g.5gb"}),
            "compute slices add up to 8, more than the 7 of A100-40GB");
  EXPECT_EQ(Problem("A100-40GB", {"4g.20gb", "3g.20gb"}), "");
  EXPECT_EQ(Problem("A100-40GB", {"3g.20gb:2"}), "");
  EXPECT_EQ(Problem("A100-40GB", {"2g.10gb:3", "1g.5gb"}), "");
  EXPECT_EQ(Resolve("A100-40GB", {"2g.10gb:3", "1g.5gb"}),
            "2g.10gb@0 2g.10gb@2 2g.10gb@4 1g.5gb@6");
  // 2g + 5 x 1g: e.g. the 2g at 4, the 1g's at 0, 1, 2, 3, 6; the
  // placer prefers low starts for 2g (HAMi's order) and finds the 2g at 0.
  EXPECT_EQ(Problem("A100-40GB", {"2g.10gb@4", "1g.5gb@0", "1g.5gb@1",
                                  "1g.5gb@2", "1g.5gb@3", "1g.5gb@6"}),
            "");
  EXPECT_EQ(Resolve("A100-40GB", {"2g.10gb", "1g.5gb:5"}),
            "2g.10gb@0 1g.5gb@2 1g.5gb@3 1g.5gb@4 1g.5gb@5 1g.5gb@6");
  // A 6th 1g cannot join: position 7 is reachable only by sizes >= 2.
  EXPECT_NE(Problem("A100-40GB", {"2g.10gb", "1g.5gb:6"}), "");
}

TEST_F(MigLayoutTest, H100_80GB_ErrorsSayWhy) {
  EXPECT_EQ(Problem("H100-80GB", {"3g.40gb@2"}),
            "3g.40gb cannot start at 2 on H100-80GB (allowed starts: 0, 4)");
  EXPECT_EQ(Problem("H100-80GB", {"4g.40gb@0", "3g.40gb@0"}),
            "4g.40gb@0 and 3g.40gb@0 overlap memory positions 0-3");
  EXPECT_EQ(Problem("H100-80GB", {"4g.40gb:2"}),
            "max 1 x 4g.40gb on H100-80GB (layout has 2)");
  EXPECT_EQ(Problem("H100-80GB", {"1g.10gb+me", "1g.10gb+me"}),
            "max 1 x 1g.10gb+me on H100-80GB (layout has 2)");
  EXPECT_EQ(Resolve("H100-80GB", {"3g.40gb:1,2g.20gb:1"}),
            "2g.20gb@0 3g.40gb@4");
  EXPECT_EQ(Resolve("H100-80GB", {"4g.40gb", "3g.40gb"}),
            "4g.40gb@0 3g.40gb@4");
}

TEST_F(MigLayoutTest, H200_141GB) {
  EXPECT_EQ(Resolve("H200-141GB", {"3g.71gb", "2g.35gb", "1g.18gb:2"}),
            "2g.35gb@0 1g.18gb@2 1g.18gb@3 3g.71gb@4");
  EXPECT_EQ(Problem("H200-141GB", {"1g.35gb@6"}), "");
  EXPECT_EQ(Problem("H200-141GB", {"1g.18gb@7"}),
            "1g.18gb cannot start at 7 on H200-141GB (allowed starts: 0, 1, "
            "2, 3, 4, 5, 6)");
  EXPECT_EQ(Problem("H200-141GB", {"7g.141gb", "1g.18gb"}),
            "compute slices add up to 8, more than the 7 of H200-141GB");
}

TEST_F(MigLayoutTest, A30FourSlices) {
  EXPECT_EQ(Problem("A30-24GB", {"4g.24gb@0"}), "");
  EXPECT_EQ(Problem("A30-24GB", {"2g.12gb@1"}),
            "2g.12gb cannot start at 1 on A30-24GB (allowed starts: 0, 2)");
  EXPECT_EQ(Resolve("A30-24GB", {"2g.12gb:2"}), "2g.12gb@0 2g.12gb@2");
  EXPECT_EQ(Problem("A30-24GB", {"1g.6gb+me", "2g.12gb+me"}),
            "at most one media-extension (+me) instance per GPU on A30-24GB "
            "(layout has 2)");
  EXPECT_EQ(Problem("A30-24GB", {"4g.24gb", "1g.6gb"}),
            "compute slices add up to 5, more than the 4 of A30-24GB");
  EXPECT_EQ(Problem("A30-24GB", {"1g.6gb:5"}),
            "max 4 x 1g.6gb on A30-24GB (layout has 5)");
}

TEST_F(MigLayoutTest, SpecErrors) {
  try {
    ResolveMigLayout(Model("H100-80GB"), {"3g.40g"});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown MIG profile '3g.40g' on "
                                         "H100-80GB; did you mean 3g.40gb"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(ResolveMigLayout(Model("H100-80GB"), {"3g.40gb@x"}), InputError);
  EXPECT_THROW(ResolveMigLayout(Model("H100-80GB"), {"3g.40gb@9"}), InputError);
  EXPECT_THROW(ResolveMigLayout(Model("H100-80GB"), {"3g.40gb:-1"}),
               InputError);
  EXPECT_THROW(ResolveMigLayout(Model("H100-80GB"), {"3g.40gb@0:1"}),
               InputError);
  EXPECT_THROW(ResolveMigLayout(Model("H100-80GB"), {""}), InputError);
  EXPECT_THROW(ResolveMigLayout(Model("L4"), {"1g.5gb"}), InputError);
}

// Hand count for A30 (4 memory positions, compute = memory for every
// profile, so maximal = every position covered): 4g alone (1); each half
// [0,1] and [2,3] is a 2g or two 1g's: without +me 2 x 2 = 4; one 2g+me in
// either half with the other half plain: 2 x 2 = 4; one 1g+me at any of 4
// positions, its neighbour a plain 1g, the other half plain: 4 x 2 = 8.
// Total 17 placements in 8 profile combinations; 5 without +me.
TEST_F(MigLayoutTest, A30MaximalLayoutsMatchHandCount) {
  const GpuModel& a30 = Model("A30-24GB");
  std::vector<MigLayout> layouts = EnumerateMaximalMigLayouts(a30);
  EXPECT_EQ(layouts.size(), 17u);
  std::set<std::vector<int>> combinations;
  int without_media = 0;
  for (const MigLayout& layout : layouts) {
    combinations.insert(MigProfileCounts(a30, layout));
    bool media = false;
    for (const MigInstance& in : layout) {
      media = media || a30.mig->profiles[in.profile].media_extension();
    }
    without_media += media ? 0 : 1;
  }
  EXPECT_EQ(combinations.size(), 8u);
  EXPECT_EQ(without_media, 5);
}

TEST_F(MigLayoutTest, EnumeratedLayoutsAreValidMaximalAndDistinct) {
  for (const GpuModel& model : catalog_.models()) {
    if (!model.mig) continue;
    SCOPED_TRACE(model.name);
    std::vector<MigLayout> layouts = EnumerateMaximalMigLayouts(model);
    EXPECT_FALSE(layouts.empty());
    std::set<std::string> seen;
    for (const MigLayout& layout : layouts) {
      EXPECT_EQ(FindMigLayoutProblem(model, layout), "");
      for (size_t p = 0; p < model.mig->profiles.size(); ++p) {
        for (int start : model.mig->profiles[p].starts) {
          EXPECT_FALSE(CanAddMigInstance(model, layout, static_cast<int>(p),
                                         start))
              << FormatMigLayout(model, layout);
        }
      }
      EXPECT_TRUE(seen.insert(FormatMigLayout(model, layout)).second);
    }
  }
}

TEST_F(MigLayoutTest, PlacementFindsAnyLayoutThatExists) {
  // Every maximal layout's profile multiset must be placeable from counts.
  const GpuModel& a100 = Model("A100-40GB");
  for (const MigLayout& layout : EnumerateMaximalMigLayouts(a100)) {
    std::vector<int> free;
    for (const MigInstance& in : layout) free.push_back(in.profile);
    std::string why;
    EXPECT_TRUE(PlaceMigProfiles(a100, {}, free, &why).has_value())
        << FormatMigLayout(a100, layout) << ": " << why;
  }
}

TEST_F(MigLayoutTest, ResourceNames) {
  const MigGeometry& g = *Model("A100-40GB").mig;
  EXPECT_EQ(g.profiles[g.FindProfile("1g.5gb+me")].ResourceName(),
            "nvidia.com/mig-1g.5gb.me");
  EXPECT_EQ(g.profiles[g.FindProfile("3g.20gb")].ResourceName(),
            "nvidia.com/mig-3g.20gb");
}

}  // namespace
}  // namespace gpushare
