// NodeAffinity: kube-scheduler's node selector and node affinity plugin
// (kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeaffinity;
// a default plugin, pkg/scheduler/apis/config/v1/default_plugins.go).
//
// Contract: Filter passes a node when every nodeSelector key=value is among
// its labels and, if the pod has required affinity terms, at least one term
// matches (terms ORed, a term's expressions ANDed, an empty term matching
// nothing; workload/pod.h Matches). Otherwise the reason is "node(s) didn't
// match Pod's node affinity/selector". Filter reads only labels, so it is
// Static(). Score is the sum of the weights of the preferred terms the node
// matches; Normalize scales the highest to kMaxNodeScore
// (DefaultNormalizeScore, not reversed). PreScore skips pods without
// preferred terms. Stateless.

#ifndef GPUSHARE_SCHED_PLUGINS_NODE_AFFINITY_H_
#define GPUSHARE_SCHED_PLUGINS_NODE_AFFINITY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpushare/cluster/node.h"
#include "gpushare/sched/framework.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class NodeAffinity : public FilterPlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeAffinity";
  static constexpr std::string_view kReason =
      "node(s) didn't match Pod's node affinity/selector";

  std::string_view Name() const override { return kName; }

  bool Static() const override { return true; }
  bool Filter(const Pod& pod, const Node& node,
              std::vector<std::string_view>* reasons) const override;

  bool PreScore(const Pod& pod) override;
  int64_t Score(const Pod& pod, const Node& node) const override;
  void Normalize(std::vector<int64_t>& scores) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_NODE_AFFINITY_H_
