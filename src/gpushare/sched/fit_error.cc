#include "gpushare/sched/fit_error.h"

#include <algorithm>
#include <vector>

namespace gpushare {

std::string FitError::Message() const {
  std::string message =
      "0/" + std::to_string(num_all_nodes_) + " nodes are available:";
  std::vector<std::string> reasons;
  for (const auto& [reason, count] : counts_) {
    reasons.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(reasons.begin(), reasons.end());
  if (!reasons.empty()) {
    message += " ";
    for (size_t i = 0; i < reasons.size(); ++i) {
      if (i > 0) message += ", ";
      message += reasons[i];
    }
    message += ".";
  }
  return message;
}

}  // namespace gpushare
