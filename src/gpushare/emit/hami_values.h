// HAMi's Helm values for a scenario's vGPU pools, written by
// `gpushare-sim emit hami --scenario FILE` (chart Project-HAMi/HAMi
// charts/hami, 2.10.0: charts/hami/values.yaml).
//
// Contract: HamiValuesYaml() is a values file for `helm upgrade --install hami
// hami-charts/hami -n kube-system -f FILE`: the first HAMi pool's settings as
// the chart-wide ones (`devicePlugin.deviceSplitCount`,
// `deviceMemoryScaling`, `deviceCoreScaling`,
// `scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy` /
// `gpuSchedulerPolicy`, `devicePlugin.nvidiaNodeSelector: {gpu: "on"}`);
// nodes of pools whose split count or scaling differ get an entry in the
// device plugin's per-node config (`devicePlugin.nodeConfiguration.config`,
// JSON `{"nodeconfig": [...]}`, operating mode hami-core). Default memory
// and cores are not Helm values: when a pool sets them, the file carries
// `device-config.content` with the scheduler's `nvidia:` section (it
// replaces the chart's device-config.yaml whole; a comment says so). Header
// comments give the install command, the `gpu=on` label of every HAMi node,
// and the pod annotations (`hami.io/node-scheduler-policy`,
// `hami.io/gpu-scheduler-policy`) that pools whose policies differ from the
// chart-wide ones need. Throws InputError when the scenario has no HAMi pool
// or its HAMi pools disagree on default memory or cores (one cluster-wide
// setting). Deterministic.

#ifndef GPUSHARE_EMIT_HAMI_VALUES_H_
#define GPUSHARE_EMIT_HAMI_VALUES_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string HamiValuesYaml(const Scenario& scenario, const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_HAMI_VALUES_H_
