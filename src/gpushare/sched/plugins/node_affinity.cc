#include "gpushare/sched/plugins/node_affinity.h"

namespace gpushare {
namespace {

bool MatchesRequired(const std::vector<NodeSelectorTerm>& terms,
                     const Labels& labels) {
  if (terms.empty()) return true;  // no required affinity
  for (const NodeSelectorTerm& term : terms) {
    if (Matches(term, labels)) return true;
  }
  return false;
}

}  // namespace

bool NodeAffinity::Filter(const Pod& pod, const Node& node,
                          std::vector<std::string_view>* reasons) const {
  if (MatchesSelector(pod.node_selector, node.labels()) &&
      MatchesRequired(pod.required_affinity, node.labels())) {
    return true;
  }
  if (reasons != nullptr) reasons->push_back(kReason);
  return false;
}

bool NodeAffinity::PreScore(const Pod& pod) {
  return !pod.preferred_affinity.empty();
}

int64_t NodeAffinity::Score(const Pod& pod, const Node& node) const {
  int64_t score = 0;
  for (const PreferredSchedulingTerm& term : pod.preferred_affinity) {
    if (term.weight != 0 && Matches(term.preference, node.labels())) {
      score += term.weight;
    }
  }
  return score;
}

void NodeAffinity::Normalize(std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

}  // namespace gpushare
