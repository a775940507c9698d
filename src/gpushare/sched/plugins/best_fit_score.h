// BestFitScore: the FGD paper's BestFit policy: the node left with the least
// free resources wins.
//
// Contract (plugin/best_fit_score.go L66-97): s = 0.5 x (CPU left - CPU
// request) / 128000 + 0.5 x (total idle GPU share - num_gpu x gpu_milli) /
// 8000, score = int64(100 x (1 - s)); Normalize maps the feasible nodes'
// scores min-max onto 0..100 in integer arithmetic, all 0 when they are equal
// (plugin_utils.go NormalizeScore L47-73). Reserve: best fit.

#ifndef GPUSHARE_SCHED_PLUGINS_BEST_FIT_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_BEST_FIT_SCORE_H_

#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class BestFitScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "BestFit";

  using OpenGpuSharePolicy::OpenGpuSharePolicy;
  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod& pod, const Node& node) const override;
  void Normalize(std::vector<int64_t>& scores) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_BEST_FIT_SCORE_H_
