#include "gpushare/io/rfc3339.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(Rfc3339Test, ReadsSecondsNanosAndOffsets) {
  int64_t s = 0;
  int64_t ns = 0;
  ASSERT_EQ(ParseRfc3339("2024-01-01T00:00:00Z", &s, &ns), Rfc3339::kOk);
  EXPECT_EQ(s, 1704067200);
  EXPECT_EQ(ns, 0);
  ASSERT_EQ(ParseRfc3339("2024-01-01T01:30:00.123456789+01:30", &s, &ns),
            Rfc3339::kOk);
  EXPECT_EQ(s, 1704067200);
  EXPECT_EQ(ns, 123456789);
  ASSERT_EQ(ParseRfc3339("1969-12-31T23:59:59.5Z", &s, &ns), Rfc3339::kOk);
  EXPECT_EQ(s, -1);
  EXPECT_EQ(ns, 500000000);
}

TEST(Rfc3339Test, SaysWhyNot) {
  int64_t s = 7;
  int64_t ns = 7;
  EXPECT_EQ(ParseRfc3339("2024-01-01", &s, &ns), Rfc3339::kNotRfc3339);
  EXPECT_EQ(ParseRfc3339("2024-01-01T00:00:00.1234567891Z", &s, &ns),
            Rfc3339::kNotRfc3339);
  EXPECT_EQ(ParseRfc3339("2024-01-01T00:00:00+01:00x", &s, &ns),
            Rfc3339::kNotRfc3339);
  EXPECT_EQ(ParseRfc3339("2023-02-29T00:00:00Z", &s, &ns),
            Rfc3339::kNoSuchTime);
  EXPECT_EQ(ParseRfc3339("2024-01-01T24:00:00Z", &s, &ns),
            Rfc3339::kNoSuchTime);
  EXPECT_EQ(ParseRfc3339("2024-01-01T00:00:00+24:00", &s, &ns),
            Rfc3339::kBadOffset);
  EXPECT_EQ(s, 7);  // untouched unless kOk
  EXPECT_EQ(ns, 7);
}

}  // namespace
}  // namespace gpushare
