#include "gpushare/emit/pool_node_names.h"

#include <fmt/format.h>

#include "gpushare/cluster/cluster.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {

std::map<std::string, std::vector<std::string>> PoolNodeNames(
    const Scenario& scenario, const Catalog& catalog) {
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  std::map<std::string, std::vector<std::string>> names;
  for (const NodePool& pool : cluster.pools()) {
    std::vector<std::string>& list = names[pool.spec.name];
    for (int n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      list.push_back(cluster.nodes()[n].name());
    }
  }
  return names;
}

std::string LabelCommandComments(const std::vector<std::string>& nodes,
                                 const std::string& label) {
  std::string out;
  for (const std::string& node : nodes) {
    out += fmt::format("#      kubectl label node {} {} --overwrite\n",
                       CommentText(ShellWord(node)),
                       CommentText(ShellWord(label)));
  }
  return out;
}

}  // namespace gpushare
