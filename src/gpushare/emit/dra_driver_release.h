// Which release of NVIDIA's DRA driver for GPUs (kubernetes-sigs/
// dra-driver-nvidia-gpu, formerly NVIDIA/k8s-dra-driver-gpu) the emitted
// files are written for, and what that release has (docs/emit.md, "DRA
// pools"; sources: the tags' pkg/featuregates/featuregates.go and
// deployments/helm/*/values.yaml, Chart.yaml, docs/install.md and
// docs/upgrade.md).
//
// Contract: DraDriverRelease() is the Helm release `helm upgrade` names,
// defaults filled: the release and namespace of platform.dra_driver, else
// those of the driver installed today (a kubectl import:
// PlatformSpec::dra_driver_today), else kDraDriverRelease in a namespace of
// that name (docs/install.md); the chart version of platform.dra_driver.
// chart_version, else the version installed today when the dump shows one
// gpushare-sim knows (the files are written for the driver that runs, and
// `helm upgrade` does not upgrade it), else kDraDriverChartVersion, the
// newest release; a leading 'v' is dropped (the chart's own versions have
// none). DraDriverVersionSource() says where that version came from.
// DraDriverChartRef() is the chart `helm` installs that version from: the
// OCI chart of registry.k8s.io for releases from 0.4.0, the staging
// registry's for pre-release builds (hack/build-and-publish-chart.sh), NGC's
// nvidia/nvidia-dra-driver-gpu for the 25.x releases (DraDriverRepoAdd() the
// `helm repo add` it needs; "" for OCI). DraDriverHelmUpgrade() is the one
// command line that installs or upgrades the release pinned to its version
// with `values_file`.
//
// DraDriverHas() says whether a chart version has a driver feature, by the
// release line its gates name (featuregates.go Version: 25.8 ~ 0.2, 25.12 ~
// 0.3, 0.4; ConsumableShares is 0.5, unreleased: commit c38ce5b5); a version
// before 25.8.0, or one of no known line (0.1-0.3, 1-24), is unknown and
// has none. CheckDraDriverFeatures() throws InputError when the scenario's
// DRA pools need a feature the chart version lacks — naming the feature,
// the pool, the version and where it came from, the release that has it (or
// the unreleased commit) and the key to change, platform.dra_driver.
// chart_version — and when that version is unknown. DraDriverNameOverride()
// is the chart `nameOverride` the values must keep: the name today's
// objects carry when it is not the 0.4 chart's own (a release of the 25.x
// chart nvidia-dra-driver-gpu, whose DaemonSet and selector labels a 0.4
// chart without it would duplicate: docs/upgrade.md); "" otherwise.
//
// WithTodaysPlatform() is `scenario` completed with what `today`'s kubectl
// import read where `scenario` has none of it (a written scenario emitted
// `--from` an imported one): the driver installed, the Kubernetes version
// and its source, the GPU Operator's driver, the DeviceClasses. `today`
// null: `scenario` as it is.

#ifndef GPUSHARE_EMIT_DRA_DRIVER_RELEASE_H_
#define GPUSHARE_EMIT_DRA_DRIVER_RELEASE_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The newest release (tag v0.4.1, 2026-06-30; Chart.yaml version 0.4.1).
inline constexpr const char* kDraDriverChartVersion = "0.4.1";
// The install guide's release and namespace (docs/install.md, v0.4.1).
inline constexpr const char* kDraDriverRelease = "dra-driver-nvidia-gpu";
inline constexpr const char* kDraDriverChart =
    "oci://registry.k8s.io/dra-driver-nvidia/charts/dra-driver-nvidia-gpu";
inline constexpr const char* kDraDriverStagingChart =
    "oci://us-central1-docker.pkg.dev/k8s-staging-images/dra-driver-nvidia/"
    "charts/dra-driver-nvidia-gpu";
inline constexpr const char* kDraDriverNgcChart =
    "nvidia/nvidia-dra-driver-gpu";
inline constexpr const char* kDraDriverNgcRepo =
    "https://helm.ngc.nvidia.com/nvidia";
// The chart's name before 0.4.0 (the 25.x releases).
inline constexpr const char* kDraDriverOldName = "nvidia-dra-driver-gpu";

enum class DraDriverFeature {
  kTimeSlicingSettings,  // gate TimeSlicingSettings: a claim's interval
  kMpsSupport,           // gate MPSSupport: GpuConfig sharing MPS
  kDynamicMig,           // gate DynamicMIG
  kConsumableShares,     // gate ConsumableShares, chart key consumableShares
};

HelmReleaseSpec DraDriverRelease(const Scenario& scenario);
std::string DraDriverVersionSource(const Scenario& scenario);
std::string DraDriverChartRef(const std::string& chart_version);
std::string DraDriverRepoAdd(const std::string& chart_version);
std::string DraDriverHelmUpgrade(const Scenario& scenario,
                                 const std::string& values_file);
bool DraDriverHas(const std::string& chart_version, DraDriverFeature feature);
void CheckDraDriverFeatures(const Scenario& scenario);
std::string DraDriverNameOverride(const Scenario& scenario);
Scenario WithTodaysPlatform(const Scenario& scenario, const Scenario* today);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_DRIVER_RELEASE_H_
