#include "gpushare/catalog/mig_config.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string Counts(const GpuModel& m, const std::string& config) {
  return FormatMigCounts(m, FindNamedMigConfig(m, config).counts);
}

// The GPU Operator's default mig-parted configs (NVIDIA/gpu-operator
// assets/state-mig-manager/0400_configmap.yaml).
TEST(MigConfigTest, BalancedConfigsMatchTheGpuOperator) {
  const Catalog catalog = Catalog::Builtin();
  EXPECT_EQ(Counts(catalog.Get("A100-40GB"), "all-balanced"),
            "3g.20gb + 2g.10gb + 2 x 1g.5gb");
  EXPECT_EQ(Counts(catalog.Get("A100-80GB"), "all-balanced"),
            "3g.40gb + 2g.20gb + 2 x 1g.10gb");
  EXPECT_EQ(Counts(catalog.Get("A30-24GB"), "all-balanced"),
            "2g.12gb + 2 x 1g.6gb");
  EXPECT_EQ(Counts(catalog.Get("H100-94GB"), "all-balanced"),
            "3g.47gb + 2g.24gb + 2 x 1g.12gb");
  EXPECT_EQ(Counts(catalog.Get("H200-141GB"), "all-balanced"),
            "3g.71gb + 2g.35gb + 2 x 1g.18gb");
  EXPECT_EQ(Counts(catalog.Get("B200"), "all-balanced"),
            "3g.90gb + 2g.45gb + 2 x 1g.23gb");
}

TEST(MigConfigTest, AllProfileConfigsUseTheMaxCount) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModel& a100 = catalog.Get("A100-40GB");
  EXPECT_EQ(Counts(a100, "all-1g.5gb"), "7 x 1g.5gb");
  EXPECT_EQ(Counts(a100, "all-1g.5gb.me"), "1g.5gb+me");
  EXPECT_EQ(Counts(a100, "all-1g.10gb"), "4 x 1g.10gb");
  EXPECT_EQ(Counts(a100, "all-2g.10gb"), "3 x 2g.10gb");
  EXPECT_EQ(Counts(a100, "all-3g.20gb"), "2 x 3g.20gb");
  EXPECT_FALSE(FindNamedMigConfig(a100, "all-disabled").mig_enabled);
  EXPECT_TRUE(FindNamedMigConfig(a100, "all-enabled").mig_enabled);
  EXPECT_TRUE(FindNamedMigConfig(a100, "all-enabled").layout.empty());
}

TEST(MigConfigTest, EveryConfigOfEveryModelIsAValidLayout) {
  const Catalog catalog = Catalog::Builtin();
  for (const GpuModel& m : catalog.models()) {
    for (const NamedMigConfig& c : NamedMigConfigs(m)) {
      EXPECT_EQ(FindMigLayoutProblem(m, c.layout), "") << m.name << " " << c.name;
      EXPECT_EQ(MigProfileCounts(m, c.layout), c.counts);
    }
  }
  EXPECT_TRUE(NamedMigConfigs(catalog.Get("L4")).empty());
}

TEST(MigConfigTest, UnknownConfigNamesTheClosest) {
  const Catalog catalog = Catalog::Builtin();
  try {
    FindNamedMigConfig(catalog.Get("H100-80GB"), "all-balance");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean all-balanced"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(FindNamedMigConfig(catalog.Get("T4"), "all-balanced"),
               InputError);
}

}  // namespace
}  // namespace gpushare
