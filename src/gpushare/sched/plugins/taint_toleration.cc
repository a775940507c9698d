#include "gpushare/sched/plugins/taint_toleration.h"

namespace gpushare {
namespace {

bool Tolerated(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (t.Tolerates(taint)) return true;
  }
  return false;
}

}  // namespace

std::string_view TaintToleration::ReasonFor(const Taint& taint) const {
  const KeyLess::View key(taint.key, taint.value);
  auto it = reasons_.find(key);
  if (it == reasons_.end()) {
    it = reasons_
             .emplace(std::make_pair(taint.key, taint.value),
                      "node(s) had untolerated taint " + taint.ToString())
             .first;
  }
  return it->second;
}

bool TaintToleration::Filter(const Pod& pod, const Node& node,
                             std::vector<std::string_view>* reasons) const {
  for (const Taint& taint : node.taints()) {
    if (taint.effect != TaintEffect::kNoSchedule &&
        taint.effect != TaintEffect::kNoExecute) {
      continue;
    }
    if (Tolerated(pod.tolerations, taint)) continue;
    if (reasons != nullptr) reasons->push_back(ReasonFor(taint));
    return false;
  }
  return true;
}

bool TaintToleration::PreScore(const Pod& /*pod*/) {
  return any_prefer_no_schedule_;
}

void TaintToleration::NodesChanged(const std::vector<Node>& nodes) {
  any_prefer_no_schedule_ = false;
  for (const Node& node : nodes) {
    for (const Taint& taint : node.taints()) {
      if (taint.effect == TaintEffect::kPreferNoSchedule) {
        any_prefer_no_schedule_ = true;
        return;
      }
    }
  }
}

int64_t TaintToleration::Score(const Pod& pod, const Node& node) const {
  int64_t intolerable = 0;
  for (const Taint& taint : node.taints()) {
    if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
    // Only tolerations for PreferNoSchedule or for every effect count;
    // Tolerates() already rejects a toleration for another effect.
    if (!Tolerated(pod.tolerations, taint)) ++intolerable;
  }
  return intolerable;
}

void TaintToleration::Normalize(std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

}  // namespace gpushare
