// Reading a scenario's `compare:` and `selection:` sections
// (docs/scenario.md, "compare and selection").
//
// Contract: reads the two sections of the scenario YAML `text` (the rest is
// the scenario reader's) and returns the ComparisonSpec with every tenant
// class of `scenario` given its weights: the class's entry under
// `selection.classes` (a profile name or explicit weights), else the
// default profile of its workload class. Errors are InputErrors at
// file:line:col: unknown keys, schemes, families, profiles and tenant
// classes (naming the closest), duplicate schemes, numbers out of range,
// negative weights or weights that are all 0.

#ifndef GPUSHARE_DECIDE_COMPARISON_SPEC_READER_H_
#define GPUSHARE_DECIDE_COMPARISON_SPEC_READER_H_

#include <string>

#include <yaml-cpp/yaml.h>

#include "gpushare/decide/comparison_spec.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

ComparisonSpec ReadComparisonSpec(const std::string& text,
                                  const std::string& file,
                                  const Scenario& scenario);

// The same from the scenario's parsed YAML tree (ParseYaml()).
ComparisonSpec ReadComparisonSpecNode(YAML::Node root, const std::string& file,
                                      const Scenario& scenario);

// The spec a scenario without those sections gets.
ComparisonSpec DefaultComparisonSpec(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_COMPARISON_SPEC_READER_H_
