#include "gpushare/emit/dra_objects.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/emit/dra_claim.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {

std::string DraObjectsYaml(const Scenario& scenario, const Catalog& catalog) {
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  const DraPoolSettings driver = DraDriverSettings(scenario.pools);
  std::vector<Pod> pods = BuildWorkload(scenario.workload, scenario.seed);
  // (namespace, template name) → claim; profile class → profile.
  std::map<std::pair<std::string, std::string>, DraClaim> templates;
  std::map<std::string, std::string> mig_classes;
  // Shared claims: (namespace, name) → pods per claim.
  std::map<std::pair<std::string, std::string>, int> shared_sizes;
  for (Pod& pod : pods) {
    const int pool = TargetPool(pod, cluster);
    if (pool < 0) continue;
    const NodePool& target = cluster.pools()[pool];
    if (target.spec.devices != PoolDevices::kDra) continue;
    if (!TranslateRequests(pod, target, cluster.resources(),
                           scenario.translation)
             .empty()) {
      continue;
    }
    const std::optional<DraClaim> claim =
        DraClaimOf(pod, target, cluster.resources(), driver);
    if (!claim) continue;
    if (claim->device_class != kNvidiaGpuDriver && target.model->mig) {
      for (const MigProfile& p : target.model->mig->profiles) {
        if (NvidiaMigProfileClassName(p.name) == claim->device_class) {
          mig_classes[claim->device_class] = p.name;
        }
      }
    }
    if (!claim->extended_resource.empty()) continue;
    if (claim->shared) {
      for (const WorkloadClassSpec& c : scenario.workload.classes) {
        if (c.name == pod.tenant_class) {
          shared_sizes[std::make_pair(
              pod.namespace_name,
              DraClaimTemplateName(pod.tenant_class, *claim))] =
              c.pods_per_claim;
        }
      }
    }
    templates.emplace(
        std::make_pair(pod.namespace_name,
                       DraClaimTemplateName(pod.tenant_class, *claim)),
        *claim);
  }
  std::string out = fmt::format(
      "# DRA objects of scenario '{}' (written by gpushare-sim emit k8s): "
      "the\n# DeviceClasses of the MIG profiles the DRA pools' pods ask, which "
      "NVIDIA's DRA\n# driver chart does not install (it installs "
      "gpu.nvidia.com and mig.nvidia.com),\n# and per tenant class and "
      "namespace the ResourceClaimTemplate its pods'\n# claims are made "
      "from; the pod patches name them. resource.k8s.io/v1\n# "
      "(Kubernetes 1.34+). Apply after the driver:\n#   kubectl apply -f "
      "dra-objects.yaml\n",
      CommentText(scenario.name));
  if (!shared_sizes.empty()) {
    out +=
        "# A class whose pods share claims (dra_claim) gets a ResourceClaim "
        "they name\n# (resourceClaimName) instead of a template.\n";
  }
  for (const auto& [name, profile] : mig_classes) {
    const DeviceClass c = NvidiaMigProfileDeviceClass(profile);
    out += fmt::format(
        "---\n# MIG profile {}; extendedResourceName needs the "
        "DRAExtendedResource gate\n# (beta) to be kept by the API server\n"
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
        "  name: {}\nspec:\n  selectors:\n    - cel:\n        expression: "
        "{}\n  extendedResourceName: {}\n",
        CommentText(profile), YamlScalar(c.name),
        YamlQuoted(NvidiaMigProfileSelector(profile)),
        YamlScalar(c.extended_resource_name));
  }
  for (const auto& [key, claim] : templates) {
    out += fmt::format("---\n# pool {}, {} device{} of {}\n",
                       CommentText(claim.pool), claim.count,
                       claim.count == 1 ? "" : "s",
                       CommentText(claim.device_class));
    if (claim.shared) {
      const auto size = shared_sizes.find(key);
      out += fmt::format(
          "# A ResourceClaim shared by {} pods (dra_claim pods_per_claim): "
          "the first\n# to be scheduled allocates it and the others run on "
          "its node and device{};\n# it is freed when the last of them ends. "
          "Make one per group of {} pods\n# (a Deployment of {} replicas "
          "naming it), renamed for each group.\n",
          size->second, claim.count == 1 ? "" : "s", size->second,
          size->second);
      if (claim.mps) {
        out +=
            "# Its pods share the GPU through one MPS control daemon "
            "(feature gate\n# MPSSupport, alpha).\n";
      }
    } else if (claim.mps) {
      out +=
          "# Each pod's claim starts an MPS control daemon on its GPU "
          "(feature gate\n# MPSSupport, alpha); a GPU shared by several "
          "pods needs dra_claim.\n";
    }
    out += ResourceClaimTemplateYaml(key.first, key.second, claim);
  }
  return out;
}

}  // namespace gpushare
