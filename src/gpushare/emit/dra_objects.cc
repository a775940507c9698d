#include "gpushare/emit/dra_objects.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/emit/comment_wrap.h"
#include "gpushare/emit/dra_claim.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/dra_feature_gates.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/run_pool.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {
namespace {

// What the file holds: the claims' templates and the MIG profile classes.
struct DraObjects {
  // (namespace, template name) → claim; profile class → profile.
  std::map<std::pair<std::string, std::string>, DraClaim> templates;
  std::map<std::string, std::string> mig_classes;
  // Shared claims: (namespace, name) → pods per claim.
  std::map<std::pair<std::string, std::string>, int> shared_sizes;
};

DraObjects CollectDraObjects(const Scenario& scenario, const Catalog& catalog) {
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  const DraPoolSettings driver = DraDriverSettings(scenario.pools);
  std::vector<Pod> pods = BuildWorkload(scenario.workload, scenario.seed);
  const RunPools run_pools(cluster);
  DraObjects o;
  std::map<std::pair<std::string, std::string>, int> claim_pods;
  for (Pod& pod : pods) {
    const int pool = run_pools.Of(pod);
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
          o.mig_classes[claim->device_class] = p.name;
        }
      }
    }
    if (!claim->extended_resource.empty()) continue;
    if (claim->shared) {
      const auto key = std::make_pair(
          pod.namespace_name, DraClaimTemplateName(pod.tenant_class, *claim));
      bool generated = false;
      for (const WorkloadClassSpec& c : scenario.workload.classes) {
        if (c.name == pod.tenant_class) {
          o.shared_sizes[key] = c.pods_per_claim;
          generated = true;
        }
      }
      if (!generated) {
        // Imported pods: as many as name the same claim (the most of any).
        const int n =
            ++claim_pods[std::make_pair(pod.namespace_name, pod.dra_claim)];
        o.shared_sizes[key] = std::max(o.shared_sizes[key], n);
      }
    }
    o.templates.emplace(
        std::make_pair(pod.namespace_name,
                       DraClaimTemplateName(pod.tenant_class, *claim)),
        *claim);
  }
  return o;
}

std::string CelList(const std::vector<std::string>& cel) {
  std::string out;
  for (const std::string& c : cel) out += (out.empty() ? "" : ", ") + c;
  return out.empty() ? "none" : out;
}

std::vector<std::string> ClassChanges(const Scenario& scenario,
                                      const DraObjects& o) {
  std::vector<std::string> out;
  for (const auto& [name, profile] : o.mig_classes) {
    const DeviceClass c = NvidiaMigProfileDeviceClass(profile);
    const std::vector<std::string> cel = {NvidiaMigProfileSelector(profile)};
    for (const auto& today : scenario.platform.device_classes_today) {
      if (today.name != name) continue;
      std::vector<std::string> what;
      if (today.cel != cel) {
        what.push_back(fmt::format("its selectors ({} today; {} in the file)",
                                   CelList(today.cel), CelList(cel)));
      }
      if (today.extended_resource_name != c.extended_resource_name) {
        what.push_back(fmt::format(
            "its extendedResourceName ({} today; {} in the file)",
            today.extended_resource_name.empty() ? "none"
                                                 : today.extended_resource_name,
            c.extended_resource_name));
      }
      if (today.has_config) {
        what.push_back("its config (the file's class has none)");
      }
      if (what.empty()) continue;
      std::string list;
      for (size_t i = 0; i < what.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == what.size() ? " and " : ", ") + what[i];
      }
      out.push_back(fmt::format(
          "DeviceClass {} exists in the cluster today with another spec: "
          "kubectl apply replaces {}; claims allocated under it keep their "
          "devices, new claims are matched by the file's",
          name, list));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> DraDeviceClassChanges(const Scenario& scenario,
                                               const Catalog& catalog) {
  return ClassChanges(scenario, CollectDraObjects(scenario, catalog));
}

std::string DraObjectsYaml(const Scenario& scenario, const Catalog& catalog) {
  CheckDraDriverFeatures(scenario);
  CheckDraKubernetes(scenario);
  const DraObjects o = CollectDraObjects(scenario, catalog);
  const auto& templates = o.templates;
  const auto& mig_classes = o.mig_classes;
  const auto& shared_sizes = o.shared_sizes;
  std::string out = fmt::format(
      "# DRA objects of scenario '{}' (written by gpushare-sim emit k8s): "
      "the\n# DeviceClasses of the MIG profiles the DRA pools' pods ask, which "
      "NVIDIA's DRA\n# driver chart does not install (it installs "
      "gpu.nvidia.com and mig.nvidia.com),\n# and per tenant class and "
      "namespace the ResourceClaimTemplate its pods'\n# claims are made "
      "from; the pod patches name them. Apply after the driver:\n"
      "#   kubectl apply -f dra-objects.yaml\n",
      CommentText(scenario.name));
  // What these objects use: v1; capacity.requests; extended resources.
  std::vector<DraApiFeature> needs;
  bool capacity = false;
  for (const auto& [key, claim] : templates) {
    capacity = capacity || claim.memory_mib > 0 || claim.shares > 0;
  }
  for (DraApiFeature f : DraFeaturesOf(scenario)) {
    if (f == DraApiFeature::kResourceV1 ||
        f == DraApiFeature::kExtendedResource ||
        (f == DraApiFeature::kConsumableCapacity && capacity)) {
      needs.push_back(f);
    }
  }
  if (needs.empty() && (!templates.empty() || !mig_classes.empty())) {
    needs.push_back(DraApiFeature::kResourceV1);
  }
  out += DraKubernetesNeeds(needs, scenario.platform);
  for (const std::string& change : ClassChanges(scenario, o)) {
    out += WrappedComment("Changes today's cluster: " + change + ".");
  }
  for (const auto& [name, profile] : mig_classes) {
    const DeviceClass c = NvidiaMigProfileDeviceClass(profile);
    out += fmt::format(
        "---\n# MIG profile {}; the API server keeps extendedResourceName "
        "only with the\n# DRAExtendedResource gate on (on by default from "
        "Kubernetes 1.36)\n"
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
