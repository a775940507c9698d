// What a kubectl import tells of the cluster's software (docs/scenario.md,
// "platform"): the GPU Operator's DaemonSet tolerations as its pods in the
// dump show them.
//
// Contract: ImportPlatformFromKubectl() looks at the kubectl files the
// scenario reads (scenario/platform_import.h ScenarioKubectlFiles:
// `cluster.import.file`, then `workload.trace.file`, each once) and, for
// each of
// `platform.gpu_operator.daemonsets.tolerations` and
// `platform.gpu_operator.nfd_worker.tolerations` that the scenario does not
// say, sets it from the GPU Operator's pods there
// (workload/kubectl_gpu_operator_pods.h; in `platform.gpu_operator.
// namespace` when given), with where it came from. The first file that
// holds such pods decides. A list no file shows stays unknown. `top` has
// been read (its paths resolve); errors are the kubectl readers'.

#ifndef GPUSHARE_SCENARIO_OPERATOR_TOLERATIONS_IMPORT_H_
#define GPUSHARE_SCENARIO_OPERATOR_TOLERATIONS_IMPORT_H_

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

void ImportPlatformFromKubectl(const YamlMap& top, Scenario* scenario);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_OPERATOR_TOLERATIONS_IMPORT_H_
