#include "gpushare/experiment/fgd_policy.h"

#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/sched/plugins/best_fit_score.h"
#include "gpushare/sched/plugins/dot_product_score.h"
#include "gpushare/sched/plugins/fgd_score.h"
#include "gpushare/sched/plugins/gpu_clustering_score.h"
#include "gpushare/sched/plugins/gpu_packing_score.h"
#include "gpushare/sched/plugins/random_score.h"

namespace gpushare {

std::string_view FgdPolicyName(FgdPolicy policy) {
  switch (policy) {
    case FgdPolicy::kRandom: return "random";
    case FgdPolicy::kDotProd: return "dotprod";
    case FgdPolicy::kGpuClustering: return "gpuclustering";
    case FgdPolicy::kGpuPacking: return "gpupacking";
    case FgdPolicy::kBestFit: return "bestfit";
    case FgdPolicy::kFgd: return "fgd";
  }
  return "";
}

std::string_view FgdPolicyPluginName(FgdPolicy policy) {
  switch (policy) {
    case FgdPolicy::kRandom: return RandomScore::kName;
    case FgdPolicy::kDotProd: return DotProductScore::kName;
    case FgdPolicy::kGpuClustering: return GpuClusteringScore::kName;
    case FgdPolicy::kGpuPacking: return GpuPackingScore::kName;
    case FgdPolicy::kBestFit: return BestFitScore::kName;
    case FgdPolicy::kFgd: return FgdScore::kName;
  }
  return "";
}

const std::vector<FgdPolicy>& AllFgdPolicies() {
  static const std::vector<FgdPolicy> all = {
      FgdPolicy::kRandom,     FgdPolicy::kDotProd, FgdPolicy::kGpuClustering,
      FgdPolicy::kGpuPacking, FgdPolicy::kBestFit, FgdPolicy::kFgd};
  return all;
}

FgdPolicy ParseFgdPolicy(std::string_view name) {
  std::vector<std::string> names;
  for (const FgdPolicy p : AllFgdPolicies()) {
    if (EditDistance(name, FgdPolicyName(p)) == 0) return p;
    names.emplace_back(FgdPolicyName(p));
  }
  throw InputError("unknown policy '" + std::string(name) + "' (policies: " +
                   JoinNames(names) + ")" + DidYouMean(name, names, 1));
}

std::unique_ptr<OpenGpuSharePolicy> MakeFgdPolicy(
    FgdPolicy policy, ResourceRegistry& registry,
    FragmentationMeasure* measure, Rng rng) {
  switch (policy) {
    case FgdPolicy::kRandom:
      return std::make_unique<RandomScore>(registry, rng);
    case FgdPolicy::kDotProd:
      return std::make_unique<DotProductScore>(registry);
    case FgdPolicy::kGpuClustering:
      return std::make_unique<GpuClusteringScore>(registry);
    case FgdPolicy::kGpuPacking:
      return std::make_unique<GpuPackingScore>(registry);
    case FgdPolicy::kBestFit:
      return std::make_unique<BestFitScore>(registry);
    case FgdPolicy::kFgd:
      return std::make_unique<FgdScore>(registry, measure);
  }
  return nullptr;
}

}  // namespace gpushare
