// Quantity parsing against hand-computed byte counts, and refusals.

#include "gpushare/cluster/dra/quantity.h"

#include <gtest/gtest.h>

#include "gpushare/cluster/dra/semver.h"

namespace gpushare {
namespace {

int64_t ParsedQuantity(const char* text) {
  std::string why;
  const std::optional<int64_t> q = ParseQuantity(text, &why);
  EXPECT_TRUE(q.has_value()) << text << ": " << why;
  return q.value_or(-1);
}

std::string QuantityRefusal(const char* text) {
  std::string why;
  const std::optional<int64_t> q = ParseQuantity(text, &why);
  EXPECT_FALSE(q.has_value()) << text << " gave " << q.value_or(0);
  return why;
}

TEST(DraQuantityTest, ParsesBinaryDecimalAndPlain) {
  EXPECT_EQ(ParsedQuantity("40Gi"), 42'949'672'960);  // 40 * 2^30
  EXPECT_EQ(ParsedQuantity("80G"), 80'000'000'000);
  EXPECT_EQ(ParsedQuantity("1Ki"), 1024);
  EXPECT_EQ(ParsedQuantity("9856Mi"), 10'334'765'056);  // 9856 * 2^20
  EXPECT_EQ(ParsedQuantity("14"), 14);
  EXPECT_EQ(ParsedQuantity("0"), 0);
  EXPECT_EQ(ParsedQuantity("1.5Gi"), 1'610'612'736);  // 3 * 2^29
  EXPECT_EQ(ParsedQuantity("2k"), 2000);
  EXPECT_EQ(ParsedQuantity("7Ei"), int64_t{7} << 60);
}

TEST(DraQuantityTest, RefusesMalformedInput) {
  // The whole grammar of resource.Quantity is read (cluster/quantity.h).
  EXPECT_EQ(ParsedQuantity("1e3"), 1000);
  EXPECT_EQ(ParsedQuantity("+14"), 14);
  EXPECT_EQ(ParsedQuantity("2000m"), 2);
  EXPECT_NE(QuantityRefusal("").find("not a Kubernetes quantity"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("-1").find("negative"), std::string::npos);
  EXPECT_NE(QuantityRefusal("100m").find("not a whole number"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("80Gb").find("not a Kubernetes quantity"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("1 Gi").find("not a Kubernetes quantity"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("Gi").find("not a Kubernetes quantity"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("1.5").find("not a whole number"),
            std::string::npos);
  EXPECT_NE(QuantityRefusal("0.1Ki").find("not a whole number"),
            std::string::npos);  // 102.4 bytes
  EXPECT_NE(QuantityRefusal("8Ei").find("too large"), std::string::npos);
  EXPECT_NE(QuantityRefusal("99999999999999999999").find("too large"),
            std::string::npos);
}

TEST(DraQuantityTest, FormatsWithTheLargestExactBinarySuffix) {
  EXPECT_EQ(FormatQuantity(0), "0");
  EXPECT_EQ(FormatQuantity(14), "14");
  EXPECT_EQ(FormatQuantity(1536), "1536");
  EXPECT_EQ(FormatQuantity(int64_t{80} << 30), "80Gi");
  EXPECT_EQ(FormatQuantity(int64_t{9856} << 20), "9856Mi");
  EXPECT_EQ(FormatQuantity(int64_t{2} << 40), "2Ti");
}

TEST(DraSemverTest, ParsesStrictlyAndNormalizesDriverVersions) {
  std::string why;
  ASSERT_TRUE(ParseSemver("8.0.0", &why).has_value());
  EXPECT_EQ(ParseSemver("580.126.20", &why)->minor, 126);
  EXPECT_FALSE(ParseSemver("1.2", &why).has_value());
  EXPECT_NE(why.find("MAJOR.MINOR.PATCH"), std::string::npos);
  EXPECT_FALSE(ParseSemver("01.2.3", &why).has_value());
  EXPECT_FALSE(ParseSemver("1.2.3-rc.1", &why).has_value());
  EXPECT_FALSE(ParseSemver("1..3", &why).has_value());
  EXPECT_EQ(NormalizeSemver("8.0")->ToString(), "8.0.0");
  EXPECT_EQ(NormalizeSemver("9")->ToString(), "9.0.0");
  EXPECT_FALSE(NormalizeSemver("1.2.3.4").has_value());
  EXPECT_LT((Semver{8, 0, 0}), (Semver{8, 9, 0}));
  EXPECT_LT((Semver{9, 0, 0}), (Semver{10, 0, 0}));
}

}  // namespace
}  // namespace gpushare
