#include "gpushare/decide/node_search.h"

#include <algorithm>

namespace gpushare {

NodeSearch::NodeSearch(int min_nodes, int max_nodes, int guess)
    : lo_(min_nodes), hi_(max_nodes), max_(max_nodes) {
  if (guess >= 0) {
    next_ = std::clamp(guess, min_nodes, max_nodes);
    step_down_ = true;
  } else {
    next_ = max_nodes;
  }
}

void NodeSearch::Report(bool feasible) {
  ++probes_;
  const int n = next_;
  if (feasible) {
    hi_ = n;
    hi_ok_ = true;
  } else {
    lo_ = n + 1;
    step_down_ = false;
  }
  Advance();
}

void NodeSearch::Advance() {
  if (hi_ok_) {
    if (lo_ >= hi_) {
      done_ = true;
      return;
    }
    if (step_down_) {
      next_ = hi_ - 1;
      step_down_ = false;
      return;
    }
    next_ = lo_ + (hi_ - lo_) / 2;
    return;
  }
  // Nothing feasible yet: the maximum decides.
  if (lo_ > max_) {
    done_ = true;
    return;
  }
  next_ = max_;
}

}  // namespace gpushare
