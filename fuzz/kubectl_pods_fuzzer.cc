// Fuzz target `kubectl_pods`: `kubectl get pods -A -o json` as a workload.

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/kubectl_pod_list.h"

GS_FUZZ_TARGET(kubectl_pods) {
  static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
  gpushare::KubectlPodOptions options;
  options.classes.tenant_class_label = data.size() % 2 ? "team" : "";
  options.classes.workload_class_label = data.size() % 3 ? "class" : "";
  gpushare::ParseKubectlPods("pods.json", data, catalog, options);
}
