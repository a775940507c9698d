// DotProductScore: the FGD paper's DotProd policy (Tetris-style packing),
// with the paper's settings -dimext merge -norm max.
//
// Contract (plugin/dot_product_score.go L64-100, utils.go
// GenerateSchedulingMatchGroups L1259-1327, resource.go
// ToVirtual*ResourceList): node vector [CPU left, total idle GPU share], pod
// vector [CPU request, num_gpu x gpu_milli], both divided by [128000, 8000];
// dp = (node . pod) / 2 and score = int64(100 x (1 - dp)), so the node whose
// free resources align least with the pod scores highest. A node with less
// CPU left than the request scores 0. Reserve: best fit.

#ifndef GPUSHARE_SCHED_PLUGINS_DOT_PRODUCT_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_DOT_PRODUCT_SCORE_H_

#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class DotProductScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "DotProd";

  using OpenGpuSharePolicy::OpenGpuSharePolicy;
  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod& pod, const Node& node) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_DOT_PRODUCT_SCORE_H_
