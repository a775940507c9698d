// Kubernetes object names and labels, as the API server validates them, for
// the scenario readers.
//
// Contract: IsDnsLabel (RFC 1123 label: lowercase letters, digits, '-', at
// most `max_size`), IsDnsSubdomain (labels joined by '.', at most 253),
// IsLabelKey ([DNS-subdomain prefix '/'] name of at most 63) and
// IsLabelValue (empty, or at most 63 of letters, digits, '-', '_', '.',
// alphanumeric at both ends). ReadLabelMap reads a YAML mapping of label
// keys to values and throws InputError at the offending key or value.

#ifndef GPUSHARE_SCENARIO_KUBERNETES_NAMES_H_
#define GPUSHARE_SCENARIO_KUBERNETES_NAMES_H_

#include <string>

#include "gpushare/cluster/labels.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {

bool IsDnsLabel(const std::string& s, size_t max_size = 63);
bool IsDnsSubdomain(const std::string& s);
bool IsLabelKey(const std::string& s);
bool IsLabelValue(const std::string& s);

// Throw InputError at `at` unless `key` / `value` is a valid label key /
// value; `label` names what is read.
void CheckLabelKey(const std::string& file, const YAML::Node& at,
                   const std::string& label, const std::string& key);
void CheckLabelValue(const std::string& file, const YAML::Node& at,
                     const std::string& label, const std::string& value);

// `label` names the mapping in errors ("pool 'a' labels").
Labels ReadLabelMap(const std::string& file, const YAML::Node& node,
                    const std::string& label);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_KUBERNETES_NAMES_H_
