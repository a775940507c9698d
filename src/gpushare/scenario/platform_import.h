// The scenario's `platform` completed from a kubectl import (docs/emit.md,
// "DRA pools"; docs/scenario.md "platform"): what the dump shows fills what
// the scenario does not say.
//
// Contract: ImportPlatform() reads, with workload/kubectl_platform.h, the
// kubectl files of `cluster.import` and of `workload.trace` (format
// kubectl), merged, and fills `*platform`: kubernetes_version with the
// lowest kubelet MAJOR.MINOR of the dump's nodes (and
// kubernetes_version_source naming the file and the node) when the
// scenario gives none; dra_driver_today with the driver installed
// (release, namespace, chart name, image version, the file); the GPU
// Operator's driver; the DeviceClasses. A release, namespace, name or
// version the dump gives that Helm or Kubernetes would refuse is an
// InputError naming the file (it would be written into the README's
// commands). A scenario without a kubectl import is left as it is.

#ifndef GPUSHARE_SCENARIO_PLATFORM_IMPORT_H_
#define GPUSHARE_SCENARIO_PLATFORM_IMPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

void ImportPlatform(const YamlMap& top, const WorkloadSpec& workload,
                    PlatformSpec* platform);

// The kubectl files the scenario reads, each once: `cluster.import.file`
// then `workload.trace.file` (format kubectl), each as (the path as
// written, the path resolved). `workload` has been read.
std::vector<std::pair<std::string, std::string>> ScenarioKubectlFiles(
    const YamlMap& top, const WorkloadSpec& workload);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_PLATFORM_IMPORT_H_
