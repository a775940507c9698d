// The NVIDIA GPU Operator's DaemonSet tolerations as a kubectl dump of pods
// shows them (`kubectl get pods -A -o json`, or a List that mixes kinds):
// what the chart's `daemonsets.tolerations` and
// `node-feature-discovery.worker.tolerations` are today, which the emitted
// Helm values keep (docs/emit.md, "gpu-operator-values.yaml").
//
// Contract: GpuOperatorPodTolerationsOf() reads the Pod items of `text` (a
// List, a PodList or one Pod; items of other kinds are skipped, not
// refused) and picks two kinds of daemon pods, each by an ownerReference of
// kind DaemonSet:
//   - the operator's operands: the owner is one of the DaemonSets the
//     operator creates and gives `daemonsets.tolerations`
//     (kGpuOperatorOperandDaemonSets; gpu-operator
//     controllers/object_controls.go preProcessDaemonSet and
//     applyCommonDaemonsetConfig);
//   - node-feature-discovery's worker: the owner's name ends in
//     `node-feature-discovery-worker` (the NFD chart names it
//     `<fullname>-worker`, templates/worker.yaml and _helpers.tpl).
// Only pods in `namespace_name` count; when it is empty, those in the
// namespace of the first operand pod of the dump (else of the first NFD
// worker pod). Each list is the union, in dump order and without exact
// repeats, of its pods' spec.tolerations less those the DaemonSet
// controller adds to every daemon pod itself (kubernetes
// pkg/controller/daemon/util/daemonset_util.go
// AddOrUpdateDaemonPodTolerations: not-ready and unreachable NoExecute,
// disk-, memory-, pid-pressure, unschedulable and network-unavailable
// NoSchedule, each operator Exists); nullopt when no such pod is found.
// tolerationSeconds is not kept (the toleration then lasts). `*_from` says,
// for a header comment, which DaemonSets and namespace the list came from.
// JSON and field errors are InputErrors at FILE:LINE:COL as the other
// kubectl readers make them.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_GPU_OPERATOR_PODS_H_
#define GPUSHARE_WORKLOAD_KUBECTL_GPU_OPERATOR_PODS_H_

#include <optional>
#include <string>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare {

// The DaemonSets the GPU Operator creates from its assets, each given the
// ClusterPolicy's spec.daemonsets.tolerations (gpu-operator
// controllers/object_controls.go, the transformations of
// preProcessDaemonSet), null-terminated.
extern const char* const kGpuOperatorOperandDaemonSets[];

struct GpuOperatorPodTolerations {
  std::string namespace_name;  // where the pods were found ("": none)
  std::optional<std::vector<Toleration>> daemonsets;
  std::string daemonsets_from;
  std::optional<std::vector<Toleration>> nfd_worker;
  std::string nfd_worker_from;
};

// Whether `text` may hold such pods: it names an operand DaemonSet or an
// NFD worker (a cheap test before the JSON is parsed).
bool MayHoldGpuOperatorPods(const std::string& text);

GpuOperatorPodTolerations GpuOperatorPodTolerationsOf(
    const std::string& file, const std::string& text,
    const std::string& namespace_name);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_GPU_OPERATOR_PODS_H_
