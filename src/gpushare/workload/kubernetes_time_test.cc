#include "gpushare/workload/kubernetes_time.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(KubernetesTimeTest, ReadsUtcAndOffsets) {
  double t = 0;
  ASSERT_TRUE(ParseKubernetesTime("2024-12-06T16:00:00Z", &t));
  EXPECT_DOUBLE_EQ(t, 1733500800);
  ASSERT_TRUE(ParseKubernetesTime("2024-12-06T17:30:00+01:30", &t));
  EXPECT_DOUBLE_EQ(t, 1733500800);
  ASSERT_TRUE(ParseKubernetesTime("1970-01-01T00:00:00.25Z", &t));
  EXPECT_DOUBLE_EQ(t, 0.25);
  ASSERT_TRUE(ParseKubernetesTime("2024-02-29T00:00:00Z", &t));
  EXPECT_DOUBLE_EQ(t, 1709164800);
}

TEST(KubernetesTimeTest, RefusesOtherText) {
  double t = 0;
  for (const char* text :
       {"", "yesterday", "2024-12-06", "2024-12-06T16:00:00",
        "2024-12-06 16:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
        "2024-12-06T24:00:00Z", "2024-12-06T16:00:00Zx",
        "2024-12-06T16:00:00.Z", "2024-12-06T16:00:00+1:00"}) {
    EXPECT_FALSE(ParseKubernetesTime(text, &t)) << text;
  }
}

}  // namespace
}  // namespace gpushare
