// The Helm releases the emitted files install, upgrade or uninstall — the
// NVIDIA GPU Operator, HAMi and NVIDIA's DRA driver — each with the chart
// version the files are written for (docs/emit.md, "apply.sh and
// rollback.sh").
//
// Contract: the constants are the defaults: the release and namespace of
// each project's install guide, its chart repository, and the chart version
// the emitters write their values for — the newest released chart whose
// values.yaml has every key they write (NVIDIA/gpu-operator tag v26.7.0,
// deployments/gpu-operator/values.yaml; Project-HAMi/HAMi tag v2.10.0,
// charts/hami/values.yaml; the DRA driver's: emit/dra_driver_release.h).
// GpuOperatorRelease() and HamiRelease() are those releases as a
// scenario's `platform` says them (scenario/platform.h: each of release, namespace, chart_version
// that is non-empty replaces the default); GpuOperatorRelease() with a
// namespace puts the release there (the namespace of the ConfigMaps an
// emitter writes for it). DraDriverHelmRelease() is the DRA driver's
// release as emit/dra_driver_release.h DraDriverRelease() decides it (the
// scenario's, today's import, else its default), with the chart that
// version comes from (DraDriverChartRef: an oci:// ref, or NGC's chart and
// repository for the 25.x releases). HelmChartArguments() is the part
// of a `helm upgrade`/`helm install` command after the release name: the
// chart, `--repo URL` for a chart of a repository, `-n NAMESPACE` and
// `--version VERSION`, each a shell word (emit/quoting.h ShellWord);
// HelmReleaseArguments() the release name before them. Pure functions.

#ifndef GPUSHARE_EMIT_HELM_RELEASE_H_
#define GPUSHARE_EMIT_HELM_RELEASE_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

// NVIDIA GPU Operator: `helm install gpu-operator nvidia/gpu-operator -n
// gpu-operator` (its install guide names the release; the chart repository
// is NVIDIA's NGC Helm repository).
inline constexpr const char* kGpuOperatorRelease = "gpu-operator";
inline constexpr const char* kGpuOperatorNamespace = "gpu-operator";
inline constexpr const char* kGpuOperatorChartRepo =
    "https://helm.ngc.nvidia.com/nvidia";
inline constexpr const char* kGpuOperatorChart = "gpu-operator";
inline constexpr const char* kGpuOperatorChartVersion = "v26.7.0";
// The GPU Operator's device-plugin DaemonSet
// (assets/state-device-plugin/0500_daemonset.yaml), restarted after a
// change of its ConfigMap's data (the operator does not watch it).
inline constexpr const char* kDevicePluginDaemonSet =
    "nvidia-device-plugin-daemonset";

// HAMi: `helm install hami hami-charts/hami -n kube-system` (its README).
inline constexpr const char* kHamiRelease = "hami";
inline constexpr const char* kHamiNamespace = "kube-system";
inline constexpr const char* kHamiChartRepo =
    "https://project-hami.github.io/HAMi/";
inline constexpr const char* kHamiChart = "hami";
inline constexpr const char* kHamiChartVersion = "2.10.0";
// HAMi's scheduler (charts/hami/values.yaml `schedulerName`), which its
// admission webhook gives every GPU pod: HAMi is uninstalled only once no
// running pod names it.
inline constexpr const char* kHamiSchedulerName = "hami-scheduler";

struct HelmRelease {
  std::string key;           // names its files under before/
  std::string what;          // for messages: "the GPU Operator"
  std::string platform_key;  // the scenario key: "gpu_operator"
  std::string release;
  std::string namespace_name;
  std::string chart;       // a repository's chart name or an oci:// ref
  std::string repo;        // the repository URL; "" for an oci:// ref
  std::string chart_name;  // the chart's own name (Chart.yaml `name`)
  std::string version;     // the pinned chart version
};

HelmRelease GpuOperatorRelease(const PlatformSpec& platform);
HelmRelease GpuOperatorRelease(const PlatformSpec& platform,
                               const std::string& namespace_name);
HelmRelease HamiRelease(const PlatformSpec& platform);
HelmRelease DraDriverHelmRelease(const Scenario& scenario);

std::string HelmChartArguments(const HelmRelease& release);
std::string HelmReleaseArguments(const HelmRelease& release);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_HELM_RELEASE_H_
