// The cloud whose node groups the cluster-autoscaler files describe: AWS
// Auto Scaling groups (ASG tags) or Cluster API MachineDeployments
// (annotations); kAny when the scenario does not say (docs/emit.md,
// "Autoscaled pools").
//
// Contract: plain values. ParseAutoscalerCloud() reads "aws",
// "clusterapi" or "any"; false for anything else. The scenario says nothing
// of its cloud (scenario/platform.h), so `emit autoscaler --cloud` chooses;
// kAny writes both forms.

#ifndef GPUSHARE_EMIT_AUTOSCALER_CLOUD_H_
#define GPUSHARE_EMIT_AUTOSCALER_CLOUD_H_

#include <string_view>

namespace gpushare {

enum class AutoscalerCloud { kAny, kAws, kClusterApi };

inline bool ParseAutoscalerCloud(std::string_view text,
                                 AutoscalerCloud* cloud) {
  if (text == "aws") {
    *cloud = AutoscalerCloud::kAws;
  } else if (text == "clusterapi") {
    *cloud = AutoscalerCloud::kClusterApi;
  } else if (text == "any") {
    *cloud = AutoscalerCloud::kAny;
  } else {
    return false;
  }
  return true;
}

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_AUTOSCALER_CLOUD_H_
