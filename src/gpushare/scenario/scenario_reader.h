// Reading scenario files (format: docs/scenario.md).
//
// Contract: the whole file is read and checked before anything is returned:
// unknown or duplicate keys at every level, wrong types, numbers out of
// range, unknown names (GPU models, sharing schemes, classes, policies,
// plugins), sharing configurations the model does not support, and the
// workload, scheduler and model sections as their own Validate() sees them.
// The first problem is an InputError at file:line:col of the offending key or
// value; on error nothing is returned. GPU models are resolved against
// `catalog` and stored under their canonical names.

#ifndef GPUSHARE_SCENARIO_SCENARIO_READER_H_
#define GPUSHARE_SCENARIO_SCENARIO_READER_H_

#include <string>

#include <yaml-cpp/yaml.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// Reads the scenario file at `path`; errors name `path`.
Scenario ReadScenarioFile(const std::string& path, const Catalog& catalog);

// Reads a scenario from YAML `text`; `file` names it in errors and becomes
// Scenario::file.
Scenario ReadScenarioYaml(const std::string& text, const std::string& file,
                          const Catalog& catalog);

// Reads a scenario from its parsed YAML tree (ParseYaml()), as a sweep's
// points do after setting their values; `file` names it in errors.
Scenario ReadScenarioNode(const YAML::Node& root, const std::string& file,
                          const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_SCENARIO_READER_H_
