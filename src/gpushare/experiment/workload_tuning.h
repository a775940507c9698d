// The arrival order of the FGD paper's experiment: shuffle, then inflate.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/simulator.go SortClusterPods L843-852,
// TunePodsByNodeTotalResource L1067-1099, tuneUpPods L1121-1139,
// tuneDownPods L1105-1119). Returns indexes into `pods`, one per arrival:
//   1. the pods sorted by name, then shuffled (Fisher-Yates from the back,
//      j uniform in [0, i]) with `rng`;
//   2. target = `inflate` x `cluster_gpu_milli`. inflate <= 0, or a total
//      request equal to the target: no change. Below the target, pods drawn
//      uniformly with replacement from the shuffled list are appended as
//      clones while the running total plus the drawn pod's *per-GPU* share
//      stays within the target (the artifact's quirk: the stop test uses
//      gpu_milli, the total adds num_gpu x gpu_milli). Above it, uniformly
//      drawn pods are removed (order kept) until the total is within it.
// The same `rng` state continues for the caller's later draws.

#ifndef GPUSHARE_EXPERIMENT_WORKLOAD_TUNING_H_
#define GPUSHARE_EXPERIMENT_WORKLOAD_TUNING_H_

#include <cstdint>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/workload/openb_pod_list.h"

namespace gpushare {

std::vector<int> TunedArrivalOrder(const std::vector<OpenbPod>& pods,
                                   double inflate, int64_t cluster_gpu_milli,
                                   Rng& rng);

}  // namespace gpushare

#endif  // GPUSHARE_EXPERIMENT_WORKLOAD_TUNING_H_
