// The tenant class and workload class of a pod read from `kubectl get pods
// -A -o json` (kubectl_pod_list.h), and what its controller says about how
// long it runs (docs/scenario.md "kubectl pods", docs/model.md §3.1).
//
// Contract: ClassifyKubectlPod() sets the pod's tenant (its namespace), its
// tenant class and its workload class from KubectlClassRules:
//   tenant class    "system" for a pod in a namespace `system_namespaces`
//                   covers (namespace patterns: workload/namespace_pattern.h;
//                   its in_system_namespace set); else the value of
//                   `tenant_class_label` when the pod has it non-empty; else
//                   the namespace.
//   workload class  the first that applies: (a) the value of
//                   `workload_class_label` when the pod has it non-empty
//                   (training, inference, batch or dev; anything else is an
//                   InputError at that label's JSON path); (b) the
//                   entry of `workload_classes` whose namespace pattern
//                   covers the namespace, the most specific (exact name,
//                   else most literal characters, else first listed); (c) when
//                   `infer_workload_class`, InferWorkloadClass() on the
//                   pod's labels, controller and GPUs; (d) the defaults'
//                   workload_class.
// When `infer_workload_class` is set, a pod whose controller runs its pods
// until they are deleted (IsLongRunningController) is a service whatever
// the defaults' work_s: work 0, deleted the defaults' lifetime_s after it
// starts. The controller is the metadata.ownerReferences entry with
// `controller: true`; a reference without a kind, or a second controller,
// is an InputError at its JSON path. Needs (pod->needs) and the namespace
// must be set before.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_POD_CLASSES_H_
#define GPUSHARE_WORKLOAD_KUBECTL_POD_CLASSES_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/io/json_value.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/trace_defaults.h"

namespace gpushare {

// The tenant class of every pod of a system namespace.
inline constexpr const char* kSystemTenantClass = "system";

// kube-system, kube-public, kube-node-lease (Kubernetes' own), gpu-operator
// and nvidia-gpu-operator (the NVIDIA GPU Operator's namespace with Helm and
// on OpenShift).
const std::vector<std::string>& DefaultSystemNamespaces();

struct KubectlClassRules {
  std::string tenant_class_label;                         // "" : the namespace
  std::string workload_class_label;                       // "" : none
  // Namespace pattern → workload class, in the order written.
  std::vector<std::pair<std::string, WorkloadClass>> workload_classes;
  bool infer_workload_class = true;
  // Namespace patterns.
  std::vector<std::string> system_namespaces = DefaultSystemNamespaces();
};

// The kind of the pod's controller ("" when it has none); see above.
std::string KubectlControllerKind(const JsonValue& metadata);

// ReplicaSet (a Deployment's pods), StatefulSet, DaemonSet,
// ReplicationController and Deployment: their pods run until deleted.
bool IsLongRunningController(std::string_view kind);

// Rule (c), the first that applies: a notebook server (label notebook-name,
// set by Kubeflow's notebook controller, or component=singleuser-server,
// JupyterHub's) is dev; a pod of a Kubeflow training job (PyTorchJob,
// TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob) is training; a pod of a Job
// or an Argo Workflow is training when it holds at least one whole GPU
// (`gpus` >= 1), else batch; a pod of a long-running controller is
// inference. False (and `*out` unchanged) when none applies.
bool InferWorkloadClass(std::string_view controller_kind, const Labels& labels,
                        double gpus, WorkloadClass* out);

// Sets pod->tenant, tenant_class, in_system_namespace and workload_class,
// and makes pods of long-running controllers services (see above).
// `metadata` is the pod's, for the controller and for errors.
void ClassifyKubectlPod(const JsonValue& metadata, const Labels& labels,
                        const KubectlClassRules& rules,
                        const TraceDefaults& defaults, Pod* pod);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_POD_CLASSES_H_
