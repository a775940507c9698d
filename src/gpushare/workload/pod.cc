#include "gpushare/workload/pod.h"

#include <algorithm>
#include <charconv>

namespace gpushare {
namespace {

bool ParseInt64(std::string_view text, int64_t* value) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::string_view WorkloadClassName(WorkloadClass c) {
  switch (c) {
    case WorkloadClass::kTraining:
      return "training";
    case WorkloadClass::kInference:
      return "inference";
    case WorkloadClass::kBatch:
      return "batch";
    case WorkloadClass::kDev:
      return "dev";
  }
  return "";
}

bool ParseWorkloadClass(std::string_view text, WorkloadClass* c) {
  for (WorkloadClass k : {WorkloadClass::kTraining, WorkloadClass::kInference,
                          WorkloadClass::kBatch, WorkloadClass::kDev}) {
    if (text == WorkloadClassName(k)) {
      *c = k;
      return true;
    }
  }
  return false;
}

bool Toleration::Tolerates(const Taint& taint) const {
  if (!any_effect && effect != taint.effect) return false;
  if (key.empty()) return op == Operator::kExists;
  if (key != taint.key) return false;
  return op == Operator::kExists || value == taint.value;
}

NonZeroRequests NonZeroOf(const Pod& pod) {
  NonZeroRequests n = DefaultNonZeroRequests(pod.requests);
  if (pod.nonzero_cpu_milli >= 0) n.cpu_milli = pod.nonzero_cpu_milli;
  if (pod.nonzero_memory_mib >= 0) n.memory_mib = pod.nonzero_memory_mib;
  return n;
}

bool Matches(const NodeSelectorRequirement& r, const Labels& labels) {
  using Op = NodeSelectorRequirement::Operator;
  auto it = labels.find(r.key);
  const bool present = it != labels.end();
  switch (r.op) {
    case Op::kIn:
      return present && std::find(r.values.begin(), r.values.end(),
                                  it->second) != r.values.end();
    case Op::kNotIn:
      return !present || std::find(r.values.begin(), r.values.end(),
                                   it->second) == r.values.end();
    case Op::kExists:
      return present;
    case Op::kDoesNotExist:
      return !present;
    case Op::kGt:
    case Op::kLt: {
      int64_t label = 0;
      int64_t bound = 0;
      if (!present || r.values.size() != 1 || !ParseInt64(it->second, &label) ||
          !ParseInt64(r.values[0], &bound)) {
        return false;
      }
      return r.op == Op::kGt ? label > bound : label < bound;
    }
  }
  return false;
}

bool MatchesSelector(const Labels& selector, const Labels& labels) {
  for (const auto& [key, value] : selector) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  return true;
}

bool Matches(const NodeSelectorTerm& term, const Labels& labels) {
  // An empty term matches nothing (v1: "empty or null ... matches no
  // objects").
  if (term.match_expressions.empty()) return false;
  for (const auto& r : term.match_expressions) {
    if (!Matches(r, labels)) return false;
  }
  return true;
}

}  // namespace gpushare
