#include "gpushare/base/index_pages.h"

#include <gtest/gtest.h>

#include <string>

namespace gpushare {
namespace {

TEST(IndexPagesTest, APageIsFreedWithItsLastIndexOnly) {
  IndexPages<std::string, 2> v;  // pages of 4
  for (int i = 0; i < 8; ++i) v[i] = "pod-" + std::to_string(i);
  EXPECT_EQ(v.pages_in_use(), 2);
  v.Release(0);
  v.Release(1);
  v.Release(3);
  // Index 2 still holds page 0.
  EXPECT_EQ(v.pages_in_use(), 2);
  EXPECT_EQ(v[2], "pod-2");
  EXPECT_EQ(v[0], "");  // a released index reads as T{}
  v.Release(2);
  EXPECT_EQ(v.pages_in_use(), 1);
  EXPECT_FALSE(v.contains(2));
  EXPECT_TRUE(v.contains(5));
  EXPECT_EQ(v[5], "pod-5");
}

TEST(IndexPagesTest, AFreedPageReadsAsScratchAndIsNotMadeAgain) {
  IndexPages<int, 1> v;  // pages of 2
  v[0] = 7;
  v[1] = 8;
  v.Release(0);
  v.Release(1);
  ASSERT_EQ(v.pages_in_use(), 0);
  v[1] = 9;  // a write to a freed page is not kept
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(v.pages_in_use(), 0);
  const IndexPages<int, 1>& c = v;
  EXPECT_EQ(c[0], 0);
  EXPECT_EQ(c[100], 0);  // never made
  v.Release(1);  // a second release of a freed page changes nothing
  EXPECT_EQ(v.pages_in_use(), 0);
}

}  // namespace
}  // namespace gpushare
