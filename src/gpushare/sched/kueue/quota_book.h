// QuotaBook: what each ClusterQueue has reserved of each (flavor, resource)
// and what it may still take, with Kueue's cohort arithmetic (docs/model.md
// §4.3, Kueue's "Cluster Queue" concept and KEP-1224 lending limits).
//
// Contract: quota slots are (ClusterQueue, flavor, resource) triples a
// ClusterQueue defines. For a slot with nominal quota N, borrowing limit B
// (none: unbounded) and lending limit L (none: N), the queue keeps G = N − L
// for itself and lends the rest: its cohort's capacity for a (flavor,
// resource) is Σ L over its members, and the cohort's usage is
// Σ max(0, usage − G). A request q fits a queue's slot when
//   usage + q ≤ N                          (no cohort), or
//   usage + q ≤ N + B  and the increment of max(0, usage − G) fits the
//   cohort's capacity left                  (in a cohort);
// it borrows when usage + q > N. A request naming a (flavor, resource) the
// queue does not define never fits. Usage may exceed what fits (pods
// already running when imported); nothing here throws.

#ifndef GPUSHARE_SCHED_KUEUE_QUOTA_BOOK_H_
#define GPUSHARE_SCHED_KUEUE_QUOTA_BOOK_H_

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gpushare {

// A request or a reservation against one (flavor, resource) pair.
struct QuotaAmount {
  int flavor_resource = -1;  // QuotaBook's dense index of the pair
  int64_t quantity = 0;
  bool operator==(const QuotaAmount&) const = default;
};

class QuotaBook {
 public:
  static constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

  QuotaBook() = default;
  // `cohort_of[q]`: queue q's cohort index, or -1 for none;
  // `flavor_resources`: how many (flavor, resource) pairs there are.
  QuotaBook(std::vector<int> cohort_of, int flavor_resources);

  // Defines queue `queue`'s slot for `flavor_resource` (once per pair).
  void Define(int queue, int flavor_resource, int64_t nominal,
              int64_t borrowing_limit, int64_t lending_limit);

  enum class Fit { kNoFit, kFits, kFitsBorrowing };
  // Whether `request` fits `queue` now; with allow_borrowing false, only
  // within its nominal quota.
  Fit Fits(int queue, std::span<const QuotaAmount> request,
           bool allow_borrowing = true) const;
  // Reserves (sign +1) or releases (-1) `amounts` for `queue`.
  void Add(int queue, std::span<const QuotaAmount> amounts, int sign);

  bool Defines(int queue, int flavor_resource) const {
    return slot(queue, flavor_resource).defined;
  }
  int64_t Usage(int queue, int flavor_resource) const {
    return slot(queue, flavor_resource).usage;
  }
  int64_t Nominal(int queue, int flavor_resource) const {
    return slot(queue, flavor_resource).nominal;
  }
  int64_t BorrowingLimit(int queue, int flavor_resource) const {
    return slot(queue, flavor_resource).borrowing_limit;
  }
  int64_t LendingLimit(int queue, int flavor_resource) const {
    return slot(queue, flavor_resource).lending_limit;
  }
  // Usage above the nominal quota (0 when within it).
  int64_t Borrowed(int queue, int flavor_resource) const;
  // Whether the queue borrows in any slot / in one of `amounts`' slots.
  bool Borrowing(int queue) const;
  bool BorrowingIn(int queue, std::span<const QuotaAmount> amounts) const;
  // The most `queue` could still reserve of the pair now.
  int64_t Available(int queue, int flavor_resource) const;

  int queues() const { return static_cast<int>(cohort_of_.size()); }
  int cohort_of(int queue) const { return cohort_of_[queue]; }

 private:
  struct Slot {
    bool defined = false;
    int64_t nominal = 0;
    int64_t borrowing_limit = kUnlimited;
    int64_t lending_limit = 0;  // min(L, N)
    int64_t usage = 0;
    int64_t guaranteed() const { return nominal - lending_limit; }
    int64_t lent_out() const;  // max(0, usage − guaranteed)
  };
  struct CohortSlot {
    int64_t capacity = 0;  // Σ lending limits
    int64_t usage = 0;     // Σ max(0, usage − guaranteed)
  };
  const Slot& slot(int queue, int fr) const {
    return slots_[static_cast<size_t>(queue) * pairs_ + fr];
  }
  Slot& slot(int queue, int fr) {
    return slots_[static_cast<size_t>(queue) * pairs_ + fr];
  }
  CohortSlot& cohort_slot(int cohort, int fr) {
    return cohort_slots_[static_cast<size_t>(cohort) * pairs_ + fr];
  }
  const CohortSlot& cohort_slot(int cohort, int fr) const {
    return cohort_slots_[static_cast<size_t>(cohort) * pairs_ + fr];
  }

  std::vector<int> cohort_of_;
  int pairs_ = 0;
  std::vector<Slot> slots_;
  std::vector<CohortSlot> cohort_slots_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KUEUE_QUOTA_BOOK_H_
