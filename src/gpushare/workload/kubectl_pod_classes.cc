#include "gpushare/workload/kubectl_pod_classes.h"

#include <algorithm>
#include <initializer_list>

#include "gpushare/workload/namespace_pattern.h"

namespace gpushare {
namespace {

bool KindIsOneOf(std::string_view kind,
                 std::initializer_list<std::string_view> kinds) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// The value of `key` in `labels`, "" when absent.
std::string PodLabelValue(const Labels& labels, const std::string& key) {
  if (key.empty()) return "";
  auto it = labels.find(key);
  return it == labels.end() ? "" : it->second;
}

}  // namespace

const std::vector<std::string>& DefaultSystemNamespaces() {
  static const std::vector<std::string> names = {
      "kube-system", "kube-public", "kube-node-lease", "gpu-operator",
      "nvidia-gpu-operator"};
  return names;
}

std::string KubectlControllerKind(const JsonValue& metadata) {
  std::string kind;
  for (const JsonValue& ref : metadata.Get("ownerReferences").Items()) {
    if (ref.Get("controller").Missing() || !ref.Get("controller").Bool()) {
      continue;
    }
    const std::string k = ref.Get("kind").String();
    if (k.empty()) ref.Get("kind").Fail("an owner reference needs a kind");
    if (!kind.empty()) {
      ref.Get("controller")
          .Fail("a pod has at most one controller; this one (" + k +
                ") follows " + kind);
    }
    kind = k;
  }
  return kind;
}

bool IsLongRunningController(std::string_view kind) {
  return KindIsOneOf(kind, {"ReplicaSet", "StatefulSet", "DaemonSet",
                            "ReplicationController", "Deployment"});
}

bool InferWorkloadClass(std::string_view controller_kind, const Labels& labels,
                        double gpus, WorkloadClass* out) {
  if (labels.count("notebook-name") > 0 ||
      PodLabelValue(labels, "component") == "singleuser-server") {
    *out = WorkloadClass::kDev;
  } else if (KindIsOneOf(controller_kind,
                         {"PyTorchJob", "TFJob", "MPIJob", "XGBoostJob",
                          "PaddleJob", "JAXJob"})) {
    *out = WorkloadClass::kTraining;
  } else if (KindIsOneOf(controller_kind, {"Job", "Workflow"})) {
    *out = gpus >= 1 ? WorkloadClass::kTraining : WorkloadClass::kBatch;
  } else if (IsLongRunningController(controller_kind)) {
    *out = WorkloadClass::kInference;
  } else {
    return false;
  }
  return true;
}

void ClassifyKubectlPod(const JsonValue& metadata, const Labels& labels,
                        const KubectlClassRules& rules,
                        const TraceDefaults& defaults, Pod* pod) {
  const std::string& ns = pod->namespace_name;
  pod->tenant = ns;
  pod->in_system_namespace = std::any_of(
      rules.system_namespaces.begin(), rules.system_namespaces.end(),
      [&](const std::string& p) { return MatchesNamespace(p, ns); });
  const std::string tenant_class =
      PodLabelValue(labels, rules.tenant_class_label);
  pod->tenant_class = pod->in_system_namespace ? kSystemTenantClass
                      : tenant_class.empty()   ? ns
                                               : tenant_class;

  const std::string controller =
      rules.infer_workload_class ? KubectlControllerKind(metadata) : "";
  const std::string labelled =
      PodLabelValue(labels, rules.workload_class_label);
  const int by_namespace = MostSpecificMatch(
      rules.workload_classes.size(),
      [&](size_t i) -> std::string_view {
        return rules.workload_classes[i].first;
      },
      ns);
  if (!labelled.empty()) {
    if (!ParseWorkloadClass(labelled, &pod->workload_class)) {
      metadata.Get("labels")
          .Get(rules.workload_class_label)
          .Fail(
              "expected a workload class (training, inference, batch or "
              "dev), got '" +
              labelled + "'");
    }
  } else if (by_namespace >= 0) {
    pod->workload_class = rules.workload_classes[by_namespace].second;
  } else if (!rules.infer_workload_class ||
             !InferWorkloadClass(controller, labels, pod->needs.gpus,
                                 &pod->workload_class)) {
    pod->workload_class = defaults.workload_class;
  }
  if (IsLongRunningController(controller) && pod->needs.work_s > 0) {
    pod->needs.work_s = 0;
    pod->needs.lifetime_s = defaults.lifetime_s;
  }
}

}  // namespace gpushare
