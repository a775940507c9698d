// The KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) a
// scenario's scheduler profile needs when it departs from kube-scheduler's
// defaults (kubernetes.io "Resource Bin Packing"; kubernetes/kubernetes
// types_pluginargs.go NodeResourcesFitArgs).
//
// Contract: NeedsKubeSchedulerConfig() is true when the profile's
// NodeResourcesFit scoring strategy is not the default (LeastAllocated over
// cpu and memory, weight 1 each), percentageOfNodesToScore is fixed, or the
// scenario's back-off is on with other values than kube-scheduler's 1 s and
// 10 s (then `podInitialBackoffSeconds` and `podMaxBackoffSeconds`).
// KubeSchedulerConfigYaml() writes one profile named after the scenario's
// scheduler (`schedulerName`), with `pluginConfig` NodeResourcesFit
// `scoringStrategy` {type, resources [{name, weight}], and for
// RequestedToCapacityRatio `requestedToCapacityRatio.shape` [{utilization,
// score}]}, and `percentageOfNodesToScore` when fixed. The values satisfy
// kube-scheduler's ValidateNodeResourcesFitArgs (weights 1..100, shape
// utilization strictly increasing in 0..100, scores 0..10), which the
// scenario reader already enforces. With `hami_pools` its header says that
// the pods of the scenario's vGPU (HAMi) pools are not scored by it: their
// patches name hami-scheduler, whose scoring is HAMi's
// scheduler.defaultSchedulerPolicy (hami-values.yaml).

#ifndef GPUSHARE_EMIT_KUBE_SCHEDULER_CONFIG_H_
#define GPUSHARE_EMIT_KUBE_SCHEDULER_CONFIG_H_

#include <string>

#include "gpushare/sched/profile.h"

namespace gpushare {

bool NeedsKubeSchedulerConfig(const SchedulerProfile& profile);

std::string KubeSchedulerConfigYaml(const SchedulerProfile& profile,
                                    bool hami_pools);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KUBE_SCHEDULER_CONFIG_H_
