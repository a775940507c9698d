// How the emitted commands find a node pool's nodes in the real cluster.
//
// Contract: PoolNodeSetOf() says how a pool of the scenario is addressed:
// an imported pool (NodePoolSpec::members) by its nodes' own names — those
// of its first `nodes` members, the nodes the cluster has today (a pool a
// plan grew has more nodes than members: the rest are nodes to provision,
// counted in `to_provision`) — and a written pool by a label selector: its
// `match_labels`, or gpushare.io/node-pool=<pool> when it has none (the
// simulator's node names, `<pool>-<i>`, are not the cluster's).
// SelectorText() writes a selector as kubectl's -l takes it ("k=v,k2=v2",
// keys in order). NodeArguments() is the node part of a kubectl command as
// shell words: "node 'a' 'b'" for named nodes, "nodes -l 'k=v'" for a
// selector. LabelCommandComments() writes, as YAML comment lines, the
// command that sets `label` ("key=value") on the pool's nodes, every name
// and label a shell word (emit/quoting.h) kept on its comment line.

#ifndef GPUSHARE_EMIT_POOL_NODE_SET_H_
#define GPUSHARE_EMIT_POOL_NODE_SET_H_

#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"

namespace gpushare {

struct PoolNodeSet {
  std::string pool;
  std::vector<std::string> names;  // imported pools: the nodes' own names
  Labels selector;                 // written pools: the labels that select
  int nodes = 0;                   // the pool's node count in the scenario
  int to_provision = 0;            // imported pools: nodes beyond members
  bool by_name() const { return selector.empty(); }
};

PoolNodeSet PoolNodeSetOf(const NodePoolSpec& pool);

std::string SelectorText(const Labels& selector);

std::string NodeArguments(const PoolNodeSet& set);

std::string LabelCommandComments(const PoolNodeSet& set,
                                 const std::string& label);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_POOL_NODE_SET_H_
