#include "gpushare/io/suggest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpushare {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(EditDistanceTest, EmptyStrings) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("abc", ""), 3);
}

TEST(EditDistanceTest, ClassicExamples) {
  // kitten -> sitten (k/s) -> sittin (e/i) -> sitting (+g).
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  // flaw -> law (-f) -> lawn (+n).
  EXPECT_EQ(EditDistance("flaw", "lawn"), 2);
  // intention -> execution: -i, n/e, t/x, +c, n/u.
  EXPECT_EQ(EditDistance("intention", "execution"), 5);
  EXPECT_EQ(EditDistance("same", "same"), 0);
  EXPECT_EQ(EditDistance("a", "b"), 1);
}

TEST(EditDistanceTest, IsSymmetric) {
  EXPECT_EQ(EditDistance("sitting", "kitten"), 3);
  EXPECT_EQ(EditDistance("lawn", "flaw"), 2);
  EXPECT_EQ(EditDistance("abc", ""), EditDistance("", "abc"));
}

TEST(EditDistanceTest, IgnoresCase) {
  EXPECT_EQ(EditDistance("ABC", "abc"), 0);
  EXPECT_EQ(EditDistance("a100-40gb", "A100-40GB"), 0);
  EXPECT_EQ(EditDistance("a100-40gb", "A100-80GB"), 1);
  EXPECT_EQ(EditDistance("GPU", "gpus"), 1);
  // Five characters appended.
  EXPECT_EQ(EditDistance("H100", "h100-80gb"), 5);
}

TEST(EditDistanceTest, MigProfileNames) {
  EXPECT_EQ(EditDistance("3g.40gb", "3g.20gb"), 1);
  EXPECT_EQ(EditDistance("3g.45gb", "4g.40gb"), 2);
  EXPECT_EQ(EditDistance("3g.45gb", "1g.10gb"), 3);
  // Three characters appended.
  EXPECT_EQ(EditDistance("1g.10gb", "1g.10gb+me"), 3);
}

TEST(ClosestNamesTest, OrdersByDistance) {
  const std::vector<std::string> profiles = {"1g.10gb", "1g.10gb+me", "1g.20gb",
                                             "2g.20gb", "3g.40gb",    "4g.40gb",
                                             "7g.80gb"};
  // 3g.40gb (1), 4g.40gb (2), then the first of the ties at 3.
  EXPECT_THAT(ClosestNames("3g.45gb", profiles),
              ElementsAre("3g.40gb", "4g.40gb", "1g.10gb"));
}

TEST(ClosestNamesTest, TiesPreferTheLongerSharedPrefix) {
  // Both are one edit away; "abcx" shares three leading characters.
  EXPECT_THAT(ClosestNames("abcd", {"xbcd", "abcx"}),
              ElementsAre("abcx", "xbcd"));
  // The prefix is compared case-insensitively too.
  EXPECT_THAT(ClosestNames("ABCD", {"xbcd", "abcx"}),
              ElementsAre("abcx", "xbcd"));
}

TEST(ClosestNamesTest, FullTiesKeepTheGivenOrder) {
  EXPECT_THAT(ClosestNames("aa", {"ax", "ay", "az"}),
              ElementsAre("ax", "ay", "az"));
  EXPECT_THAT(ClosestNames("aa", {"az", "ay", "ax"}),
              ElementsAre("az", "ay", "ax"));
}

TEST(ClosestNamesTest, RespectsTheLimit) {
  const std::vector<std::string> names = {"abd", "xyz", "abe", "abf", "abc"};
  EXPECT_THAT(ClosestNames("abc", names), ElementsAre("abc", "abd", "abe"));
  EXPECT_THAT(ClosestNames("abc", names, 1), ElementsAre("abc"));
  EXPECT_THAT(ClosestNames("abc", names, 0), IsEmpty());
  EXPECT_THAT(ClosestNames("abc", names, 10),
              ElementsAre("abc", "abd", "abe", "abf", "xyz"));
}

TEST(ClosestNamesTest, DropsDuplicatesWithoutUsingUpTheLimit) {
  EXPECT_THAT(ClosestNames("abc", {"abd", "abd", "abe", "abf"}),
              ElementsAre("abd", "abe", "abf"));
}

TEST(ClosestNamesTest, NoCandidates) {
  EXPECT_THAT(ClosestNames("abc", {}), IsEmpty());
}

TEST(DidYouMeanTest, ThreeCandidates) {
  EXPECT_EQ(DidYouMean("abc", {"abd", "abe", "abf", "xyz"}),
            "; did you mean abd, abe or abf?");
}

TEST(DidYouMeanTest, TwoCandidates) {
  EXPECT_EQ(DidYouMean("abc", {"abd", "abe"}), "; did you mean abd or abe?");
  EXPECT_EQ(DidYouMean("abc", {"abd", "abe", "abf"}, 2),
            "; did you mean abd or abe?");
}

TEST(DidYouMeanTest, OneCandidate) {
  EXPECT_EQ(DidYouMean("abc", {"abd"}), "; did you mean abd?");
  EXPECT_EQ(DidYouMean("prise_per_hour", {"name", "price_per_hour", "sms"}, 1),
            "; did you mean price_per_hour?");
}

TEST(DidYouMeanTest, NoCandidates) {
  EXPECT_EQ(DidYouMean("abc", {}), "");
  EXPECT_EQ(DidYouMean("abc", {"abd"}, 0), "");
}

TEST(JoinNamesTest, DefaultSeparator) {
  EXPECT_EQ(JoinNames({}), "");
  EXPECT_EQ(JoinNames({"a"}), "a");
  EXPECT_EQ(JoinNames({"a", "b"}), "a, b");
  EXPECT_EQ(JoinNames({"a", "b", "c"}), "a, b, c");
}

TEST(JoinNamesTest, CustomSeparator) {
  EXPECT_EQ(JoinNames({"a", "b", "c"}, " | "), "a | b | c");
  EXPECT_EQ(JoinNames({"a", "b", "c"}, ""), "abc");
  EXPECT_EQ(JoinNames({"only"}, " | "), "only");
}

TEST(JoinNamesTest, KeepsEmptyNames) {
  EXPECT_EQ(JoinNames({"", "b", ""}), ", b, ");
}

TEST(ClosestNamesTest, NoSuggestionForAHugeName) {
  const std::vector<std::string> names = {"A100-40GB", "H100-80GB"};
  EXPECT_THAT(ClosestNames(std::string(kMaxSuggestedNameBytes + 1, 'H'), names),
              IsEmpty());
  EXPECT_EQ(DidYouMean(std::string(50'000'000, 'H'), names), "");
  EXPECT_EQ(ClosestNames(std::string(kMaxSuggestedNameBytes, 'H'), names)
                .size(),
            2u);
}

}  // namespace
}  // namespace gpushare
