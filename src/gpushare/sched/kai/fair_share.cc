#include "gpushare/sched/kai/fair_share.h"

#include <algorithm>
#include <cstddef>

namespace gpushare {
namespace {

constexpr double kFairShareEpsilon = 1e-9;

// Divides `amount` among `children` (indexes into queues), adding to share.
void Divide(const std::vector<FairShareQueue>& queues,
            const std::vector<int>& children, double amount,
            std::vector<double>* share) {
  // Children by priority, highest first; index breaks ties.
  std::vector<int> order = children;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return queues[a].priority > queues[b].priority;
  });
  auto wanted = [&](int c) {
    const FairShareQueue& q = queues[c];
    return q.limit >= 0 ? std::min(q.request, q.limit) : q.request;
  };
  double left = amount;
  // Phase 1: deserved quota, as far as requested.
  for (int c : order) {
    const FairShareQueue& q = queues[c];
    const double deserved = q.quota < 0 ? wanted(c) : q.quota;
    const double give = std::max(0.0, std::min({deserved, wanted(c), left}));
    (*share)[c] = give;
    left -= give;
  }
  // Phase 2: over quota, one priority at a time, by weight.
  for (size_t begin = 0; begin < order.size() && left > kFairShareEpsilon;) {
    size_t end = begin;
    while (end < order.size() &&
           queues[order[end]].priority == queues[order[begin]].priority) {
      ++end;
    }
    std::vector<int> active;
    for (size_t i = begin; i < end; ++i) {
      const int c = order[i];
      if (queues[c].weight > 0 && wanted(c) - (*share)[c] > kFairShareEpsilon) {
        active.push_back(c);
      }
    }
    while (!active.empty() && left > kFairShareEpsilon) {
      double weights = 0;
      for (int c : active) weights += queues[c].weight;
      double given = 0;
      std::vector<int> still;
      for (int c : active) {
        const double offer = left * queues[c].weight / weights;
        const double unmet = wanted(c) - (*share)[c];
        const double give = std::min(offer, unmet);
        (*share)[c] += give;
        given += give;
        if (unmet - give > kFairShareEpsilon) still.push_back(c);
      }
      left -= given;
      // Everyone capped gives the rest to those still short; when none was
      // capped the whole amount went out.
      if (still.size() == active.size()) break;
      active = std::move(still);
    }
    begin = end;
  }
}

}  // namespace

std::vector<double> ComputeFairShares(const std::vector<FairShareQueue>& queues,
                                      double total) {
  const int n = static_cast<int>(queues.size());
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {
    if (queues[i].parent < 0) {
      roots.push_back(i);
    } else {
      children[queues[i].parent].push_back(i);
    }
  }
  std::vector<double> share(n, 0.0);
  Divide(queues, roots, total, &share);
  // Breadth first: a parent's share is known before its children divide it.
  std::vector<int> frontier = roots;
  while (!frontier.empty()) {
    std::vector<int> next;
    for (int p : frontier) {
      if (children[p].empty()) continue;
      Divide(queues, children[p], share[p], &share);
      next.insert(next.end(), children[p].begin(), children[p].end());
    }
    frontier = std::move(next);
  }
  return share;
}

}  // namespace gpushare
