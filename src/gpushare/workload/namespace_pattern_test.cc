#include "gpushare/workload/namespace_pattern.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace namespace_pattern_test {
namespace {

TEST(NamespacePatternTest, WhatAPatternMayBe) {
  for (const char* ok :
       {"kube-system", "team-*", "*-system", "*", "a*b", "**", "t*-*-x"}) {
    EXPECT_TRUE(IsNamespacePattern(ok)) << ok;
  }
  for (const char* bad :
       {"", "Team-*", "team_*", "-team", "team-", "a.b", "team/*"}) {
    EXPECT_FALSE(IsNamespacePattern(bad)) << bad;
  }
  EXPECT_TRUE(IsNamespacePattern(std::string(63, 'a')));
  EXPECT_FALSE(IsNamespacePattern(std::string(64, 'a')));
}

TEST(NamespacePatternTest, StarIsAnyRunOfCharacters) {
  EXPECT_TRUE(MatchesNamespace("kube-system", "kube-system"));
  EXPECT_FALSE(MatchesNamespace("kube-system", "kube-systems"));
  EXPECT_TRUE(MatchesNamespace("team-*", "team-a"));
  EXPECT_TRUE(MatchesNamespace("team-*", "team-"));  // none included
  EXPECT_FALSE(MatchesNamespace("team-*", "teams"));
  EXPECT_TRUE(MatchesNamespace("*-system", "kueue-system"));
  EXPECT_FALSE(MatchesNamespace("*-system", "kueue-system-2"));
  EXPECT_TRUE(MatchesNamespace("*", "anything"));
  // Back-tracking: the first "-x" is not the end.
  EXPECT_TRUE(MatchesNamespace("t*-x", "t-x-y-x"));
  EXPECT_FALSE(MatchesNamespace("t*-x", "t-x-y"));
  EXPECT_TRUE(MatchesNamespace("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(MatchesNamespace("a*b*c", "aXcYb"));
}

TEST(NamespacePatternTest, TheExactNameThenTheMostLiteralCharacters) {
  const std::vector<std::string> patterns = {"*", "team-*", "team-ml-*",
                                             "team-ml-prod", "*-prod"};
  EXPECT_EQ(MostSpecificMatch(patterns, "team-ml-prod"), 3);
  EXPECT_EQ(MostSpecificMatch(patterns, "team-ml-dev"), 2);
  EXPECT_EQ(MostSpecificMatch(patterns, "team-web"), 1);
  EXPECT_EQ(MostSpecificMatch(patterns, "web-prod"), 4);
  EXPECT_EQ(MostSpecificMatch(patterns, "default"), 0);
  EXPECT_EQ(MostSpecificMatch({"team-*"}, "default"), -1);
  // A tie (5 literal characters each): the first listed.
  EXPECT_EQ(MostSpecificMatch({"team-*", "*-prod"}, "team-prod"), 0);
}

}  // namespace
}  // namespace namespace_pattern_test
}  // namespace gpushare
