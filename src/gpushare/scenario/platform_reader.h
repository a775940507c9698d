// Reader of a scenario's `platform` mapping (format: docs/scenario.md,
// "platform"): the Kubernetes version and gates and the Helm releases the
// emitted files are written for.
//
// Contract: ReadPlatform() reads `platform` of the scenario's top-level
// mapping (absent: every field unset) and throws InputError at file:line:col
// on an unknown key, a wrong type, a Kubernetes version that is not
// MAJOR.MINOR[.PATCH] (a leading 'v' allowed; kept as "MAJOR.MINOR"), a
// feature gate name that is not UpperCamelCase, a chart version that is not
// an exact [v]MAJOR.MINOR.PATCH[-PRERELEASE] (helm's --version takes a
// range too; the files pin one version), a release name that Helm refuses
// (a DNS-1123 subdomain of at most 53 characters) or a namespace that is not
// a DNS-1123 label. KubernetesMinorVersion() parses such a version into
// (major, minor); nullopt when it is not one.

#ifndef GPUSHARE_SCENARIO_PLATFORM_READER_H_
#define GPUSHARE_SCENARIO_PLATFORM_READER_H_

#include <optional>
#include <string>
#include <utility>

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/platform.h"

namespace gpushare {

PlatformSpec ReadPlatform(const YamlMap& top);

std::optional<std::pair<int, int>> KubernetesMinorVersion(
    const std::string& version);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_PLATFORM_READER_H_
