// Fuzz target `kubectl_nodes`: `kubectl get nodes -o json`, read and grouped
// into node pools as cluster.import does.

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/kubectl_node_list.h"

GS_FUZZ_TARGET(kubectl_nodes) {
  static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
  const auto nodes = gpushare::ParseKubectlNodes("nodes.json", data, catalog);
  gpushare::GroupNodePools(nodes, "imported");
}
