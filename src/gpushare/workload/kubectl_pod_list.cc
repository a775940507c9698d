#include "gpushare/workload/kubectl_pod_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/kubectl_mixed_list.h"
#include "gpushare/workload/kubectl_object.h"
#include "gpushare/workload/kubectl_resource_claims.h"
#include "gpushare/workload/kubernetes_time.h"

namespace gpushare {
namespace {

constexpr const char* kNvidiaPrefix = "nvidia.com/";

// A container's requests, with limits standing in for missing requests.
std::map<std::string, int64_t> ContainerRequests(const JsonValue& container) {
  std::map<std::string, int64_t> r;
  const JsonValue resources = container.Get("resources");
  for (const auto& [name, v] : resources.Get("limits").Members()) {
    r[name] = ReadResourceAmount(v, name);
  }
  for (const auto& [name, v] : resources.Get("requests").Members()) {
    r[name] = ReadResourceAmount(v, name);
  }
  return r;
}

// A container's cpu and memory as scoring counts them: its request (or
// limit), or the default when it names neither; an explicit 0 stays 0
// (component-helpers GetNonzeroRequestForResource).
NonZeroRequests ContainerNonZero(const std::map<std::string, int64_t>& r) {
  NonZeroRequests n;
  if (const auto it = r.find("cpu"); it != r.end()) n.cpu_milli = it->second;
  if (const auto it = r.find("memory"); it != r.end()) {
    n.memory_mib = it->second;
  }
  return n;
}

// The pod's effective requests: sum of containers, max with each init
// container (kube's resource.PodRequests without overhead); `nonzero` gets
// the same sum and max of each container's ContainerNonZero (PodRequests
// with NonMissingContainerRequests, as NodeResourcesFit scores).
std::map<std::string, int64_t> PodRequests(const JsonValue& spec,
                                           NonZeroRequests* nonzero) {
  std::map<std::string, int64_t> total;
  NonZeroRequests sum{0, 0};
  const std::vector<JsonValue> containers = spec.Get("containers").Items();
  if (containers.empty()) spec.Get("containers").Fail("a pod needs containers");
  for (const JsonValue& c : containers) {
    const std::map<std::string, int64_t> r = ContainerRequests(c);
    for (const auto& [name, n] : r) total[name] += n;
    const NonZeroRequests n = ContainerNonZero(r);
    sum.cpu_milli += n.cpu_milli;
    sum.memory_mib += n.memory_mib;
  }
  for (const JsonValue& c : spec.Get("initContainers").Items()) {
    const std::map<std::string, int64_t> r = ContainerRequests(c);
    for (const auto& [name, n] : r) total[name] = std::max(total[name], n);
    const NonZeroRequests n = ContainerNonZero(r);
    sum.cpu_milli = std::max(sum.cpu_milli, n.cpu_milli);
    sum.memory_mib = std::max(sum.memory_mib, n.memory_mib);
  }
  *nonzero = sum;
  return total;
}

NodeSelectorRequirement ReadRequirement(const JsonValue& r, bool field) {
  NodeSelectorRequirement req;
  req.key = r.Get("key").String();
  if (req.key.empty()) r.Get("key").Fail("a requirement needs a key");
  if (field) {
    if (req.key != "metadata.name") {
      r.Get("key").Fail("matchFields supports only metadata.name");
    }
    req.key = "kubernetes.io/hostname";
  }
  using Op = NodeSelectorRequirement::Operator;
  static const std::pair<const char*, Op> kOps[] = {
      {"In", Op::kIn},         {"NotIn", Op::kNotIn},
      {"Exists", Op::kExists}, {"DoesNotExist", Op::kDoesNotExist},
      {"Gt", Op::kGt},         {"Lt", Op::kLt}};
  const std::string op = r.Get("operator").String();
  bool found = false;
  for (const auto& [name, value] : kOps) {
    if (op == name) {
      req.op = value;
      found = true;
    }
  }
  if (!found) {
    r.Get("operator")
        .Fail("expected In, NotIn, Exists, DoesNotExist, Gt or Lt, got '" + op +
              "'");
  }
  for (const JsonValue& v : r.Get("values").Items()) {
    req.values.push_back(v.String());
  }
  return req;
}

NodeSelectorTerm ReadTerm(const JsonValue& t) {
  NodeSelectorTerm term;
  for (const JsonValue& r : t.Get("matchExpressions").Items()) {
    term.match_expressions.push_back(ReadRequirement(r, false));
  }
  for (const JsonValue& r : t.Get("matchFields").Items()) {
    term.match_expressions.push_back(ReadRequirement(r, true));
  }
  return term;
}

// The smallest memory and the GPU fraction of a MIG profile advertised as
// nvidia.com/mig-<name>, over the catalog; false when no model has it.
bool MigProfileNeeds(const Catalog& catalog, const std::string& resource,
                     int64_t* memory_mib, double* fraction) {
  bool found = false;
  for (const GpuModel& m : catalog.models()) {
    if (!m.mig_capable()) continue;
    for (const MigProfile& p : m.mig->profiles) {
      if (p.ResourceName() != resource) continue;
      if (!found || p.memory_mib < *memory_mib) {
        *memory_mib = p.memory_mib;
        *fraction = static_cast<double>(p.compute_slices) /
                    static_cast<double>(m.mig->compute_slices);
      }
      found = true;
    }
  }
  return found;
}

// Needs from the nvidia.com requests (see the header).
void DeriveNeeds(const JsonValue& at, const std::map<std::string, int64_t>& r,
                 const Catalog& catalog, const TraceDefaults& d, Pod* pod) {
  auto get = [&](std::string_view name) {
    auto it = r.find(std::string(name));
    return it == r.end() ? int64_t{0} : it->second;
  };
  PodNeeds& n = pod->needs;
  n.duty = d.duty;
  n.work_s = d.work_s;
  n.lifetime_s = d.work_s > 0 ? 0 : d.lifetime_s;
  const int64_t gpus = std::max(get(kNvidiaGpu), get(kNvidiaGpuShared));
  const int64_t gpumem = get(kHamiGpuMem);
  const int64_t percentage = std::min<int64_t>(get(kHamiGpuMemPercentage), 100);
  const int64_t cores = std::min<int64_t>(get(kHamiGpuCores), 100);
  const double whole_mib = static_cast<double>(d.gpu_memory_mib);
  bool cores_known = false;
  for (const auto& [name, count] : r) {
    if (name.rfind(kMigResourcePrefix, 0) != 0 || count <= 0) continue;
    std::string resource = name;
    const std::string shared = ".shared";
    if (resource.size() > shared.size() &&
        resource.compare(resource.size() - shared.size(), shared.size(),
                         shared) == 0) {
      resource.resize(resource.size() - shared.size());
    }
    int64_t memory = 0;
    double fraction = 0;
    if (!MigProfileNeeds(catalog, resource, &memory, &fraction)) {
      at.Get(name).Fail("no GPU model of the catalog has the MIG profile of " +
                        name);
    }
    n.gpus = count == 1 ? fraction : static_cast<double>(count);
    n.gpu_memory_mib = memory;
    n.sm_demand = d.sm_demand >= 0 ? d.sm_demand : fraction;
    return;
  }
  if (gpus == 0 && gpumem == 0 && percentage == 0 && cores == 0) return;
  const int64_t count = std::max<int64_t>(gpus, 1);  // HAMi's webhook adds 1
  const bool partial = (cores > 0 && cores < 100) ||
                       (percentage > 0 && percentage < 100) ||
                       (gpumem > 0 && percentage == 0);
  if (count == 1 && partial) {
    double f = 0;
    if (cores > 0 && cores < 100) {
      f = static_cast<double>(cores) / 100.0;
      cores_known = true;
    } else if (percentage > 0 && percentage < 100) {
      f = static_cast<double>(percentage) / 100.0;
    } else {
      f = static_cast<double>(gpumem) / whole_mib;
    }
    n.gpus = std::clamp(f, 0.01, 0.99);
  } else {
    n.gpus = static_cast<double>(count);
  }
  if (gpumem > 0) {
    n.gpu_memory_mib = gpumem;
  } else if (percentage > 0) {
    n.gpu_memory_mib = std::llround(whole_mib * percentage / 100.0);
  } else {
    n.gpu_memory_mib = std::llround(whole_mib * std::min(1.0, n.gpus));
  }
  n.sm_demand = cores_known && d.sm_demand < 0
                    ? static_cast<double>(cores) / 100.0
                    : d.SmDemandFor(n.gpus);
}

// Needs from the GPU demand of a pod's DRA claims (kubectl_resource_claims
// .h), as DeriveNeeds makes them from nvidia.com/gpu and nvidia.com/mig-*.
void DeriveDraNeeds(const JsonValue& at, const DraPodDemand& demand,
                    const Catalog& catalog, const TraceDefaults& d, Pod* pod) {
  PodNeeds& n = pod->needs;
  if (demand.mig_devices > 0) {
    int64_t memory = 0;
    double fraction = 0;
    bool found = false;
    for (const GpuModel& m : catalog.models()) {
      if (found || !m.mig_capable()) continue;
      for (const MigProfile& p : m.mig->profiles) {
        if (p.name == demand.mig_profile) {
          found = MigProfileNeeds(catalog, p.ResourceName(), &memory, &fraction);
          break;
        }
      }
    }
    if (!found) {
      at.Fail("no GPU model of the catalog has the MIG profile " +
              demand.mig_profile);
    }
    n.gpus = demand.mig_devices == 1 ? fraction
                                     : static_cast<double>(demand.mig_devices);
    n.gpu_memory_mib = memory;
    n.sm_demand = d.sm_demand >= 0 ? d.sm_demand : fraction;
    return;
  }
  n.gpus = static_cast<double>(demand.whole_gpus);
  n.gpu_memory_mib =
      demand.memory_mib > 0 ? demand.memory_mib : d.gpu_memory_mib;
  n.sm_demand = d.SmDemandFor(n.gpus);
}

// status.startTime, else metadata.creationTimestamp, in Unix seconds; -1
// without either. A time that is not RFC 3339 fails at its path.
double KubectlPodTime(const JsonValue& item) {
  for (const JsonValue& v : {item.Get("status").Get("startTime"),
                             item.Get("metadata").Get("creationTimestamp")}) {
    if (v.Missing()) continue;
    double t = 0;
    if (!ParseKubernetesTime(v.String(), &t) || t < 0) {
      v.Fail("expected an RFC 3339 time such as 2024-12-06T16:00:00Z");
    }
    return t;
  }
  return -1;
}

}  // namespace

std::vector<Pod> ParseKubectlPods(const std::string& file,
                                  const std::string& text,
                                  const Catalog& catalog,
                                  const KubectlPodOptions& options,
                                  std::vector<std::string>* notes) {
  std::vector<Pod> bound;
  std::vector<Pod> pending;
  std::set<std::string> names;
  KubectlDraItems dra;
  const std::vector<JsonValue> items =
      KubectlMixedItems(file, text, "Pod", "Node", &dra);
  std::unique_ptr<KubectlDraClaims> claims;
  if (!dra.empty()) claims = std::make_unique<KubectlDraClaims>(dra, catalog);
  int dra_pods = 0;
  if (claims != nullptr) {
    // Which ResourceClaims several pods that hold devices name (shared).
    for (const JsonValue& item : items) {
      const std::string phase =
          item.Get("status").Get("phase").String("Pending");
      if (phase != "Running" && phase != "Pending") continue;
      std::string ns = item.Get("metadata").Get("namespace").String("default");
      if (ns.empty()) ns = "default";
      claims->CountClaimReferences(item, ns);
    }
  }
  for (const JsonValue& item : items) {
    const JsonValue metadata = item.Get("metadata");
    const JsonValue spec = item.Get("spec");
    const std::string phase = item.Get("status").Get("phase").String("Pending");
    Pod pod;
    pod.name = metadata.Get("name").String();
    if (pod.name.empty()) metadata.Get("name").Fail("a pod needs a name");
    pod.namespace_name = metadata.Get("namespace").String("default");
    if (pod.namespace_name.empty()) pod.namespace_name = "default";
    if (!names.insert(pod.namespace_name + "/" + pod.name).second) {
      metadata.Get("name").Fail("pod " + pod.namespace_name + "/" + pod.name +
                                " is listed twice");
    }
    if (phase != "Running" && phase != "Pending") {
      if (phase != "Succeeded" && phase != "Failed" && phase != "Unknown") {
        item.Get("status").Get("phase").Fail(
            "expected Pending, Running, Succeeded, Failed or Unknown, got '" +
            phase + "'");
      }
      continue;
    }
    // Names are unique per namespace only.
    pod.name = pod.namespace_name + "/" + pod.name;
    pod.generate_name = metadata.Get("generateName").String();
    pod.dump_time_unix_s = KubectlPodTime(item);
    const Labels labels = ReadStringMap(metadata.Get("labels"));
    // Kueue's kueue.x-k8s.io/queue-name label: its LocalQueue (used when the
    // scenario has queues).
    if (auto q = labels.find("kueue.x-k8s.io/queue-name"); q != labels.end()) {
      pod.queue_name = q->second;
    } else if (auto k = labels.find("kai.scheduler/queue"); k != labels.end()) {
      // KAI-Scheduler's queue label (used when the scenario has kai_queues).
      pod.queue_name = k->second;
    }
    if (!spec.Get("priority").Missing()) {
      pod.priority =
          static_cast<int32_t>(spec.Get("priority")
                                   .Int(std::numeric_limits<int32_t>::min(),
                                        std::numeric_limits<int32_t>::max()));
    }
    pod.priority_class_name = spec.Get("priorityClassName").String("");
    const std::string preemption =
        spec.Get("preemptionPolicy").String("PreemptLowerPriority");
    if (preemption == "Never") {
      pod.preemption_policy = PreemptionPolicy::kNever;
    } else if (preemption != "PreemptLowerPriority") {
      spec.Get("preemptionPolicy")
          .Fail("expected PreemptLowerPriority or Never, got '" + preemption +
                "'");
    }
    if (!spec.Get("terminationGracePeriodSeconds").Missing()) {
      pod.termination_grace_period_s = static_cast<double>(
          spec.Get("terminationGracePeriodSeconds").Int(0, 1000000000));
    }
    const std::string restart = spec.Get("restartPolicy").String("Always");
    if (restart == "Always") {
      pod.restart_policy = RestartPolicy::kAlways;
    } else if (restart == "OnFailure") {
      pod.restart_policy = RestartPolicy::kOnFailure;
    } else if (restart == "Never") {
      pod.restart_policy = RestartPolicy::kNever;
    } else {
      spec.Get("restartPolicy")
          .Fail("expected Always, OnFailure or Never, got '" + restart + "'");
    }
    NonZeroRequests nonzero;
    const std::map<std::string, int64_t> requests = PodRequests(spec, &nonzero);
    pod.nonzero_cpu_milli = nonzero.cpu_milli;
    pod.nonzero_memory_mib = nonzero.memory_mib;
    bool gpu = false;
    for (const auto& [name, n] : requests) {
      if (name == "cpu") {
        pod.cpu_milli = n;
      } else if (name == "memory") {
        pod.memory_mib = n;
      } else if (name.rfind(kNvidiaPrefix, 0) == 0 && n > 0) {
        pod.explicit_requests.emplace_back(name, n);
        gpu = true;
      }
    }
    DraPodDemand demand;
    const JsonValue claim_refs = spec.Get("resourceClaims");
    if (!claim_refs.Items().empty()) {
      if (claims == nullptr) {
        claim_refs.Fail(
            "the pod has ResourceClaims but the list holds no DRA objects; "
            "list them with the pods: kubectl get pods,resourceclaims,"
            "resourceclaimtemplates,deviceclasses -A -o json");
      }
      demand = claims->PodDemand(item, pod.namespace_name);
    }
    if (options.gpu_pods_only && !gpu && !demand.any() &&
        demand.unallocatable.empty()) {
      continue;
    }
    pod.dra_unallocatable = demand.unallocatable;
    // Errors about a request point at the first container's requests.
    const JsonValue first_requests =
        spec.Get("containers").Items().front().Get("resources").Get("requests");
    DeriveNeeds(first_requests, requests, catalog, options.defaults, &pod);
    if (demand.any() && pod.needs.gpus == 0) {
      DeriveDraNeeds(claim_refs, demand, catalog, options.defaults, &pod);
      // Whole GPUs: what the claim asks of each device's `memory` capacity
      // is consumed on a consumable-shares node (request_translator.h).
      if (demand.mig_devices == 0) pod.dra_claim_memory_mib = demand.memory_mib;
      // A claim several pods name: allocated once, its pods run on its
      // devices (sched/scheduler.h, "Shared ResourceClaims").
      pod.dra_claim = demand.shared_claim;
      pod.dra_device_class = demand.mig_devices > 0
                                 ? NvidiaMigProfileClassName(demand.mig_profile)
                                 : std::string(kNvidiaGpuDriver);
      ++dra_pods;
    }
    ClassifyKubectlPod(metadata, labels, options.classes, options.defaults,
                       &pod);
    pod.node_selector = ReadStringMap(spec.Get("nodeSelector"));
    const JsonValue affinity = spec.Get("affinity").Get("nodeAffinity");
    for (const JsonValue& t :
         affinity.Get("requiredDuringSchedulingIgnoredDuringExecution")
             .Get("nodeSelectorTerms")
             .Items()) {
      pod.required_affinity.push_back(ReadTerm(t));
    }
    for (const JsonValue& p :
         affinity.Get("preferredDuringSchedulingIgnoredDuringExecution")
             .Items()) {
      PreferredSchedulingTerm term;
      term.weight = static_cast<int32_t>(p.Get("weight").Int(1, 100));
      term.preference = ReadTerm(p.Get("preference"));
      pod.preferred_affinity.push_back(term);
    }
    for (const JsonValue& t : spec.Get("tolerations").Items()) {
      pod.tolerations.push_back(ReadKubectlToleration(t));
    }
    pod.node_name = spec.Get("nodeName").String();
    if (phase == "Running" && pod.node_name.empty()) {
      spec.Fail("a Running pod needs spec.nodeName");
    }
    pod.running_in_dump = phase == "Running";
    // A pending pod whose claim is allocated goes to the claim's node.
    if (pod.node_name.empty()) pod.node_name = demand.allocated_node;
    pod.dra_gpu_models = demand.gpu_models;
    // It keeps the devices its claims hold (docs/scenario.md).
    if (!pod.node_name.empty() && pod.node_name == demand.allocated_node) {
      pod.recorded_devices = demand.allocated_devices;
    }
    (pod.node_name.empty() ? pending : bound).push_back(std::move(pod));
  }
  for (Pod& p : pending) bound.push_back(std::move(p));
  if (notes != nullptr && claims != nullptr) {
    if (dra_pods > 0) {
      notes->push_back(fmt::format(
          "{} pod(s) with ResourceClaims of NVIDIA GPUs imported with the "
          "GPUs their claims ask",
          dra_pods));
    }
    for (std::string& note : claims->Notes()) notes->push_back(std::move(note));
  }
  return bound;
}

std::vector<Pod> ReadKubectlPods(const std::string& path,
                                 const Catalog& catalog,
                                 const KubectlPodOptions& options,
                                 std::vector<std::string>* notes) {
  return ParseKubectlPods(path, ReadInputFile(path), catalog, options, notes);
}

}  // namespace gpushare
