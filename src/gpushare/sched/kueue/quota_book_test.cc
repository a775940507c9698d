// Hand-computed cohort arithmetic (Kueue's borrowing and lending limits).

#include "gpushare/sched/kueue/quota_book.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpushare {
namespace {

using Fit = QuotaBook::Fit;

std::vector<QuotaAmount> Gpus(int64_t n) { return {{0, n}}; }

// Two queues of one cohort, 8 GPUs each.
QuotaBook TwoTeams(int64_t borrow_a = QuotaBook::kUnlimited,
                   int64_t lend_b = 8) {
  QuotaBook book({0, 0}, 1);
  book.Define(0, 0, 8, borrow_a, 8);
  book.Define(1, 0, 8, QuotaBook::kUnlimited, lend_b);
  return book;
}

TEST(QuotaBookTest, WithoutACohortOnlyTheNominalQuota) {
  QuotaBook book({-1}, 1);
  book.Define(0, 0, 4, QuotaBook::kUnlimited, 4);
  EXPECT_EQ(book.Fits(0, Gpus(4)), Fit::kFits);
  EXPECT_EQ(book.Fits(0, Gpus(5)), Fit::kNoFit);
  book.Add(0, Gpus(3), +1);
  EXPECT_EQ(book.Available(0, 0), 1);
}

TEST(QuotaBookTest, BorrowsTheCohortsUnusedQuota) {
  QuotaBook book = TwoTeams();
  EXPECT_EQ(book.Fits(0, Gpus(16)), Fit::kFitsBorrowing);
  EXPECT_EQ(book.Fits(0, Gpus(17)), Fit::kNoFit);
  EXPECT_EQ(book.Fits(0, Gpus(9), false), Fit::kNoFit);
  book.Add(0, Gpus(12), +1);
  EXPECT_TRUE(book.Borrowing(0));
  EXPECT_EQ(book.Borrowed(0, 0), 4);
  // Team b's own 8 are now 4 free: it may take 4, not 5.
  EXPECT_EQ(book.Fits(1, Gpus(4)), Fit::kFits);
  EXPECT_EQ(book.Fits(1, Gpus(5)), Fit::kNoFit);
  EXPECT_EQ(book.Available(1, 0), 4);
  book.Add(0, Gpus(12), -1);
  EXPECT_EQ(book.Available(1, 0), 16);
}

TEST(QuotaBookTest, BorrowingLimitCapsWhatIsTaken) {
  QuotaBook book = TwoTeams(/*borrow_a=*/2);
  EXPECT_EQ(book.Fits(0, Gpus(10)), Fit::kFitsBorrowing);
  EXPECT_EQ(book.Fits(0, Gpus(11)), Fit::kNoFit);
  EXPECT_EQ(book.Available(0, 0), 10);
}

// Team b lends at most 3: it keeps G = 5 for itself whatever a does.
TEST(QuotaBookTest, LendingLimitKeepsAGuaranteedPart) {
  QuotaBook book = TwoTeams(QuotaBook::kUnlimited, /*lend_b=*/3);
  EXPECT_EQ(book.Fits(0, Gpus(11)), Fit::kFitsBorrowing);
  EXPECT_EQ(book.Fits(0, Gpus(12)), Fit::kNoFit);
  book.Add(0, Gpus(11), +1);
  EXPECT_EQ(book.Fits(1, Gpus(5)), Fit::kFits);
  EXPECT_EQ(book.Fits(1, Gpus(6)), Fit::kNoFit);
  // b above its guaranteed 5 draws on the cohort, which a has used up.
  book.Add(0, Gpus(11), -1);
  book.Add(1, Gpus(5), +1);
  EXPECT_EQ(book.Fits(0, Gpus(11)), Fit::kFitsBorrowing);
  book.Add(1, Gpus(1), +1);
  EXPECT_EQ(book.Fits(0, Gpus(11)), Fit::kNoFit);
  EXPECT_EQ(book.Fits(0, Gpus(10)), Fit::kFitsBorrowing);
}

TEST(QuotaBookTest, AnUndefinedPairNeverFits) {
  QuotaBook book({-1}, 2);
  book.Define(0, 0, 4, QuotaBook::kUnlimited, 4);
  EXPECT_FALSE(book.Defines(0, 1));
  const std::vector<QuotaAmount> other = {{1, 1}};
  EXPECT_EQ(book.Fits(0, other), Fit::kNoFit);
}

}  // namespace
}  // namespace gpushare
