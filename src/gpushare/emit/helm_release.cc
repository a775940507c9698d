// The Helm releases of the emitted files (contract in helm_release.h).

#include "gpushare/emit/helm_release.h"

#include "gpushare/emit/dra_driver_release.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

HelmRelease Resolve(HelmRelease defaults, const HelmReleaseSpec& spec) {
  if (!spec.release.empty()) defaults.release = spec.release;
  if (!spec.namespace_name.empty()) {
    defaults.namespace_name = spec.namespace_name;
  }
  if (!spec.chart_version.empty()) defaults.version = spec.chart_version;
  return defaults;
}

}  // namespace

HelmRelease GpuOperatorRelease(const PlatformSpec& platform) {
  return Resolve(
      {"gpu-operator", "the GPU Operator", "gpu_operator", kGpuOperatorRelease,
       kGpuOperatorNamespace, kGpuOperatorChart, kGpuOperatorChartRepo,
       kGpuOperatorChart, kGpuOperatorChartVersion},
      platform.gpu_operator);
}

HelmRelease GpuOperatorRelease(const PlatformSpec& platform,
                               const std::string& namespace_name) {
  HelmRelease r = GpuOperatorRelease(platform);
  r.namespace_name = namespace_name;
  return r;
}

HelmRelease HamiRelease(const PlatformSpec& platform) {
  return Resolve({"hami", "HAMi", "hami", kHamiRelease, kHamiNamespace,
                  kHamiChart, kHamiChartRepo, kHamiChart, kHamiChartVersion},
                 platform.hami);
}

HelmRelease DraDriverHelmRelease(const Scenario& scenario) {
  const HelmReleaseSpec spec = DraDriverRelease(scenario);
  const std::string ref = DraDriverChartRef(spec.chart_version);
  const std::string name = ref.substr(ref.rfind('/') + 1);
  const bool oci = ref.rfind("oci://", 0) == 0;
  return {"dra-driver",
          "NVIDIA's DRA driver",
          "dra_driver",
          spec.release,
          spec.namespace_name,
          oci ? ref : name,
          oci ? std::string() : std::string(kDraDriverNgcRepo),
          name,
          spec.chart_version};
}

std::string HelmChartArguments(const HelmRelease& release) {
  std::string out = ShellWord(release.chart);
  if (!release.repo.empty()) out += " --repo " + ShellWord(release.repo);
  return out + " -n " + ShellWord(release.namespace_name) + " --version " +
         ShellWord(release.version);
}

std::string HelmReleaseArguments(const HelmRelease& release) {
  return ShellWord(release.release) + " " + HelmChartArguments(release);
}

}  // namespace gpushare
