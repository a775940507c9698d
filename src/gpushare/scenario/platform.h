// The cluster's software as far as the emitted configuration depends on it:
// the Kubernetes version and feature gates, and the Helm releases that
// `emit k8s` and `plan --out` install or change (docs/scenario.md,
// "platform"; docs/emit.md says what each file needs).
//
// Contract: plain values; an empty string is "not said" and each emitter
// then uses its documented default (the chart version it is written for,
// the release and namespace of the upstream install guide). A version is
// the exact chart version `helm upgrade --version` pins. An unset
// `optional` list is "today's list unknown": the emitter starts from the
// chart's default. A kubectl import fills what the dump shows (the nodes'
// kubelet version, the DRA driver's release and namespace, the GPU
// Operator's DaemonSet tolerations) where the scenario does not say it.

#ifndef GPUSHARE_SCENARIO_PLATFORM_H_
#define GPUSHARE_SCENARIO_PLATFORM_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare {

// A Helm release the emitted files install, upgrade or uninstall.
struct HelmReleaseSpec {
  std::string release;        // "": the emitter's default release name
  std::string namespace_name;  // "": the emitter's default namespace
  std::string chart_version;  // "": the version the emitter writes for
};

struct PlatformSpec {
  // "MAJOR.MINOR" of the API server the files are applied to ("": unknown).
  std::string kubernetes_version;
  // Feature gates set explicitly on the cluster's components (name → on);
  // a gate not listed has its default in `kubernetes_version`.
  std::map<std::string, bool> feature_gates;

  HelmReleaseSpec gpu_operator;
  // The GPU Operator chart's `daemonsets.tolerations` and
  // `node-feature-discovery.worker.tolerations` as installed today.
  std::optional<std::vector<Toleration>> gpu_operator_daemonset_tolerations;
  std::optional<std::vector<Toleration>> nfd_worker_tolerations;
  // Where a kubectl import read each of the two lists ("": the scenario
  // says it, or it is unknown); the emitted values' header names it.
  std::string gpu_operator_daemonset_tolerations_from;
  std::string nfd_worker_tolerations_from;

  HelmReleaseSpec hami;
  HelmReleaseSpec dra_driver;
  // platform.dra_driver.driver_root: the DRA driver chart's nvidiaDriverRoot
  // (an absolute path; "": the emitter decides, docs/emit.md "DRA pools").
  std::string dra_driver_root;
  // Kueue's version ("MAJOR.MINOR.PATCH"; "": unknown), which decides the
  // API version of the emitted Kueue objects.
  std::string kueue_version;

  // What a kubectl import read from the dump (never scenario keys;
  // workload/kubectl_platform.h), for the DRA emitters.
  // Where kubernetes_version came from when the scenario does not say it
  // ("": the scenario, or unknown).
  std::string kubernetes_version_source;
  // NVIDIA's DRA driver as installed: found when its kubelet plugin or
  // controller pods are in the dump.
  struct InstalledDraDriver {
    bool found = false;
    std::string release;         // app.kubernetes.io/instance, or the guide's
    std::string namespace_name;  // the pods' namespace
    std::string name;            // the chart's name or nameOverride
    std::string version;         // its image tag without 'v'; "": unknown
    std::string source;          // the dump's file
  } dra_driver_today;
  // The GPU Operator's driver, as the dump shows it: true when the pods of
  // its driver DaemonSet are there, false when GPU Operator pods are there
  // without them (the driver is on the host); unset: the dump does not say.
  std::optional<bool> gpu_operator_driver;
  // The DeviceClasses of the dump: name and spec as the emitters compare it
  // (CEL expressions, extendedResourceName, whether it has config).
  struct InstalledDeviceClass {
    std::string name;
    std::vector<std::string> cel;
    std::string extended_resource_name;
    bool has_config = false;
  };
  std::vector<InstalledDeviceClass> device_classes_today;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_PLATFORM_H_
