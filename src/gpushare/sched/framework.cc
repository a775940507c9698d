#include "gpushare/sched/framework.h"

#include <algorithm>

#include "gpushare/sched/score_divisor.h"

namespace gpushare {

void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           std::vector<int64_t>& scores) {
  int64_t max_count = 0;
  for (int64_t s : scores) max_count = std::max(max_count, s);
  if (max_count == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
    return;
  }
  const ScoreDivisor divide(max_count);
  for (int64_t& s : scores) {
    s = divide.Divide(max_priority * s);
    if (reverse) s = max_priority - s;
  }
}

}  // namespace gpushare
