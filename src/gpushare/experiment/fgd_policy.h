// The six scheduling policies of the FGD paper's experiment, by name.
//
// Contract: CLI names are lowercase (random, dotprod, gpuclustering,
// gpupacking, bestfit, fgd), matched case-insensitively; an unknown name is an
// InputError naming the closest. MakeFgdPolicy() creates the policy's Score
// plugin (sched/plugins/), which is also its Reserve-time GpuSelector; FGD
// reads `measure`, Random draws from `rng`.

#ifndef GPUSHARE_EXPERIMENT_FGD_POLICY_H_
#define GPUSHARE_EXPERIMENT_FGD_POLICY_H_

#include <memory>
#include <string_view>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sched/gpu_fragmentation.h"
#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

enum class FgdPolicy {
  kRandom, kDotProd, kGpuClustering, kGpuPacking, kBestFit, kFgd
};

// The CLI name ("fgd") and the plugin name ("FGD").
std::string_view FgdPolicyName(FgdPolicy policy);
std::string_view FgdPolicyPluginName(FgdPolicy policy);
// All six, in the paper's order.
const std::vector<FgdPolicy>& AllFgdPolicies();
FgdPolicy ParseFgdPolicy(std::string_view name);

std::unique_ptr<OpenGpuSharePolicy> MakeFgdPolicy(
    FgdPolicy policy, ResourceRegistry& registry,
    FragmentationMeasure* measure, Rng rng);

}  // namespace gpushare

#endif  // GPUSHARE_EXPERIMENT_FGD_POLICY_H_
