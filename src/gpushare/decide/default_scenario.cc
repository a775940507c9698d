#include "gpushare/decide/default_scenario.h"

extern const char kDefaultScenarioYaml[];
extern const unsigned long kDefaultScenarioYaml_size;

namespace gpushare {

std::string DefaultScenarioYaml() {
  return std::string(kDefaultScenarioYaml, kDefaultScenarioYaml_size);
}

}  // namespace gpushare
