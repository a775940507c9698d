// The scheduling framework's plugin interfaces, after kube-scheduler's.
//
// Contract: a plugin is one file under sched/plugins/ implementing
// FilterPlugin, ScorePlugin or both, created by name from a scheduler profile
// (sched/plugin_registry.h). For each pod the scheduler calls PreFilter once,
// then Filter on candidate nodes, then — if the plugin is configured as a
// Score plugin and PreScore did not skip it — Score on every feasible node and
// Normalize on the collected scores. Scores end in [0, kMaxNodeScore]; the
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
  // plugin then contributes 0 to every node.
  virtual bool PreScore(const Pod& /*pod*/) { return true; }

  // The raw score of a feasible node.
  virtual int64_t Score(const Pod& pod, const Node& node) const = 0;

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
