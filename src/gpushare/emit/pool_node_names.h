// The node names of a scenario's pools, as the simulator names them.
//
// Contract: PoolNodeNames() builds the scenario's cluster (Cluster::AddPool,
// so names are `<pool>-<i>` or an imported node's own) and returns, per pool
// name, its nodes' names in node order. Throws InputError as AddPool does.
// LabelCommandComments() writes, as YAML comment lines, the command that
// sets `label` ("key=value") on each of `nodes`, node and label as shell
// words (emit/quoting.h ShellWord) kept on their comment line (CommentText).

#ifndef GPUSHARE_EMIT_POOL_NODE_NAMES_H_
#define GPUSHARE_EMIT_POOL_NODE_NAMES_H_

#include <map>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::map<std::string, std::vector<std::string>> PoolNodeNames(
    const Scenario& scenario, const Catalog& catalog);

// "#      kubectl label node NODE LABEL --overwrite\n" per node.
std::string LabelCommandComments(const std::vector<std::string>& nodes,
                                 const std::string& label);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_POOL_NODE_NAMES_H_
