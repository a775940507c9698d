#include "gpushare/emit/pod_template_patches.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/emit/dra_claim.h"
#include "gpushare/emit/pod_patch_removals.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/run_pool.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/sched/kueue/kueue_config.h"
#include "gpushare/workload/engine_memory_fraction.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {
namespace {

// One distinct request of a class: pool and extended resources.
struct RequestKey {
  int pool = -1;
  std::vector<std::pair<std::string, int64_t>> resources;  // by name
  std::vector<std::string> pin;  // the pools PinToTargetPool pinned it to
  // A DRA pool's claim: the ResourceClaimTemplate the pod names
  // (emit/dra_claim.h); "" elsewhere, and for a claim served through the
  // class's extended resource (KEP-5004), which is in `resources`.
  std::string dra_template;
  // The claim is a shared ResourceClaim of that name (resourceClaimName).
  bool dra_shared = false;
  bool operator<(const RequestKey& o) const {
    return std::tie(pool, resources, pin, dra_template, dra_shared) <
           std::tie(o.pool, o.resources, o.pin, o.dra_template, o.dra_shared);
  }
};

// The pods of one request, and those whose own footprint is above the
// memory it grants (OOM-killed when they start: HAMi's gpumem, the MIG
// instance).
struct RequestGroupPods {
  int64_t pods = 0;
  int64_t largest_mib = 0;  // the largest footprint of its pods
  int64_t above = 0;
  int64_t largest_above_mib = 0;
  int64_t granted_mib = 0;
};

struct ClassPods {
  int64_t pods = 0;
  std::map<RequestKey, RequestGroupPods> groups;
  std::map<std::string, int64_t> unrunnable;  // reason → pods
  const Pod* example = nullptr;               // tolerations, queue
  Labels node_selector;  // the example's, as written (before any pin)
  std::vector<NodeSelectorTerm> required_affinity;  // likewise
};

const char* OperatorName(NodeSelectorRequirement::Operator op) {
  using Op = NodeSelectorRequirement::Operator;
  switch (op) {
    case Op::kIn:
      return "In";
    case Op::kNotIn:
      return "NotIn";
    case Op::kExists:
      return "Exists";
    case Op::kDoesNotExist:
      return "DoesNotExist";
    case Op::kGt:
      return "Gt";
    case Op::kLt:
      return "Lt";
  }
  return "In";
}

// `terms` as a strategic merge patch's nodeSelectorTerms: the list is
// replaced whole, so it carries the workload's own terms with the pin.
std::string AffinityPatch(const std::vector<NodeSelectorTerm>& terms) {
  std::string out =
      "      affinity:\n        nodeAffinity:\n"
      "          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "            nodeSelectorTerms:\n";
  for (const NodeSelectorTerm& term : terms) {
    out += "              - matchExpressions:\n";
    for (const NodeSelectorRequirement& r : term.match_expressions) {
      out += fmt::format(
          "                  - key: {}\n"
          "                    operator: {}\n",
          YamlQuoted(r.key), OperatorName(r.op));
      if (r.values.empty()) continue;
      out += "                    values:\n";
      for (const std::string& v : r.values) {
        out += fmt::format("                      - {}\n", YamlQuoted(v));
      }
    }
  }
  return out;
}

// An LLM engine's memory cap (docs/emit.md, "LLM engines"): on a GPU shared
// without memory isolation (time-slicing, whole GPUs or MIG instances), an
// inference class's engine — or any class that names its engine — may use
// `hundredths` / 100 of the memory it sees: its request over that memory,
// rounded down to 2 decimals (at least 0.01).
struct EngineCap {
  bool set = false;
  InferenceEngine engine = InferenceEngine::kNone;
  int64_t hundredths = 0;
  int64_t request_mib = 0;
  int64_t visible_mib = 0;
  std::string Fraction() const {
    return fmt::format("{}.{:02d}", hundredths / 100, hundredths % 100);
  }
  // The environment variable the patch sets.
  const char* EnvName() const {
    return engine == InferenceEngine::kTgi ? "CUDA_MEMORY_FRACTION"
                                           : "GPUSHARE_GPU_MEMORY_FRACTION";
  }
};

EngineCap EngineCapOf(WorkloadClass workload_class, InferenceEngine engine,
                      const Pod& example, const NodePool& pool,
                      const RequestGroupPods& g) {
  EngineCap cap;
  if ((workload_class != WorkloadClass::kInference &&
       engine == InferenceEngine::kNone) ||
      pool.model == nullptr ||
      pool.spec.sharing.sharing != DeviceSharing::kTimeSlicing) {
    return cap;
  }
  cap.visible_mib =
      pool.spec.sharing.mig_enabled ? g.granted_mib : pool.model->memory_mib;
  cap.request_mib = example.template_request.set()
                        ? example.template_request.gpu_memory_mib
                        : g.largest_mib;
  // The simulation's engines pre-allocate the same share under `auto`
  // (workload/engine_memory_fraction.h).
  cap.hundredths =
      TimeSlicedEngineCapHundredths(cap.request_mib, cap.visible_mib);
  if (cap.hundredths <= 0) return cap;
  cap.set = true;
  cap.engine = engine;
  return cap;
}

// The engine the scenario's class `name` declares (none for trace classes).
InferenceEngine EngineOf(const Scenario& scenario, const std::string& name) {
  for (const WorkloadClassSpec& c : scenario.workload.classes) {
    if (c.name == name) return c.engine;
  }
  return InferenceEngine::kNone;
}

// The comment over a patch that caps an engine.
std::string EngineCapComment(const EngineCap& cap) {
  if (!cap.set) return "";
  std::string out = fmt::format(
      "# LLM engines pre-allocate most of the GPU memory they see (vLLM "
      "0.92, TGI all),\n# and time-slicing does not isolate it: replicas "
      "sharing a GPU OOM at start\n# unless each is capped. Cap: {} ({} MiB, "
      "the class's request, of {} MiB), in\n# env {}.\n",
      cap.Fraction(), cap.request_mib, cap.visible_mib, cap.EnvName());
  switch (cap.engine) {
    case InferenceEngine::kTgi:
      out +=
          "# TGI's launcher reads CUDA_MEMORY_FRACTION (--cuda-memory-"
          "fraction).\n";
      break;
    case InferenceEngine::kVllm:
      out +=
          "# vLLM: add --gpu-memory-utilization=$(GPUSHARE_GPU_MEMORY_FRACTION)"
          "\n# to the container's args once (Kubernetes expands $(VAR) from "
          "its env; a\n# strategic merge patch would replace the args "
          "whole).\n";
      break;
    case InferenceEngine::kNone:
      out +=
          "# vLLM: add --gpu-memory-utilization=$(GPUSHARE_GPU_MEMORY_FRACTION)"
          " to its args;\n# TGI: --cuda-memory-fraction=$(GPUSHARE_GPU_MEMORY_"
          "FRACTION) (or engine: tgi\n# in the class sets TGI's "
          "CUDA_MEMORY_FRACTION here).\n";
      break;
  }
  return out;
}

// What every patch of a run writes besides its class's own: the GPU
// resource names of the cluster (today and after the plan), whether HAMi or
// DRA runs in it, and the scheduler of the pods no other scheduler takes.
struct PatchContext {
  ClusterGpuSchemes schemes;
  std::string scheduler;  // the scenario's scheduler profile's name
  bool kai = false;       // the scenario has KAI queues
};

// `names` as the entries of a ResourceList patch at `indent`: the quantities
// the class asks, then `null` for every other GPU resource of the cluster
// (a strategic merge deletes a key set to null).
std::string ResourceListPatch(
    const std::vector<std::pair<std::string, int64_t>>& asked,
    const std::set<std::string>& cluster_names, const char* indent) {
  std::string out;
  std::set<std::string> asked_names;
  for (const auto& [name, quantity] : asked) {
    out += fmt::format("{}{}: {}\n", indent, YamlScalar(name), quantity);
    asked_names.insert(name);
  }
  for (const std::string& name : cluster_names) {
    if (asked_names.count(name) == 0) {
      out += fmt::format("{}{}: null\n", indent, YamlScalar(name));
    }
  }
  return out;
}

std::string Patch(const Pod& pod, const Labels& node_selector,
                  const std::vector<NodeSelectorTerm>& required_affinity,
                  const NodePool& pool, const RequestKey& key,
                  const EngineCap& cap, const PatchContext& ctx) {
  const bool kai = ctx.kai;
  const bool hami_pool = pool.spec.sharing.sharing == DeviceSharing::kHami;
  std::string out;
  if (!pod.queue_name.empty() && !kai) {
    // Kueue's Job, Deployment and StatefulSet integrations read the queue
    // label on the workload's own metadata.
    out += fmt::format("metadata:\n  labels:\n    {}: {}\n",
                       YamlQuoted(std::string(kKueueQueueNameLabel)),
                       YamlQuoted(pod.queue_name));
  }
  out += "spec:\n  template:\n";
  std::string pod_labels;
  if (!pod.queue_name.empty()) {
    // Kueue's pod integration reads the label on the pod (it leaves a pod
    // whose Job Kueue manages to the Job); KAI-Scheduler reads its queue
    // label on the pod or its PodGroup.
    pod_labels += fmt::format("        {}: {}\n",
                              YamlQuoted(kai ? std::string(kKaiQueueLabel)
                                             : std::string(kKueueQueueNameLabel)),
                              YamlQuoted(pod.queue_name));
  }
  if (ctx.schemes.hami) {
    // HAMi's webhook skips pods with this label (its objectSelector); a
    // class on a HAMi pool needs the webhook, so it deletes the label.
    pod_labels += fmt::format(
        "        {}: {}\n", YamlQuoted(std::string(kHamiWebhookLabel)),
        hami_pool ? std::string("null")
                  : YamlQuoted(std::string(kHamiWebhookIgnore)));
  }
  if (!pod_labels.empty()) {
    out += "    metadata:\n      labels:\n" + pod_labels;
  }
  out += "    spec:\n";
  // Always set: a strategic merge keeps the old schedulerName otherwise.
  const std::string scheduler =
      hami_pool                          ? std::string(kHamiSchedulerName)
      : kai && !pod.queue_name.empty() ? std::string(kKaiSchedulerName)
                                         : ctx.scheduler;
  out += fmt::format("      schedulerName: {}\n", YamlScalar(scheduler));
  Labels selector = node_selector;
  if (key.pin.size() == 1) selector[kNodePoolLabel] = key.pin.front();
  out += "      nodeSelector:\n";
  for (const auto& [k, v] : selector) {
    out += fmt::format("        {}: {}\n", YamlQuoted(k), YamlQuoted(v));
  }
  if (selector.count(kNodePoolLabel) == 0) {
    // A pin an earlier patch set.
    out += fmt::format("        {}: null\n",
                       YamlQuoted(std::string(kNodePoolLabel)));
  }
  if (key.pin.size() > 1) {
    std::vector<NodeSelectorTerm> terms = required_affinity;
    RequireNodePools(key.pin, &terms);
    out += AffinityPatch(terms);
  }
  if (!pod.tolerations.empty()) {
    out += "      tolerations:\n";
    for (const Toleration& t : pod.tolerations) {
      out += fmt::format(
          "        - key: {}\n          operator: {}\n", YamlQuoted(t.key),
          t.op == Toleration::Operator::kExists ? "Exists" : "Equal");
      if (t.op == Toleration::Operator::kEqual) {
        out += fmt::format("          value: {}\n", YamlQuoted(t.value));
      }
      if (!t.any_effect) {
        out += fmt::format("          effect: {}\n", TaintEffectName(t.effect));
      }
    }
  }
  const bool claim = !key.dra_template.empty();
  if (claim) {
    // The pod's claim from its template, or the shared claim its pods name
    // (resource.k8s.io/v1; core/v1 PodResourceClaim, which names exactly
    // one), consumed by the GPU container. resourceClaims merge by name.
    out += fmt::format(
        "      resourceClaims:\n        - name: {}\n"
        "          {}: {}\n          {}: null\n",
        kDraClaimName,
        key.dra_shared ? "resourceClaimName" : "resourceClaimTemplateName",
        YamlScalar(key.dra_template),
        key.dra_shared ? "resourceClaimTemplateName" : "resourceClaimName");
  } else if (ctx.schemes.dra) {
    // The claim an earlier DRA patch gave the pod.
    out += fmt::format(
        "      resourceClaims:\n        - name: {}\n"
        "          $patch: delete\n",
        kDraClaimName);
  }
  out += "      containers:\n        - name: main\n";
  if (cap.set) {
    // env merges by name in a strategic merge patch: the container keeps
    // its own variables.
    out += fmt::format(
        "          env:\n            - name: {}\n              value: "
        "\"{}\"\n",
        cap.EnvName(), cap.Fraction());
  }
  const bool lists =
      !key.resources.empty() || !ctx.schemes.resource_names.empty();
  if (!lists && !claim && !ctx.schemes.dra) return out;
  out += "          resources:\n";
  if (lists) {
    // Extended resources: requests equal to limits (or left to default to
    // them), so both are written.
    const std::string entries = ResourceListPatch(
        key.resources, ctx.schemes.resource_names, "              ");
    out += "            limits:\n" + entries + "            requests:\n" +
           entries;
  }
  if (claim) {
    // resources.claims has no patch strategy: the list is replaced whole.
    out += fmt::format(
        "            claims:\n              - name: {}\n", kDraClaimName);
  } else if (ctx.schemes.dra) {
    out += "            claims: null\n";
  }
  return out;
}

// The memory a pod's translated request grants it per GPU where the
// scheme enforces it (HAMi's gpumem, the MIG instance's); -1 elsewhere.
int64_t GrantedMemoryMib(const Pod& pod, const NodePool& pool,
                         const ResourceRegistry& registry) {
  if (pool.model == nullptr) return -1;
  if (pool.spec.devices == PoolDevices::kDra) {
    // The MIG device of the claim's per-profile class.
    const std::optional<DraClaim> claim = DraClaimOf(pod, pool, registry);
    if (!claim || !pool.model->mig) return -1;
    for (const MigProfile& p : pool.model->mig->profiles) {
      if (NvidiaMigProfileClassName(p.name) == claim->device_class) {
        return p.memory_mib;
      }
    }
    return -1;
  }
  switch (pool.spec.sharing.scheme()) {
    case SharingScheme::kHami: {
      const ResourceId mem = registry.Find(kHamiGpuMem);
      return mem >= 0 && pod.requests.Get(mem) > 0 ? pod.requests.Get(mem)
                                                    : pool.model->memory_mib;
    }
    case SharingScheme::kMig: {
      if (!pool.model->mig) return -1;
      int64_t granted = -1;
      for (const MigProfile& p : pool.model->mig->profiles) {
        const ResourceId id = registry.Find(p.ResourceName());
        if (id >= 0 && pod.requests.Get(id) > 0) granted = p.memory_mib;
      }
      if (granted < 0 && !pool.mig_layouts.empty() &&
          !pool.mig_layouts.front().empty()) {
        // Single strategy: nvidia.com/gpu is the pool's one profile.
        granted = pool.model->mig
                      ->profiles[pool.mig_layouts.front().front().profile]
                      .memory_mib;
      }
      return granted;
    }
    default:
      return -1;
  }
}

// The comment on a request's pods whose footprint is above what it grants.
std::string AboveRequestComment(const RequestGroupPods& g, const NodePool& pool) {
  if (g.above == 0) return "";
  return fmt::format(
      "# {} of them need more than the {} MiB it grants (up to {} MiB): "
      "OOM-killed\n# at start under {}'s memory limit; a higher "
      "request_percentile covers them\n",
      g.above, g.granted_mib, g.largest_above_mib,
      SharingSchemeDisplayName(pool.spec.sharing.scheme()));
}

// The comment over a patch that opts its pods out of HAMi's webhook.
std::string WebhookComment(const PatchContext& ctx, const NodePool& pool) {
  if (!ctx.schemes.hami || pool.spec.sharing.sharing == DeviceSharing::kHami) {
    return "";
  }
  return "# hami.io/webhook: ignore keeps HAMi's admission webhook from "
         "sending these pods\n# to hami-scheduler (HAMi chart templates/"
         "scheduler/webhook.yaml objectSelector).\n";
}

}  // namespace

std::string PodTemplatePatchesYaml(const Scenario& scenario,
                                   const Catalog& catalog, int max_per_class,
                                   const Scenario* today) {
  PatchContext ctx;
  ctx.schemes = ClusterGpuSchemesOf(scenario, today, catalog);
  ctx.scheduler = scenario.scheduler.scheduler_name;
  ctx.kai = scenario.kai_queues.enabled();
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  std::vector<Pod> pods = BuildWorkload(scenario.workload, scenario.seed);
  // The pool each pod ran on in the scenario's simulation: a pod bound to a
  // node (an imported Running pod) is its node's pool's, so its class's
  // patch and DRA claim template are that pool's.
  const RunPools run_pools(cluster);
  std::map<std::string, ClassPods> by_class;
  for (Pod& pod : pods) {
    ClassPods& c = by_class[pod.tenant_class];
    ++c.pods;
    if (c.example == nullptr) {
      c.example = &pod;
      c.node_selector = pod.node_selector;
      c.required_affinity = pod.required_affinity;
    }
    const int pool = run_pools.Of(pod);
    if (pool < 0) {
      ++c.unrunnable["no node pool admits it (node selector or taints)"];
      continue;
    }
    const std::string why = TranslateRequests(
        pod, cluster.pools()[pool], cluster.resources(), scenario.translation);
    if (!why.empty()) {
      ++c.unrunnable[why];
      continue;
    }
    RequestKey key;
    key.pool = pool;
    key.pin = PinToTargetPool(pod, pool, cluster, cluster.resources(),
                              scenario.translation);
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (id == ResourceRegistry::kCpuId || id == ResourceRegistry::kMemoryId) {
        continue;
      }
      key.resources.emplace_back(cluster.resources().Name(id), quantity);
    }
    if (const std::optional<DraClaim> claim = DraClaimOf(
            pod, cluster.pools()[pool], cluster.resources())) {
      // Never the bookkeeping name deviceclass.resource.kubernetes.io/...:
      // the claim's template, or the class's extended resource.
      key.resources.clear();
      if (claim->extended_resource.empty()) {
        key.dra_template = DraClaimTemplateName(pod.tenant_class, *claim);
        key.dra_shared = claim->shared;
      } else {
        // KEP-5004: the pod asks the extended resource as of a device
        // plugin; pinned as the simulation pins it (PinToTargetPool: pools
        // that read the request alike, device-plugin ones included, may
        // take it, as the scheduler lets them).
        key.resources.emplace_back(claim->extended_resource, claim->count);
      }
    }
    std::sort(key.resources.begin(), key.resources.end());
    RequestGroupPods& g = c.groups[key];
    ++g.pods;
    g.largest_mib = std::max(g.largest_mib, pod.needs.gpu_memory_mib);
    g.granted_mib =
        GrantedMemoryMib(pod, cluster.pools()[pool], cluster.resources());
    if (g.granted_mib >= 0 && pod.needs.gpu_memory_mib > g.granted_mib) {
      ++g.above;
      g.largest_above_mib =
          std::max(g.largest_above_mib, pod.needs.gpu_memory_mib);
    }
  }
  std::string out = fmt::format(
      "# Pod-template patches of scenario '{}' (written by gpushare-sim emit "
      "pod-patches):\n# per tenant class, what its workloads' pod templates "
      "request under the scheme\n# of the pool they land on. Apply one to a "
      "Deployment, Job or StatefulSet with\n#   kubectl patch deployment NAME "
      "--type strategic --patch-file PATCH.yaml\n# after renaming container "
      "'main' to the workload's container. A nodeSelector on\n# "
      "gpushare.io/node-pool needs that label on the pool's nodes:\n#   "
      "kubectl label node NODE gpushare.io/node-pool=POOL --overwrite\n"
      "# A workload has one pod template, so each class asks one size per "
      "pool: its\n# request_percentile (95 by default) of its pods' GPU "
      "memory footprint and SM\n# demand (HAMi gpumem and gpucores, the "
      "smallest MIG profile holding it). Pods\n# above it are OOM-killed "
      "where memory is isolated (HAMi, MIG), as the simulation\n# shows; "
      "pods read from a trace keep their own requests.\n"
      "# Each patch replaces what the workload asked before: it sets "
      "schedulerName, and\n# sets to null (a strategic merge deletes the "
      "key) every GPU resource of the\n# cluster's schemes, today's and "
      "planned, that its class does not ask now.\n",
      CommentText(scenario.name));
  if (ctx.schemes.hami) {
    out +=
        "# HAMi runs in the cluster: its admission webhook sends every pod "
        "that asks\n# nvidia.com/gpu to hami-scheduler, which cannot place "
        "pods on other pools'\n# nodes. Pods of the other pools carry the "
        "label hami.io/webhook: ignore,\n# which the webhook's "
        "objectSelector skips (HAMi chart templates/scheduler/\n# "
        "webhook.yaml; pkg/scheduler/webhook.go Handle); HAMi pools' pods "
        "drop it.\n";
  }
  if (ctx.schemes.dra) {
    out += fmt::format(
        "# DRA runs in the cluster: a class that gets no claim drops its "
        "container's\n# resources.claims and the pod's claim named {} "
        "($patch: delete); delete a\n# GPU claim of another name by hand.\n",
        kDraClaimName);
  }
  if (std::any_of(scenario.pools.begin(), scenario.pools.end(),
                  [](const NodePoolSpec& p) {
                    return p.devices == PoolDevices::kDra;
                  })) {
    out +=
        "# Pods of DRA pools (devices: dra) get their GPUs from a "
        "ResourceClaim made\n# from the ResourceClaimTemplate they name, "
        "which dra-objects.yaml of emit k8s\n# creates in each tenant "
        "namespace (apply it first), instead of nvidia.com/gpu.\n";
  }
  if (scenario.queues.enabled() && !scenario.kai_queues.enabled()) {
    out +=
        "# Kueue's queue label is on the workload's own metadata, where its "
        "Job,\n# Deployment and StatefulSet integrations read it, and on the "
        "pod template,\n# where its pod integration does: bare pods such as "
        "notebooks, and\n# Deployments or StatefulSets, are admitted only "
        "with integrations.frameworks\n# \"pod\", \"deployment\" or "
        "\"statefulset\" in Kueue's Configuration.\n";
  }
  for (const TenantClassInfo& info : ScenarioTenantClasses(scenario)) {
    auto it = by_class.find(info.name);
    if (it == by_class.end()) continue;
    const ClassPods& c = it->second;
    std::vector<std::pair<RequestKey, RequestGroupPods>> groups(c.groups.begin(),
                                                         c.groups.end());
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) {
                       return a.second.pods > b.second.pods;
                     });
    const int shown =
        std::min(static_cast<int>(groups.size()), std::max(1, max_per_class));
    for (int g = 0; g < shown; ++g) {
      const NodePool& pool = cluster.pools()[groups[g].first.pool];
      const EngineCap cap =
          EngineCapOf(info.workload_class, EngineOf(scenario, info.name),
                      *c.example, pool, groups[g].second);
      out += fmt::format(
          "---\n# class {} ({}) on pool {} ({}{}): {} of its {} pods "
          "({:.1f}%)\n{}{}",
          CommentText(info.name), WorkloadClassName(info.workload_class),
          CommentText(pool.spec.name),
          SharingSchemeDisplayName(pool.spec.sharing.scheme()),
          pool.spec.devices == PoolDevices::kDra ? ", DRA" : "",
          groups[g].second.pods, c.pods, 100.0 * groups[g].second.pods / c.pods,
          AboveRequestComment(groups[g].second, pool) +
              EngineCapComment(cap) + WebhookComment(ctx, pool),
          Patch(*c.example, c.node_selector, c.required_affinity, pool,
                groups[g].first, cap, ctx));
    }
    if (static_cast<int>(groups.size()) > shown) {
      int64_t rest = 0;
      std::map<std::string, std::pair<int64_t, int64_t>> range;
      for (size_t g = shown; g < groups.size(); ++g) {
        rest += groups[g].second.pods;
        for (const auto& [name, q] : groups[g].first.resources) {
          auto [r, fresh] = range.try_emplace(name, q, q);
          if (!fresh) {
            r->second.first = std::min(r->second.first, q);
            r->second.second = std::max(r->second.second, q);
          }
        }
      }
      std::string ranges;
      for (const auto& [name, r] : range) {
        ranges += fmt::format("{}{} {}..{}", ranges.empty() ? "" : ", ",
                              CommentText(name), r.first, r.second);
      }
      out += fmt::format(
          "# class {}: {} more distinct requests cover {} pods ({})\n",
          CommentText(info.name), groups.size() - shown, rest, ranges);
    }
    for (const auto& [why, n] : c.unrunnable) {
      out += fmt::format("# class {}: {} pods cannot run: {}\n",
                         CommentText(info.name), n, CommentText(why));
    }
  }
  return out;
}

}  // namespace gpushare
