#include "gpushare/scenario/platform_import.h"

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/workload/kubectl_platform.h"

namespace gpushare {
namespace {

void Check(bool ok, const std::string& file, const std::string& what,
           const std::string& value) {
  if (ok) return;
  throw InputError(fmt::format(
      "{}: NVIDIA's DRA driver's pods give {} '{}', which Helm or Kubernetes "
      "refuses; set platform.dra_driver to name the release",
      file, what, value));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ScenarioKubectlFiles(
    const YamlMap& top, const WorkloadSpec& workload) {
  std::vector<std::pair<std::string, std::string>> out;
  if (top.Has("cluster")) {
    const YamlMap cluster = top.Map("cluster", "cluster");
    if (cluster.Has("import")) {
      const YamlMap im = cluster.Map("import", "cluster import");
      if (im.Has("format") && im.String("format") == "kubectl" &&
          im.Has("file")) {
        out.emplace_back(im.String("file"), im.InputPath("file"));
      }
    }
  }
  if (workload.trace.pods &&
      workload.trace.spec.format == TraceFormat::kKubectl &&
      top.Has("workload")) {
    const YamlMap w = top.Map("workload", "workload");
    if (w.Has("trace")) {
      const YamlMap t = w.Map("trace", "workload trace");
      if (t.Has("file") &&
          (out.empty() || out.front().second != workload.trace.spec.file)) {
        out.emplace_back(t.String("file"), workload.trace.spec.file);
      }
    }
  }
  return out;
}

void ImportPlatform(const YamlMap& top, const WorkloadSpec& workload,
                    PlatformSpec* platform) {
  for (const auto& [written, path] : ScenarioKubectlFiles(top, workload)) {
    const KubectlPlatform facts = ReadKubectlPlatform(path);
    if (facts.kubelet_major == 1 && platform->kubernetes_version.empty()) {
      platform->kubernetes_version = fmt::format("1.{}", facts.kubelet_minor);
      platform->kubernetes_version_source =
          fmt::format("the lowest kubelet version of the nodes in {}, node {}",
                      written, facts.kubelet_node);
    } else if (facts.kubelet_major == 1 &&
               !platform->kubernetes_version_source.empty()) {
      // A second file with a lower kubelet.
      const int now = std::stoi(platform->kubernetes_version.substr(2));
      if (facts.kubelet_minor < now) {
        platform->kubernetes_version = fmt::format("1.{}", facts.kubelet_minor);
        platform->kubernetes_version_source = fmt::format(
            "the lowest kubelet version of the nodes in {}, node {}", written,
            facts.kubelet_node);
      }
    }
    auto& today = platform->dra_driver_today;
    if (facts.dra_driver && !today.found) {
      Check(IsDnsSubdomain(facts.dra_driver_release) &&
                facts.dra_driver_release.size() <= 53,
            written, "the release", facts.dra_driver_release);
      Check(IsDnsLabel(facts.dra_driver_namespace), written, "the namespace",
            facts.dra_driver_namespace);
      Check(IsDnsLabel(facts.dra_driver_name), written, "the chart name",
            facts.dra_driver_name);
      today.found = true;
      today.release = facts.dra_driver_release;
      today.namespace_name = facts.dra_driver_namespace;
      today.name = facts.dra_driver_name;
      today.version = facts.dra_driver_version;
      today.source = written;
    }
    if (facts.gpu_operator_driver) {
      platform->gpu_operator_driver = true;
    } else if (facts.gpu_operator && !platform->gpu_operator_driver) {
      platform->gpu_operator_driver = false;
    }
    for (const auto& dc : facts.device_classes) {
      bool have = false;
      for (const auto& d : platform->device_classes_today) {
        have = have || d.name == dc.name;
      }
      if (have) continue;
      platform->device_classes_today.push_back(
          {dc.name, dc.cel, dc.extended_resource_name, dc.has_config});
    }
  }
}

}  // namespace gpushare
