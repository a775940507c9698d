// Scenario overrides: setting one value of a scenario's YAML tree by a
// dotted key, as `sweep` grids name them (docs/sweep.md).
//
// Contract: a key is a dotted path from the scenario's top level. Each step
// is a mapping key (`cluster`, `horizon_s`) or a selector in brackets after
// it: on a list, `[2]` is the item at index 2 (0-based) and `[l4]` the item
// whose `name` is l4; on a mapping, `[key]` or `["key"]` is that key, which
// is how a key containing dots is written (`labels["gpushare.io/team"]`).
// ParseScenarioKey() checks the syntax; SetScenarioValue() walks a parsed
// tree and replaces the value the key names, adding the last key (and any
// mapping on the way) when the scenario does not write it. A list item that
// is not there, or a step into a value that is not a mapping or a list, is
// an InputError without a location (the caller knows where the key was
// written); the tree is then unchanged. What the new value means is left to
// the scenario reader, which reads the tree afterwards.

#ifndef GPUSHARE_SCENARIO_SCENARIO_OVERRIDES_H_
#define GPUSHARE_SCENARIO_SCENARIO_OVERRIDES_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace gpushare {

struct ScenarioKeyStep {
  // kKey: a mapping key written bare; kSelector: written in brackets.
  enum class Kind { kKey, kSelector };
  Kind kind = Kind::kKey;
  std::string text;     // the key, name or index, unquoted
  bool quoted = false;  // ["..."]: always a key or a name, never an index
};

struct ScenarioKey {
  std::string text;  // as written
  std::vector<ScenarioKeyStep> steps;
};

// Parses a dotted key; throws InputError (no location) that says what is
// wrong with it.
ScenarioKey ParseScenarioKey(const std::string& text);

// Whether `inner` names `outer` or something inside it (the same steps, or
// more after them).
bool ScenarioKeyWithin(const ScenarioKey& inner, const ScenarioKey& outer);

// Sets the value `key` names in `root` (a scenario's parsed tree) to `value`.
// `value` becomes part of the tree (yaml-cpp nodes share): the caller must
// not set anything inside it afterwards through another tree.
void SetScenarioValue(YAML::Node root, const ScenarioKey& key,
                      const YAML::Node& value);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_SCENARIO_OVERRIDES_H_
