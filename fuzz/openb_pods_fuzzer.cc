// Fuzz target `openb_pods`: an openb pod list (CSV, the Alibaba trace).

#include "fuzz/fuzz_target.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/openb_pod_list.h"

GS_FUZZ_TARGET(openb_pods) {
  static const gpushare::GpuModelMap models = gpushare::GpuModelMap::Default();
  gpushare::ParseOpenbPodList("pods.csv", data, models);
}
