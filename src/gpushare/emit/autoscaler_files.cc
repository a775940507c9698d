// The autoscaled pools' files (emit/autoscaler_files.h).

#include "gpushare/emit/autoscaler_files.h"

#include <fmt/format.h>

#include "gpushare/emit/cluster_autoscaler_node_groups.h"
#include "gpushare/emit/cluster_autoscaler_values.h"
#include "gpushare/emit/node_group_template.h"
#include "gpushare/io/input_error.h"

namespace gpushare {

std::vector<EmittedFile> AutoscalerFiles(const Scenario& scenario,
                                         const Catalog& catalog,
                                         const AutoscalerEmitOptions& options) {
  std::vector<EmittedFile> files;
  if (!AutoscaledPools(scenario, AutoscalerProvider::kClusterAutoscaler)
           .empty()) {
    files.push_back({"cluster-autoscaler-values.yaml",
                     ClusterAutoscalerValuesYaml(scenario, options.cloud)});
    if (options.cloud != AutoscalerCloud::kClusterApi) {
      files.push_back(
          {"cluster-autoscaler-asg-tags.yaml", AsgTagsYaml(scenario, catalog)});
    }
    if (options.cloud != AutoscalerCloud::kAws) {
      files.push_back({"cluster-autoscaler-machinedeployments.sh",
                       MachineDeploymentAnnotationsScript(scenario, catalog)});
    }
  }
  if (!AutoscaledPools(scenario, AutoscalerProvider::kKarpenter).empty()) {
    files.push_back(
        {"karpenter-nodepools.yaml",
         KarpenterNodePoolsYaml(scenario, catalog, options.node_class)});
    std::string overlays = KarpenterNodeOverlaysYaml(scenario, catalog);
    if (!overlays.empty()) {
      files.push_back({"karpenter-node-overlays.yaml", std::move(overlays)});
    }
  }
  if (files.empty()) {
    throw InputError(fmt::format(
        "scenario '{}' has no autoscaled pool with GPUs (a pool's "
        "autoscaling.provider: cluster-autoscaler or karpenter): there is "
        "no autoscaler configuration to write",
        scenario.name));
  }
  return files;
}

std::string BundleText(const std::vector<EmittedFile>& files) {
  if (files.size() == 1) return files[0].text;
  std::string out;
  for (const EmittedFile& f : files) {
    out += "# ==== file: " + f.path + " ====\n" + f.text;
  }
  return out;
}

}  // namespace gpushare
