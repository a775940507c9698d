// Reader of a scenario's `priority_classes` section (format:
// docs/scenario.md): the PriorityClasses its workload classes name.
//
// Contract: reads the top-level `priority_classes` list (absent: none) and
// throws InputError at file:line:col on an unknown key, a name that is not a
// DNS subdomain or is taken (twice, or by a system class, or with the
// reserved "system-" prefix), a value above 1,000,000,000 or below
// -2,147,483,648, an unknown preemption policy, or a second global default.

#ifndef GPUSHARE_SCENARIO_PRIORITY_CLASS_READER_H_
#define GPUSHARE_SCENARIO_PRIORITY_CLASS_READER_H_

#include <vector>

#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/priority_class.h"

namespace gpushare {

std::vector<PriorityClass> ReadPriorityClasses(const YamlMap& top);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_PRIORITY_CLASS_READER_H_
