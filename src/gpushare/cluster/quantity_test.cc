#include "gpushare/cluster/quantity.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace quantity_test {
namespace {

struct Case {
  const char* text;
  int64_t value;  // Value(), rounded up
  int64_t milli;  // MilliValue(), rounded up
};

TEST(QuantityTest, ParsesEveryFormExactly) {
  const Case cases[] = {
      {"0", 0, 0},
      {"1", 1, 1000},
      {"500m", 1, 500},
      {"1500m", 2, 1500},
      {"0.5", 1, 500},
      {"1.5", 2, 1500},
      {".5", 1, 500},
      {"2.", 2, 2000},
      {"+3", 3, 3000},
      {"100u", 1, 1},  // 0.0001 cores: MilliValue rounds up
      {"1n", 1, 1},
      {"2k", 2000, 2000000},
      {"1e3", 1000, 1000000},
      {"1E3", 1000, 1000000},
      {"5e-1", 1, 500},
      {"1.5e+2", 150, 150000},
      {"1M", 1000000, 1000000000},
      {"1G", 1000000000, 1000000000000},
      {"1Ki", 1024, 1024000},
      {"16Gi", 17179869184, 17179869184000},
      {"1.5Gi", 1610612736, 1610612736000},
      {"1E", 1000000000000000000, 0},  // milli overflows: checked below
      {"007", 7, 7000},
      {"0.000", 0, 0},
      {"-0", 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Quantity q;
    std::string error;
    ASSERT_TRUE(Quantity::Parse(c.text, &q, &error)) << error;
    int64_t v = -1;
    ASSERT_TRUE(q.Value(&v));
    EXPECT_EQ(v, c.value);
    if (std::string(c.text) != "1E") {
      ASSERT_TRUE(q.MilliValue(&v));
      EXPECT_EQ(v, c.milli);
    }
  }
}

TEST(QuantityTest, MebibytesRoundUp) {
  struct MibCase {
    const char* text;
    int64_t mib;
  };
  const MibCase cases[] = {
      {"16Gi", 16384}, {"1Mi", 1},       {"1Ki", 1},         {"1048576", 1},
      {"1048577", 2},  {"1G", 954},      {"128974848", 123}, {"129e6", 124},
      {"0.5Gi", 512},  {"1Ti", 1048576},
  };
  for (const MibCase& c : cases) {
    SCOPED_TRACE(c.text);
    Quantity q;
    std::string error;
    ASSERT_TRUE(Quantity::Parse(c.text, &q, &error)) << error;
    int64_t mib = -1;
    ASSERT_TRUE(q.Mebibytes(&mib));
    EXPECT_EQ(mib, c.mib);
  }
}

TEST(QuantityTest, NegativeValuesRoundTowardsPositiveInfinity) {
  Quantity q;
  std::string error;
  ASSERT_TRUE(Quantity::Parse("-1.5", &q, &error));
  EXPECT_TRUE(q.negative());
  int64_t v = 0;
  ASSERT_TRUE(q.Value(&v));
  EXPECT_EQ(v, -1);
  ASSERT_TRUE(q.MilliValue(&v));
  EXPECT_EQ(v, -1500);
}

TEST(QuantityTest, RejectsMalformedText) {
  for (const char* text :
       {"", "+", ".", "1..5", "1.5.", "abc", "1x", "1KiB", "1e", "1e+", "1e3.5",
        "1 Gi", " 1", "1mi", "1ki", "Gi", "--1", "1e9999",
        "1234567890123456789012345678901234567"}) {
    SCOPED_TRACE(text);
    Quantity q;
    std::string error;
    EXPECT_FALSE(Quantity::Parse(text, &q, &error));
    EXPECT_NE(error.find("is not a Kubernetes quantity"), std::string::npos);
  }
}

TEST(QuantityTest, OverflowIsAnErrorNotAWrap) {
  Quantity q;
  std::string error;
  ASSERT_TRUE(Quantity::Parse("7Ei", &q, &error));
  int64_t v = 0;
  EXPECT_TRUE(q.Value(&v));  // 7 x 2^60 < 2^63
  EXPECT_FALSE(q.MilliValue(&v));
  ASSERT_TRUE(Quantity::Parse("1e30", &q, &error));
  EXPECT_FALSE(q.Value(&v));
  ASSERT_TRUE(Quantity::Parse("1e-30", &q, &error));
  ASSERT_TRUE(q.Value(&v));
  EXPECT_EQ(v, 1);
}

}  // namespace
}  // namespace quantity_test
}  // namespace gpushare
