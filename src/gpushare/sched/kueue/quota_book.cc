#include "gpushare/sched/kueue/quota_book.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

int64_t QuotaBook::Slot::lent_out() const {
  return std::max<int64_t>(0, usage - guaranteed());
}

QuotaBook::QuotaBook(std::vector<int> cohort_of, int flavor_resources)
    : cohort_of_(std::move(cohort_of)), pairs_(flavor_resources) {
  slots_.resize(cohort_of_.size() * static_cast<size_t>(pairs_));
  int cohorts = 0;
  for (int c : cohort_of_) cohorts = std::max(cohorts, c + 1);
  cohort_slots_.resize(static_cast<size_t>(cohorts) * pairs_);
}

void QuotaBook::Define(int queue, int fr, int64_t nominal,
                       int64_t borrowing_limit, int64_t lending_limit) {
  Slot& s = slot(queue, fr);
  GS_CHECK(!s.defined, "a quota slot defined twice");
  s.defined = true;
  s.nominal = nominal;
  s.borrowing_limit = borrowing_limit;
  s.lending_limit = std::min(lending_limit, nominal);
  if (cohort_of_[queue] >= 0) {
    cohort_slot(cohort_of_[queue], fr).capacity += s.lending_limit;
  }
}

QuotaBook::Fit QuotaBook::Fits(int queue, std::span<const QuotaAmount> request,
                               bool allow_borrowing) const {
  const int cohort = cohort_of_[queue];
  bool borrows = false;
  for (const QuotaAmount& a : request) {
    const Slot& s = slot(queue, a.flavor_resource);
    if (!s.defined) return Fit::kNoFit;
    const int64_t after = s.usage + a.quantity;
    if (after <= s.nominal) continue;
    if (cohort < 0 || !allow_borrowing) return Fit::kNoFit;
    if (s.borrowing_limit != kUnlimited &&
        after - s.nominal > s.borrowing_limit) {
      return Fit::kNoFit;
    }
    borrows = true;
  }
  if (cohort >= 0) {
    for (const QuotaAmount& a : request) {
      const Slot& s = slot(queue, a.flavor_resource);
      const int64_t more =
          std::max<int64_t>(0, s.usage + a.quantity - s.guaranteed()) -
          s.lent_out();
      const CohortSlot& h = cohort_slot(cohort, a.flavor_resource);
      if (more > 0 && h.usage + more > h.capacity) return Fit::kNoFit;
    }
  }
  return borrows ? Fit::kFitsBorrowing : Fit::kFits;
}

void QuotaBook::Add(int queue, std::span<const QuotaAmount> amounts, int sign) {
  const int cohort = cohort_of_[queue];
  for (const QuotaAmount& a : amounts) {
    Slot& s = slot(queue, a.flavor_resource);
    const int64_t before = s.lent_out();
    s.usage += sign * a.quantity;
    GS_CHECK(s.usage >= 0, "quota usage below zero");
    if (cohort >= 0) {
      cohort_slot(cohort, a.flavor_resource).usage += s.lent_out() - before;
    }
  }
}

int64_t QuotaBook::Borrowed(int queue, int fr) const {
  const Slot& s = slot(queue, fr);
  return std::max<int64_t>(0, s.usage - s.nominal);
}

bool QuotaBook::Borrowing(int queue) const {
  for (int fr = 0; fr < pairs_; ++fr) {
    if (Borrowed(queue, fr) > 0) return true;
  }
  return false;
}

bool QuotaBook::BorrowingIn(int queue,
                            std::span<const QuotaAmount> amounts) const {
  for (const QuotaAmount& a : amounts) {
    if (Borrowed(queue, a.flavor_resource) > 0) return true;
  }
  return false;
}

int64_t QuotaBook::Available(int queue, int fr) const {
  const Slot& s = slot(queue, fr);
  if (!s.defined) return 0;
  const int cohort = cohort_of_[queue];
  if (cohort < 0) return std::max<int64_t>(0, s.nominal - s.usage);
  int64_t limit = kUnlimited;
  if (s.borrowing_limit != kUnlimited) {
    limit = s.nominal + s.borrowing_limit - s.usage;
  }
  const CohortSlot& h = cohort_slot(cohort, fr);
  // Its own guaranteed part left, plus what the cohort can still lend.
  const int64_t own = std::max<int64_t>(0, s.guaranteed() - s.usage);
  const int64_t pool = std::max<int64_t>(0, h.capacity - h.usage);
  return std::max<int64_t>(0, std::min(limit, own + pool));
}

}  // namespace gpushare
