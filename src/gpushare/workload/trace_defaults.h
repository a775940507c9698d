// TraceDefaults: what imported pods do not say about themselves.
//
// Contract: kubectl pods and trace rows carry resource requests, not needs
// (pod.h PodNeeds); these values stand in for what is missing, and are
// documented and overridable in the scenario (`workload.trace.defaults`,
// docs/scenario.md). `work_s` 0 makes a pod a service that is deleted
// `lifetime_s` after it starts (kubectl pods; openb rows carry their own
// lifetime). `gpu_memory_mib` is the footprint of a pod holding a whole GPU
// when its requests do not tell (a fraction f of a GPU holds f of it);
// `sm_demand` < 0 means "the pod's GPU fraction (1 for whole GPUs)".

#ifndef GPUSHARE_WORKLOAD_TRACE_DEFAULTS_H_
#define GPUSHARE_WORKLOAD_TRACE_DEFAULTS_H_

#include <cstdint>

#include "gpushare/workload/pod.h"

namespace gpushare {

struct TraceDefaults {
  double work_s = 0;
  double lifetime_s = 3600;
  int64_t gpu_memory_mib = 8192;
  double sm_demand = -1;
  double duty = 1.0;
  WorkloadClass workload_class = WorkloadClass::kBatch;

  // sm_demand for a pod of `gpus` GPUs (whole or a fraction).
  double SmDemandFor(double gpus) const {
    if (sm_demand >= 0) return sm_demand;
    return gpus > 0 && gpus < 1 ? gpus : 1.0;
  }
};

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_TRACE_DEFAULTS_H_
