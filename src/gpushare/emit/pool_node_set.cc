#include "gpushare/emit/pool_node_set.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/emit/quoting.h"

namespace gpushare {

PoolNodeSet PoolNodeSetOf(const NodePoolSpec& pool) {
  PoolNodeSet set;
  set.pool = pool.name;
  set.nodes = pool.nodes;
  if (!pool.members.empty()) {
    const int named =
        std::min<int>(pool.nodes, static_cast<int>(pool.members.size()));
    for (int i = 0; i < named; ++i) set.names.push_back(pool.members[i].name);
    set.to_provision = pool.nodes - named;
    return set;
  }
  set.selector = pool.match_labels;
  if (set.selector.empty()) set.selector[kNodePoolLabel] = pool.name;
  return set;
}

std::string SelectorText(const Labels& selector) {
  std::string text;
  for (const auto& [k, v] : selector) {
    text += (text.empty() ? "" : ",") + k + "=" + v;
  }
  return text;
}

std::string NodeArguments(const PoolNodeSet& set) {
  if (!set.by_name()) {
    return "nodes -l " + ShellWord(SelectorText(set.selector));
  }
  std::string out = "node";
  for (const std::string& name : set.names) out += " " + ShellWord(name);
  return out;
}

std::string LabelCommandComments(const PoolNodeSet& set,
                                 const std::string& label) {
  if (!set.by_name()) {
    return fmt::format("#      kubectl label {} {} --overwrite\n",
                       CommentText(NodeArguments(set)),
                       CommentText(ShellWord(label)));
  }
  std::string out;
  for (const std::string& name : set.names) {
    out += fmt::format("#      kubectl label node {} {} --overwrite\n",
                       CommentText(ShellWord(name)),
                       CommentText(ShellWord(label)));
  }
  return out;
}

}  // namespace gpushare
