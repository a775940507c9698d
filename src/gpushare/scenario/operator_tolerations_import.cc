#include "gpushare/scenario/operator_tolerations_import.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/workload/kubectl_gpu_operator_pods.h"

namespace gpushare {

void ImportPlatformFromKubectl(const YamlMap& top, Scenario* scenario) {
  PlatformSpec& p = scenario->platform;
  if (p.gpu_operator_daemonset_tolerations && p.nfd_worker_tolerations) {
    return;
  }
  std::vector<std::string> files;
  const TraceWorkload& trace = scenario->workload.trace;
  if (trace.pods != nullptr && trace.spec.format == TraceFormat::kKubectl) {
    files.push_back(trace.spec.file);
  }
  if (top.Has("cluster")) {
    const YamlMap cluster = top.Map("cluster", "cluster");
    if (cluster.Has("import")) {
      const YamlMap im = cluster.Map("import", "cluster import");
      if (im.String("format") == "kubectl") {
        const std::string file = im.InputPath("file");
        if (std::find(files.begin(), files.end(), file) == files.end()) {
          files.push_back(file);
        }
      }
    }
  }
  for (const std::string& file : files) {
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
