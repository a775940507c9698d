#include "gpushare/sched/kueue/kueue_preemption.h"

#include <algorithm>

namespace gpushare {

std::vector<int> MinimalPreemptionSet(
    QuotaBook& book, int preemptor_queue, std::span<const QuotaAmount> request,
    bool allow_borrowing, std::vector<KueuePreemptionCandidate>& candidates) {
  std::vector<int> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // Candidates in Kueue's order, taken lazily from a heap: usually few are
  // needed.
  auto before = [&](int x, int y) {
    const KueuePreemptionCandidate& a = candidates[x];
    const KueuePreemptionCandidate& b = candidates[y];
    if (a.evicting != b.evicting) return a.evicting;
    const bool a_own = a.queue == preemptor_queue;
    const bool b_own = b.queue == preemptor_queue;
    if (a_own != b_own) return !a_own;
    if (a.priority != b.priority) return a.priority < b.priority;
    if (a.admitted_seq != b.admitted_seq) {
      return a.admitted_seq > b.admitted_seq;
    }
    return a.workload < b.workload;
  };
  auto after = [&](int x, int y) { return before(y, x); };
  std::make_heap(order.begin(), order.end(), after);
  std::vector<int> removed;
  bool fits = false;
  while (!order.empty()) {
    std::pop_heap(order.begin(), order.end(), after);
    const int i = order.back();
    order.pop_back();
    const KueuePreemptionCandidate& c = candidates[i];
    if (c.queue != preemptor_queue && !book.BorrowingIn(c.queue, request)) {
      continue;
    }
    book.Add(c.queue, c.usage, -1);
    removed.push_back(i);
    if (book.Fits(preemptor_queue, request, allow_borrowing) !=
        QuotaBook::Fit::kNoFit) {
      fits = true;
      break;
    }
  }
  std::vector<int> victims;
  if (fits) {
    // Put back what is not needed, newest choice first (the last one
    // removed made it fit: it stays).
    victims.push_back(removed.back());
    for (int k = static_cast<int>(removed.size()) - 2; k >= 0; --k) {
      const KueuePreemptionCandidate& c = candidates[removed[k]];
      book.Add(c.queue, c.usage, +1);
      if (book.Fits(preemptor_queue, request, allow_borrowing) ==
          QuotaBook::Fit::kNoFit) {
        book.Add(c.queue, c.usage, -1);
        victims.push_back(removed[k]);
      }
    }
    for (int v : victims) {
      book.Add(candidates[v].queue, candidates[v].usage, +1);
    }
    std::sort(victims.begin(), victims.end());
  } else {
    for (int i : removed) {
      book.Add(candidates[i].queue, candidates[i].usage, +1);
    }
  }
  return victims;
}

}  // namespace gpushare
