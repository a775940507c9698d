#include "gpushare/scenario/operator_tolerations_import.h"

#include <string>
#include <vector>

#include "gpushare/scenario/platform_import.h"
#include "gpushare/workload/kubectl_gpu_operator_pods.h"

namespace gpushare {

void ImportPlatformFromKubectl(const YamlMap& top, Scenario* scenario) {
  PlatformSpec& p = scenario->platform;
  if (p.gpu_operator_daemonset_tolerations && p.nfd_worker_tolerations) {
    return;
  }
  for (const auto& [written, file] :
       ScenarioKubectlFiles(top, scenario->workload)) {
    const std::string text = ReadInputFile(file);
    if (!MayHoldGpuOperatorPods(text)) continue;
    const GpuOperatorPodTolerations found = GpuOperatorPodTolerationsOf(
        file, text, p.gpu_operator.namespace_name);
    if (found.namespace_name.empty()) continue;
    if (!p.gpu_operator_daemonset_tolerations && found.daemonsets) {
      p.gpu_operator_daemonset_tolerations = found.daemonsets;
      p.gpu_operator_daemonset_tolerations_from = found.daemonsets_from;
    }
    if (!p.nfd_worker_tolerations && found.nfd_worker) {
      p.nfd_worker_tolerations = found.nfd_worker;
      p.nfd_worker_tolerations_from = found.nfd_worker_from;
    }
    return;
  }
}

}  // namespace gpushare
