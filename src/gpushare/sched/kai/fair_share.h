// KAI-Scheduler's fair share of a queue tree (docs/fairness/README.md,
// docs/model.md §4.4): at each level the parent's share is divided among
// its children in two phases. First each child gets its deserved quota, as
// far as it requests it, whatever its priority. Then what is left goes to
// the children by queue priority, highest first; within one priority it is
// water-filled in proportion to the over-quota weights, no child getting
// more than it requests (capped by its limit). Each child's share is then
// divided among its own children the same way.
//
// Contract: `queues` lists every queue once with its parent's index (or -1)
// and its subtree's request; ComputeFairShares returns each queue's fair
// share of `total`. A share never exceeds the queue's capped request; the
// shares of siblings never sum above their parent's. Deterministic.

#ifndef GPUSHARE_SCHED_KAI_FAIR_SHARE_H_
#define GPUSHARE_SCHED_KAI_FAIR_SHARE_H_

#include <vector>

namespace gpushare {

struct FairShareQueue {
  int parent = -1;
  int priority = 0;
  double quota = 0;    // deserved; < 0 unlimited
  double weight = 1;   // over-quota weight, ≥ 0
  double limit = -1;   // < 0 none
  double request = 0;  // of the subtree: allocated plus pending
};

std::vector<double> ComputeFairShares(const std::vector<FairShareQueue>& queues,
                                      double total);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KAI_FAIR_SHARE_H_
