// RandomScore: the FGD paper's Random policy.
//
// Contract (plugin/random_score.go L42-68; open_gpu_share.go
// allocateGpuIdBasedOnRandomFit L308-326): PreScore/Score give every node 0;
// Normalize draws one of the feasible nodes uniformly with the plugin's
// seeded Rng and gives it kMaxNodeScore (the artifact draws it in PreScore;
// the outcome is the same). Reserve: a sharing pod gets a GPU drawn
// uniformly among those with enough idle share (reservoir sampling in index
// order); whole-GPU pods the lowest-index free GPUs.

#ifndef GPUSHARE_SCHED_PLUGINS_RANDOM_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_RANDOM_SCORE_H_

#include "gpushare/base/rng.h"
#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class RandomScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "Random";

  RandomScore(ResourceRegistry& registry, Rng rng)
      : OpenGpuSharePolicy(registry), rng_(rng) {}

  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod&, const Node&) const override { return 0; }
  void Normalize(std::vector<int64_t>& scores) const override;
  std::vector<int> SelectGpus(const Pod& pod, const Node& node) override;

 private:
  // Normalize is const in the framework; the draw advances the stream.
  mutable Rng rng_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_RANDOM_SCORE_H_
