#include "gpushare/sched/profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/sched/plugin_registry.h"

namespace gpushare {
namespace {

void CheckKnown(const std::string& name, const std::vector<std::string>& known,
                const char* kind) {
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    throw InputError(fmt::format("unknown {} plugin '{}'{} (known: {})", kind,
                                 name, DidYouMean(name, known, 1),
                                 JoinNames(known)));
  }
}

}  // namespace

void SchedulerProfile::Validate() const {
  std::vector<std::string> seen;
  for (const std::string& name : filters) {
    CheckKnown(name, FilterPluginNames(), "filter");
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw InputError("filter plugin '" + name + "' is listed twice");
    }
    seen.push_back(name);
  }
  seen.clear();
  for (const auto& [name, weight] : scores) {
    CheckKnown(name, ScorePluginNames(), "score");
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw InputError("score plugin '" + name + "' is listed twice");
    }
    seen.push_back(name);
    if (weight < 1 || weight > 1000) {
      throw InputError(fmt::format(
          "score plugin '{}' weight must be 1..1000, got {}", name, weight));
    }
  }
  for (const std::string& name : post_filters) {
    CheckKnown(name, {"DefaultPreemption"}, "postFilter");
  }
  if (post_filters.size() > 1) {
    throw InputError("postFilter plugin 'DefaultPreemption' is listed twice");
  }
  if (!(pod_initial_backoff_s >= 0 && pod_initial_backoff_s <= 3600)) {
    throw InputError(fmt::format(
        "podInitialBackoffSeconds must be 0..3600 (0: no back-off), got {}",
        pod_initial_backoff_s));
  }
  if (!(pod_max_backoff_s >= pod_initial_backoff_s &&
        pod_max_backoff_s <= 3600)) {
    throw InputError(fmt::format(
        "podMaxBackoffSeconds must be at least podInitialBackoffSeconds ({}) "
        "and at most 3600, got {}",
        pod_initial_backoff_s, pod_max_backoff_s));
  }
  if (min_candidate_nodes_percentage < 0 ||
      min_candidate_nodes_percentage > 100) {
    throw InputError(fmt::format(
        "DefaultPreemption minCandidateNodesPercentage must be 0..100, got {}",
        min_candidate_nodes_percentage));
  }
  if (min_candidate_nodes_absolute < 0) {
    throw InputError(fmt::format(
        "DefaultPreemption minCandidateNodesAbsolute must be >= 0, got {}",
        min_candidate_nodes_absolute));
  }
  if (min_candidate_nodes_percentage == 0 &&
      min_candidate_nodes_absolute == 0) {
    // kube's ValidateDefaultPreemptionArgs.
    throw InputError(
        "DefaultPreemption minCandidateNodesPercentage and "
        "minCandidateNodesAbsolute must not both be 0");
  }
  if (percentage_of_nodes_to_score < 0 || percentage_of_nodes_to_score > 100) {
    throw InputError(fmt::format(
        "percentageOfNodesToScore must be 0..100 (0: adaptive), got {}",
        percentage_of_nodes_to_score));
  }
  if (scoring_strategy.resources.empty()) {
    throw InputError("scoringStrategy.resources must not be empty");
  }
  for (const auto& [name, weight] : scoring_strategy.resources) {
    if (name.empty()) throw InputError("scoringStrategy resource without name");
    if (weight < 1 || weight > 100) {
      throw InputError(fmt::format(
          "scoringStrategy resource '{}' weight must be 1..100, got {}", name,
          weight));
    }
  }
  if (scoring_strategy.type ==
      ScoringStrategy::Type::kRequestedToCapacityRatio) {
    const auto& shape = scoring_strategy.shape;
    if (shape.empty()) {
      throw InputError("requestedToCapacityRatio.shape must not be empty");
    }
    for (size_t i = 0; i < shape.size(); ++i) {
      const auto [utilization, score] = shape[i];
      if (utilization < 0 || utilization > 100 || score < 0 || score > 10) {
        throw InputError(fmt::format(
            "requestedToCapacityRatio.shape point {}: utilization must be "
            "0..100 and score 0..10, got ({}, {})",
            i, utilization, score));
      }
      if (i > 0 && utilization <= shape[i - 1].first) {
        throw InputError(
            "requestedToCapacityRatio.shape utilizations must be strictly "
            "increasing");
      }
    }
  }
}

}  // namespace gpushare
