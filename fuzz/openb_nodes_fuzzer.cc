// Fuzz target `openb_nodes`: an openb node list (CSV, the Alibaba trace).

#include "fuzz/fuzz_target.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/openb_node_list.h"

GS_FUZZ_TARGET(openb_nodes) {
  static const gpushare::GpuModelMap models = gpushare::GpuModelMap::Default();
  gpushare::ParseOpenbNodeList("nodes.csv", data, models);
}
