// The built-in default scenario `compare` runs without an argument (and
// `make demo` runs): examples/default.yaml, embedded at build time.
//
// Contract: three node pools in the spirit of the source document's tower
// (MIG for production inference, HAMi vGPU for a multi-tenant platform,
// time-slicing for research and development) with a mixed workload sized
// so a comparison takes a few seconds.

#ifndef GPUSHARE_DECIDE_DEFAULT_SCENARIO_H_
#define GPUSHARE_DECIDE_DEFAULT_SCENARIO_H_

#include <string>

namespace gpushare {

// The YAML text of the default scenario.
std::string DefaultScenarioYaml();

// How errors and reports name it.
inline constexpr const char* kDefaultScenarioFile = "examples/default.yaml";

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_DEFAULT_SCENARIO_H_
