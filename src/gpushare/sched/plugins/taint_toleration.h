// TaintToleration: kube-scheduler's taint and toleration plugin
// (kubernetes/kubernetes pkg/scheduler/framework/plugins/tainttoleration;
// a default plugin, pkg/scheduler/apis/config/v1/default_plugins.go).
//
// Contract: Filter fails a node on its first NoSchedule or NoExecute taint
// that none of the pod's tolerations tolerates (Toleration::Tolerates), with
// kube's reason "node(s) had untolerated taint {key: value}". The reason
// strings are kept in a cache owned by the plugin, one per distinct (key,
// value), and stay valid for its lifetime; a taint's string is built the first
// time it is reported. Filter reads only taints and tolerations, so it is
// Static(). Score counts the node's PreferNoSchedule taints not tolerated by
// a toleration for PreferNoSchedule or for every effect; Normalize reverses
// (DefaultNormalizeScore with reverse), so fewer such taints score higher.
// When no node has a PreferNoSchedule taint every node would score the same,
// so PreScore skips the pod (same choice, less work; NodesChanged keeps
// track). Not thread-safe.

#ifndef GPUSHARE_SCHED_PLUGINS_TAINT_TOLERATION_H_
#define GPUSHARE_SCHED_PLUGINS_TAINT_TOLERATION_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/node.h"
#include "gpushare/sched/framework.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class TaintToleration : public FilterPlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "TaintToleration";

  std::string_view Name() const override { return kName; }

  bool Static() const override { return true; }
  bool Filter(const Pod& pod, const Node& node,
              std::vector<std::string_view>* reasons) const override;

  bool PreScore(const Pod& pod) override;
  int64_t Score(const Pod& pod, const Node& node) const override;
  void Normalize(std::vector<int64_t>& scores) const override;
  void NodesChanged(const std::vector<Node>& nodes) override;

 private:
  // Orders (key, value) pairs of strings and of string_views alike, so that
  // the cache is searched without building strings.
  struct KeyLess {
    using is_transparent = void;
    using View = std::pair<std::string_view, std::string_view>;
    static View ToView(const std::pair<std::string, std::string>& p) {
      return {p.first, p.second};
    }
    static View ToView(const View& v) { return v; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return ToView(a) < ToView(b);
    }
  };

  // The cached reason for `taint`.
  std::string_view ReasonFor(const Taint& taint) const;

  // (key, value) → "node(s) had untolerated taint {key: value}"; std::map
  // never moves its values.
  mutable std::map<std::pair<std::string, std::string>, std::string, KeyLess>
      reasons_;
  // Whether some node has a PreferNoSchedule taint (true until told).
  bool any_prefer_no_schedule_ = true;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_TAINT_TOLERATION_H_
