// The Helm releases of the emitted files (contract in helm_release.h).

#include "gpushare/emit/helm_release.h"

#include "gpushare/emit/dra_driver_values.h"
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

HelmRelease DraDriverRelease(const PlatformSpec& platform) {
  const std::string chart = kDraDriverChart;
  return Resolve({"dra-driver", "NVIDIA's DRA driver", "dra_driver",
                  kDraDriverRelease, kDraDriverRelease, chart, "",
                  chart.substr(chart.rfind('/') + 1), kDraDriverChartVersion},
                 platform.dra_driver);
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
