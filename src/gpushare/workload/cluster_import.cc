#include "gpushare/workload/cluster_import.h"

#include "gpushare/io/input_error.h"
#include "gpushare/workload/kubectl_node_list.h"
#include "gpushare/workload/openb_node_list.h"
#include "gpushare/workload/openb_replay.h"

namespace gpushare {

std::vector<NodePoolSpec> ImportNodePools(const ClusterImportSpec& spec,
                                          const Catalog& catalog,
                                          std::vector<std::string>* notes) {
  std::vector<ImportedNode> nodes =
      spec.format == NodeListFormat::kKubectl
          ? ReadKubectlNodes(spec.file, catalog, notes)
          : OpenbReplayNodes(ReadOpenbNodeList(spec.file, spec.model_map),
                             spec.model_map, catalog);
  if (spec.override_sharing) {
    for (ImportedNode& n : nodes) {
      if (n.gpus == 0) continue;
      n.sharing = spec.sharing;
      try {
        n.sharing.Validate(catalog.Get(n.gpu_model), n.gpus);
      } catch (const InputError& e) {
        throw InputError(spec.file + ": node '" + n.name + "' (" + n.gpu_model +
                         "): sharing: " + e.message());
      }
    }
  }
  return GroupNodePools(nodes, spec.prefix);
}

}  // namespace gpushare
