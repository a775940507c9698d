// Reader of the class settings of a kubectl trace (`workload.trace`,
// docs/scenario.md "workload.trace"): how imported pods get their workload
// class and which namespaces are the system's.
//
// Contract: ReadKubectlClassSettings() reads `workload_class_label` (a label
// key), `workload_classes` (a mapping of namespace names to training,
// inference, batch or dev), `infer_workload_class` (a bool) and
// `system_namespaces` (a list of namespace names; [] for none) from the
// trace mapping into `rules`, leaving what is not given as it is. A bad
// value is an InputError at file:line:col naming the key and what was
// expected. tenant_class_label is read with the trace's other keys.

#ifndef GPUSHARE_SCENARIO_KUBECTL_CLASS_READER_H_
#define GPUSHARE_SCENARIO_KUBECTL_CLASS_READER_H_

#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/kubectl_pod_classes.h"

namespace gpushare {

void ReadKubectlClassSettings(const YamlMap& trace, KubectlClassRules* rules);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_KUBECTL_CLASS_READER_H_
