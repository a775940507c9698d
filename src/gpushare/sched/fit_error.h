// FitError: kube-scheduler's message for a pod that fits no node.
//
// Contract: counts each reason over the nodes and renders like kube-
// scheduler's FitError.Error(): "0/3 nodes are available: 1 Insufficient
// cpu, 2 node(s) didn't match Pod's node affinity/selector." — the "count
// reason" strings sorted as strings, joined by ", ", ended by ".".

#ifndef GPUSHARE_SCHED_FIT_ERROR_H_
#define GPUSHARE_SCHED_FIT_ERROR_H_

#include <map>
#include <string>
#include <string_view>

namespace gpushare {

class FitError {
 public:
  explicit FitError(int num_all_nodes) : num_all_nodes_(num_all_nodes) {}

  void AddReason(std::string_view reason) { ++counts_[std::string(reason)]; }
  std::string Message() const;

 private:
  int num_all_nodes_;
  std::map<std::string, int> counts_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_FIT_ERROR_H_
