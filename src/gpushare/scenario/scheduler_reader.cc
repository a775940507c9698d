// The scenario's `scheduler:` section: kube-scheduler's profile (plugins,
// weights, scoring strategy, tie-break, back-off) and the GPU node
// policies, validated as kube-scheduler validates its configuration.

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

namespace {

// Validates `profile` and rethrows its error at `at`.
void ValidateProfileAt(const SchedulerProfile& profile, const std::string& file,
                       const YAML::Node& at, const std::string& prefix) {
  try {
    profile.Validate();
  } catch (const InputError& e) {
    FailAt(file, at, prefix + e.message());
  }
}

ScoringStrategy ReadScoringStrategy(const YamlMap& sched) {
  YamlMap m = sched.Map("scoring_strategy", "scheduler scoring_strategy");
  m.AllowOnly({"type", "resources", "shape"});
  ScoringStrategy s;
  std::string type = "LeastAllocated";
  if (m.Has("type")) {
    type =
        Choice(m, "type", "type",
               {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
  }
  s.type = type == "MostAllocated" ? ScoringStrategy::Type::kMostAllocated
           : type == "RequestedToCapacityRatio"
               ? ScoringStrategy::Type::kRequestedToCapacityRatio
               : ScoringStrategy::Type::kLeastAllocated;
  if (m.Has("resources")) {
    s.resources.clear();
    for (const auto& node : List(m, "resources", true)) {
      YamlMap r(m.file(), node, m.what() + " resource");
      r.AllowOnly({"name", "weight"});
      const std::string name = r.String("name");
      for (const auto& [other, w] : s.resources) {
        if (other == name) {
          FailAt(
              m.file(), r.Get("name"),
              Label(r, "name") + ": resource '" + name + "' is listed twice");
        }
      }
      const int64_t weight = r.Has("weight") ? r.Int("weight", 1, 100) : 1;
      s.resources.emplace_back(name, weight);
    }
  }
  if (m.Has("shape")) {
    if (s.type != ScoringStrategy::Type::kRequestedToCapacityRatio) {
      FailKey(m, "shape", "applies to type RequestedToCapacityRatio");
    }
    s.shape.clear();
    for (const auto& node : List(m, "shape", true)) {
      YamlMap p(m.file(), node, m.what() + " shape point");
      p.AllowOnly({"utilization", "score"});
      const int64_t utilization = p.Int("utilization", 0, 100);
      if (!s.shape.empty() && utilization <= s.shape.back().first) {
        FailAt(m.file(), p.Get("utilization"),
               Label(p, "utilization") +
                   ": utilizations must be strictly increasing");
      }
      s.shape.emplace_back(utilization, p.Int("score", 0, 10));
    }
  }
  return s;
}

}  // namespace

SchedulerProfile ReadScheduler(const YamlMap& top) {
  SchedulerProfile profile;
  if (!top.Has("scheduler")) return profile;
  YamlMap m = top.Map("scheduler", "scheduler");
  m.AllowOnly({"percentage_of_nodes_to_score", "tie_break", "filters", "scores",
               "scoring_strategy", "check_invariants", "post_filters",
               "default_preemption", "pod_initial_backoff_s",
               "pod_max_backoff_s", "dra_preemption"});
  if (m.Has("dra_preemption")) {
    profile.dra_preemption = m.Bool("dra_preemption");
  }
  if (m.Has("pod_initial_backoff_s")) {
    // Whole seconds, as KubeSchedulerConfiguration's int64 fields.
    profile.pod_initial_backoff_s =
        static_cast<double>(m.Int("pod_initial_backoff_s", 0, 3600));
  }
  if (m.Has("pod_max_backoff_s")) {
    profile.pod_max_backoff_s =
        static_cast<double>(m.Int("pod_max_backoff_s", 1, 3600));
  }
  if (profile.pod_max_backoff_s < profile.pod_initial_backoff_s) {
    const bool max_written = m.Has("pod_max_backoff_s");
    FailAt(m.file(),
           m.Get(max_written ? "pod_max_backoff_s" : "pod_initial_backoff_s"),
           fmt::format("scheduler pod_max_backoff_s: {} ({}) is below "
                       "pod_initial_backoff_s ({})",
                       profile.pod_max_backoff_s,
                       max_written ? "written" : "the default",
                       profile.pod_initial_backoff_s));
  }
  if (m.Has("percentage_of_nodes_to_score")) {
    profile.percentage_of_nodes_to_score =
        static_cast<int>(m.Int("percentage_of_nodes_to_score", 0, 100));
  }
  if (m.Has("tie_break")) {
    profile.tie_break = Choice(m, "tie_break", "tie break",
                               {"random", "lowest-name"}) == "lowest-name"
                            ? TieBreak::kLowestName
                            : TieBreak::kRandom;
  }
  if (m.Has("filters")) {
    const std::string label = Label(m, "filters");
    profile.filters.clear();
    for (const auto& item : List(m, "filters", false)) {
      const std::string name = ScalarString(m.file(), item, label);
      SchedulerProfile one;
      one.filters = {name};
      ValidateProfileAt(one, m.file(), item, label + ": ");
      for (const std::string& other : profile.filters) {
        if (other == name) {
          FailAt(m.file(), item,
                 label + ": filter plugin '" + name + "' is listed twice");
        }
      }
      profile.filters.push_back(name);
    }
  }
  if (m.Has("scores")) {
    const SchedulerProfile defaults;
    const std::string label = Label(m, "scores");
    profile.scores.clear();
    for (const auto& item : List(m, "scores", false)) {
      YamlMap s(m.file(), item, "scheduler score");
      s.AllowOnly({"name", "weight"});
      const std::string name = s.String("name");
      int64_t weight = 1;  // kube-scheduler: the plugin's default weight
      for (const auto& [n, w] : defaults.scores) {
        if (n == name) weight = w;
      }
      if (s.Has("weight")) weight = s.Int("weight", 1, 1000);
      SchedulerProfile one;
      one.scores = {{name, weight}};
      ValidateProfileAt(one, m.file(), s.Get("name"), label + ": ");
      for (const auto& [other, w] : profile.scores) {
        if (other == name) {
          FailAt(m.file(), s.Get("name"),
                 label + ": score plugin '" + name + "' is listed twice");
        }
      }
      profile.scores.emplace_back(name, weight);
    }
  }
  if (m.Has("scoring_strategy")) {
    profile.scoring_strategy = ReadScoringStrategy(m);
    SchedulerProfile one;
    one.scoring_strategy = profile.scoring_strategy;
    ValidateProfileAt(one, m.file(), KeyNode(m, "scoring_strategy"),
                      "scheduler scoring_strategy: ");
  }
  if (m.Has("check_invariants")) {
    profile.check_invariants = m.Bool("check_invariants");
  }
  if (m.Has("post_filters")) {
    const std::string label = Label(m, "post_filters");
    profile.post_filters.clear();
    for (const auto& item : List(m, "post_filters", false)) {
      const std::string name = ScalarString(m.file(), item, label);
      SchedulerProfile one;
      one.post_filters = {name};
      ValidateProfileAt(one, m.file(), item, label + ": ");
      if (!profile.post_filters.empty()) {
        FailAt(m.file(), item,
               label + ": postFilter plugin '" + name + "' is listed twice");
      }
      profile.post_filters.push_back(name);
    }
  }
  if (m.Has("default_preemption")) {
    YamlMap p = m.Map("default_preemption", "scheduler default_preemption");
    p.AllowOnly(
        {"min_candidate_nodes_percentage", "min_candidate_nodes_absolute"});
    if (p.Has("min_candidate_nodes_percentage")) {
      profile.min_candidate_nodes_percentage =
          static_cast<int>(p.Int("min_candidate_nodes_percentage", 0, 100));
    }
    if (p.Has("min_candidate_nodes_absolute")) {
      profile.min_candidate_nodes_absolute =
          static_cast<int>(p.Int("min_candidate_nodes_absolute", 0, 1000000));
    }
    SchedulerProfile one = profile;
    one.filters.clear();
    one.scores.clear();
    ValidateProfileAt(one, m.file(), KeyNode(m, "default_preemption"),
                      "scheduler default_preemption: ");
  }
  ValidateProfileAt(profile, m.file(), KeyNode(top, "scheduler"),
                    "scheduler: ");
  return profile;
}

}  // namespace scenario_internal
}  // namespace gpushare
