// FitError: kube-scheduler's message for a pod that fits no node.
//
// Contract: counts each reason over the nodes and renders like kube-
// scheduler's FitError.Error(): "0/3 nodes are available: 1 Insufficient
// cpu, 2 node(s) didn't match Pod's node affinity/selector." — the "count
// reason" strings sorted as strings, joined by ", ", ended by ".". A node
// usually has one of a few reasons: AddReason allocates only for a reason it
// has not seen.

#ifndef GPUSHARE_SCHED_FIT_ERROR_H_
#define GPUSHARE_SCHED_FIT_ERROR_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpushare {

class FitError {
 public:
  explicit FitError(int num_all_nodes) : num_all_nodes_(num_all_nodes) {}

  // `reason` on `nodes` more nodes.
  void AddReason(std::string_view reason, int nodes = 1) {
    for (auto& [r, count] : counts_) {
      if (r == reason) {
        count += nodes;
        return;
      }
    }
    counts_.emplace_back(std::string(reason), nodes);
  }
  // The distinct reasons and their node counts, in first-seen order.
  const std::vector<std::pair<std::string, int>>& counts() const {
    return counts_;
  }
  std::string Message() const;

 private:
  int num_all_nodes_;
  std::vector<std::pair<std::string, int>> counts_;  // distinct reasons
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_FIT_ERROR_H_
