// The scheduling framework's plugin interfaces, after kube-scheduler's.
//
// Contract: a plugin is one file under sched/plugins/ implementing
// FilterPlugin, ScorePlugin or both, created by name from a scheduler profile
// (sched/plugin_registry.h). For each pod the scheduler calls PreFilter once,
// then Filter on candidate nodes, then — if the plugin is configured as a
// Score plugin and PreScore did not skip it — Score on every feasible node
// (or a score reused under ScoreKey) and Normalize on the collected scores
// — or, for a plugin whose ScoresNormalized(), Score only on the nodes whose
// total could still reach the best one. Scores end in [0, kMaxNodeScore]; the
// scheduler sums weight x score. Plugins read the cluster state and never
// change it; per-pod state computed in PreFilter/PreScore may be kept in the
// plugin (one cycle at a time, single-threaded). Filter and Score sit in the
// per-node hot loop: no allocation there.

#ifndef GPUSHARE_SCHED_FRAMEWORK_H_
#define GPUSHARE_SCHED_FRAMEWORK_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/node.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

// framework.MaxNodeScore.
inline constexpr int64_t kMaxNodeScore = 100;

// Every plugin; a plugin object may implement FilterPlugin, ScorePlugin or
// both (as kube-scheduler's NodeResourcesFit does).
class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string_view Name() const = 0;
};

class FilterPlugin : public virtual Plugin {
 public:

  // True when Filter depends only on the pod's node selector, affinity and
  // tolerations and the node's labels and taints (never on what is running),
  // so the scheduler may cache its result per (constraints, node).
  virtual bool Static() const { return false; }

  virtual void PreFilter(const Pod& /*pod*/) {}

  // Whether `node` passes. When it does not and `reasons` is not null,
  // appends the kube-style reasons ("Insufficient cpu", "node(s) didn't match
  // Pod's node affinity/selector"); the strings must outlive the cycle.
  virtual bool Filter(const Pod& pod, const Node& node,
                      std::vector<std::string_view>* reasons) const = 0;
};

class ScorePlugin : public virtual Plugin {
 public:

  // False to skip scoring this pod (kube's PreScore Skip status): the
  // plugin then contributes 0 to every node. A plugin may also skip a pod
  // whose normalized scores would be equal on every node: adding the same
  // amount to every node's total changes neither the best node nor the ties.
  virtual bool PreScore(const Pod& /*pod*/) { return true; }

  // The raw score of a feasible node.
  virtual int64_t Score(const Pod& pod, const Node& node) const = 0;

  // For the pod PreScore prepared: sets `*key` and returns true when Score
  // depends only on the node's state (Node::version()) and on what `*key`
  // says of the pod exactly — two pods with equal keys get equal scores on a
  // node that did not change — so the scheduler may reuse a node's score.
  // Score must then have no side effects. Default: false (never reused).
  virtual bool ScoreKey(const Pod& /*pod*/, uint64_t* /*key*/) const {
    return false;
  }

  // Called before the first cycle that sees `nodes`, and again after nodes
  // are added or their labels or taints change: lets a plugin summarise the
  // cluster (e.g. to skip pods whose scores would be equal on every node).
  virtual void NodesChanged(const std::vector<Node>& /*nodes*/) {}

  // True when Score already returns 0..kMaxNodeScore and Normalize leaves
  // the scores as they are: the scheduler may then score a node only when
  // its total could still reach the best node's. Default: false.
  virtual bool ScoresNormalized() const { return false; }

  // Maps the raw scores of the feasible nodes to [0, kMaxNodeScore] in place
  // (kube's NormalizeScore). Default: none (Score already returns 0..100).
  virtual void Normalize(std::vector<int64_t>& /*scores*/) const {}
};

// kube-scheduler's helper.DefaultNormalizeScore: scales scores so the highest
// becomes `max_priority`; with `reverse` the result is max - score. All
// zeros stay 0 (or become max_priority when reversed).
void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           std::vector<int64_t>& scores);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_FRAMEWORK_H_
