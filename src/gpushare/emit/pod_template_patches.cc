#include "gpushare/emit/pod_template_patches.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/sched/kueue/kueue_config.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {
namespace {

// One distinct request of a class: pool and extended resources.
struct RequestKey {
  int pool = -1;
  std::vector<std::pair<std::string, int64_t>> resources;  // by name
  std::vector<std::string> pin;  // the pools PinToTargetPool pinned it to
  bool operator<(const RequestKey& o) const {
    return std::tie(pool, resources, pin) <
           std::tie(o.pool, o.resources, o.pin);
  }
};

struct ClassPods {
  int64_t pods = 0;
  std::map<RequestKey, int64_t> groups;
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

std::string Patch(const Pod& pod, const Labels& node_selector,
                  const std::vector<NodeSelectorTerm>& required_affinity,
                  const NodePool& pool, const RequestKey& key, bool kai) {
  std::string out;
  if (!pod.queue_name.empty() && !kai) {
    // Kueue's Job, Deployment and StatefulSet integrations read the queue
    // label on the workload's own metadata.
    out += fmt::format("metadata:\n  labels:\n    {}: {}\n",
                       YamlQuoted(std::string(kKueueQueueNameLabel)),
                       YamlQuoted(pod.queue_name));
  }
  out += "spec:\n  template:\n";
  if (!pod.queue_name.empty()) {
    // Kueue's pod integration reads the label on the pod (it leaves a pod
    // whose Job Kueue manages to the Job); KAI-Scheduler reads its queue
    // label on the pod or its PodGroup.
    out += fmt::format("    metadata:\n      labels:\n        {}: {}\n",
                       YamlQuoted(kai ? std::string(kKaiQueueLabel)
                                      : std::string(kKueueQueueNameLabel)),
                       YamlQuoted(pod.queue_name));
  }
  out += "    spec:\n";
  if (pool.spec.sharing.sharing == DeviceSharing::kHami) {
    out += "      schedulerName: hami-scheduler\n";
  } else if (kai && !pod.queue_name.empty()) {
    out += "      schedulerName: kai-scheduler\n";
  }
  Labels selector = node_selector;
  if (key.pin.size() == 1) selector[kNodePoolLabel] = key.pin.front();
  if (!selector.empty()) {
    out += "      nodeSelector:\n";
    for (const auto& [k, v] : selector) {
      out += fmt::format("        {}: {}\n", YamlQuoted(k), YamlQuoted(v));
    }
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
  out += "      containers:\n        - name: main\n";
  if (key.resources.empty()) return out;
  out += "          resources:\n            limits:\n";
  for (const auto& [name, quantity] : key.resources) {
    out += fmt::format("              {}: {}\n", YamlScalar(name), quantity);
  }
  return out;
}

}  // namespace

std::string PodTemplatePatchesYaml(const Scenario& scenario,
                                   const Catalog& catalog, int max_per_class) {
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  std::vector<Pod> pods = BuildWorkload(scenario.workload, scenario.seed);
  std::map<std::string, ClassPods> by_class;
  for (Pod& pod : pods) {
    ClassPods& c = by_class[pod.tenant_class];
    ++c.pods;
    if (c.example == nullptr) {
      c.example = &pod;
      c.node_selector = pod.node_selector;
      c.required_affinity = pod.required_affinity;
    }
    const int pool = TargetPool(pod, cluster);
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
    std::sort(key.resources.begin(), key.resources.end());
    ++c.groups[key];
  }
  std::string out = fmt::format(
      "# Pod-template patches of scenario '{}' (written by gpushare-sim emit "
      "pod-patches):\n# per tenant class, what its workloads' pod templates "
      "request under the scheme\n# of the pool they land on. Apply one to a "
      "Deployment, Job or StatefulSet with\n#   kubectl patch deployment NAME "
      "--type strategic --patch-file PATCH.yaml\n# after renaming container "
      "'main' to the workload's container. A nodeSelector on\n# "
      "gpushare.io/node-pool needs that label on the pool's nodes:\n#   "
      "kubectl label node NODE gpushare.io/node-pool=POOL --overwrite\n",
      CommentText(scenario.name));
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
    std::vector<std::pair<RequestKey, int64_t>> groups(c.groups.begin(),
                                                       c.groups.end());
    std::stable_sort(
        groups.begin(), groups.end(),
        [](const auto& a, const auto& b) { return a.second > b.second; });
    const int shown =
        std::min(static_cast<int>(groups.size()), std::max(1, max_per_class));
    for (int g = 0; g < shown; ++g) {
      const NodePool& pool = cluster.pools()[groups[g].first.pool];
      out += fmt::format(
          "---\n# class {} ({}) on pool {} ({}): {} of its {} pods "
          "({:.1f}%)\n{}",
          CommentText(info.name), WorkloadClassName(info.workload_class),
          CommentText(pool.spec.name),
          SharingSchemeDisplayName(pool.spec.sharing.scheme()),
          groups[g].second, c.pods, 100.0 * groups[g].second / c.pods,
          Patch(*c.example, c.node_selector, c.required_affinity, pool,
                groups[g].first, scenario.kai_queues.enabled()));
    }
    if (static_cast<int>(groups.size()) > shown) {
      int64_t rest = 0;
      std::map<std::string, std::pair<int64_t, int64_t>> range;
      for (size_t g = shown; g < groups.size(); ++g) {
        rest += groups[g].second;
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
