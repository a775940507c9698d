// FgdScore: the FGD paper's policy, Fragmentation Gradient Descent: place the
// pod where it grows the node's GPU fragmentation least.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/fgd_score.go L38-85, plugin_utils.go sigmoid L75-77;
// Weng et al., USENIX ATC '23): with F the fragmentation measure
// (sched/gpu_fragmentation.h) and n' the node after a hypothetical placement
// (CPU request subtracted too), a placement scores
// int64(sigmoid((F_n(M) - F_n'(M)) / 1000) x 100). A sharing pod tries every
// GPU with enough idle share, in index order, and keeps the first best
// score; any other pod takes the lowest-index free GPUs (or none). A pod
// requesting nothing scores 100. No Normalize. Reserve: the GPU of the best
// score (allocateGpuIdBasedOnFGDScore). F is memoised in the shared
// FragmentationMeasure, which must outlive the plugin.

#ifndef GPUSHARE_SCHED_PLUGINS_FGD_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_FGD_SCORE_H_

#include <utility>

#include "gpushare/sched/gpu_fragmentation.h"
#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class FgdScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "FGD";

  FgdScore(ResourceRegistry& registry, FragmentationMeasure* measure)
      : OpenGpuSharePolicy(registry), measure_(measure) {}

  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod& pod, const Node& node) const override;
  std::vector<int> SelectGpus(const Pod& pod, const Node& node) override;

  // The score and the GPU indexes of the best placement.
  std::pair<int64_t, std::vector<int>> Evaluate(const Pod& pod,
                                                const Node& node) const;

 private:
  FragmentationMeasure* measure_;
  mutable std::vector<int64_t> scratch_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_FGD_SCORE_H_
