#include "gpushare/scenario/queue_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "gpushare/cluster/quantity.h"
#include "gpushare/io/suggest.h"
#include "gpushare/scenario/kubectl_queue_import.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/workload/pod.h"

namespace gpushare {
namespace {

YAML::Node ListAt(const YamlMap& m, std::string_view key) {
  const YAML::Node list = m.Get(key);
  if (!list.IsSequence()) {
    m.Fail(list, std::string(key) + ": expected a list, got " +
                     DescribeYamlNode(list));
  }
  return list;
}

std::string ReadName(const YamlMap& m, const std::string& noun) {
  const std::string name = m.String("name");
  if (!IsDnsSubdomain(name)) {
    m.Fail(m.Get("name"),
           fmt::format("{} name '{}' must be a DNS subdomain (lowercase "
                       "letters, digits, '-' and '.', at most 253)",
                       noun, name));
  }
  return name;
}

// Kueue's resources.deviceClassMappings, validated as Kueue validates its
// Configuration (kubernetes-sigs/kueue pkg/config/validation.go,
// validateDeviceClassMappings): at most 16 mappings; each name a qualified
// name (a label key), unique; 1 to 8 device class names, qualified names,
// none twice in a mapping and none in two mappings (Kueue allows that only
// for counter sources, which are not modelled).
std::vector<DeviceClassMappingSpec> ReadDeviceClassMappings(const YamlMap& m) {
  std::vector<DeviceClassMappingSpec> out;
  const YAML::Node list = ListAt(m, "device_class_mappings");
  if (list.size() > 16) {
    m.Fail(list, fmt::format("device_class_mappings: {} mappings, at most 16",
                             list.size()));
  }
  for (const YAML::Node& item : list) {
    YamlMap d(m.file(), item, "device class mapping");
    d.AllowOnly({"name", "device_class_names"});
    DeviceClassMappingSpec mapping;
    mapping.name = d.String("name");
    if (!IsLabelKey(mapping.name)) {
      d.Fail(d.Get("name"),
             fmt::format("name '{}' must be a qualified name (a DNS label, "
                         "optionally prefixed by a DNS subdomain and '/'), "
                         "as a quota resource name",
                         mapping.name));
    }
    for (const DeviceClassMappingSpec& other : out) {
      if (other.name == mapping.name) {
        d.Fail(d.Get("name"), "'" + mapping.name + "' is mapped twice");
      }
    }
    const YAML::Node classes = ListAt(d, "device_class_names");
    if (classes.size() == 0 || classes.size() > 8) {
      d.Fail(classes, fmt::format("device_class_names: expected 1 to 8 "
                                  "DeviceClass names, got {}",
                                  classes.size()));
    }
    for (const YAML::Node& c : classes) {
      const std::string name =
          ScalarString(d.file(), c, "device_class_names item");
      if (!IsLabelKey(name)) {
        d.Fail(c, fmt::format("DeviceClass name '{}' must be a qualified "
                              "name (such as gpu.nvidia.com)",
                              name));
      }
      bool seen = std::find(mapping.device_class_names.begin(),
                            mapping.device_class_names.end(),
                            name) != mapping.device_class_names.end();
      for (const DeviceClassMappingSpec& other : out) {
        for (const std::string& o : other.device_class_names) {
          if (o == name) {
            d.Fail(c, fmt::format("DeviceClass '{}' is already mapped to "
                                  "resource {}",
                                  name, other.name));
          }
        }
      }
      if (seen) d.Fail(c, "DeviceClass '" + name + "' is listed twice");
      mapping.device_class_names.push_back(name);
    }
    out.push_back(std::move(mapping));
  }
  return out;
}

// A Kubernetes quantity ("8", 8, "500m", "64Gi") of `resource`, ≥ 0.
int64_t ReadQuota(const YamlMap& m, std::string_view key,
                  const std::string& resource) {
  const YAML::Node value = m.Get(key);
  const std::string text = ScalarString(m.file(), value, std::string(key));
  Quantity q;
  std::string error;
  if (!Quantity::Parse(text, &q, &error)) {
    m.Fail(value, fmt::format("{}: {}", key, error));
  }
  if (q.negative()) {
    m.Fail(value, fmt::format("{}: {} must not be negative", key, text));
  }
  int64_t out = 0;
  if (!QuantityInUnitsOf(q, resource, &out) || out > (int64_t{1} << 50)) {
    m.Fail(value, fmt::format("{}: {} is too large", key, text));
  }
  return out;
}

KueuePreemptionPolicy ReadPolicy(const YamlMap& m, std::string_view key,
                                 const std::vector<std::string>& allowed) {
  const std::string text = m.String(key);
  for (KueuePreemptionPolicy p :
       {KueuePreemptionPolicy::kNever, KueuePreemptionPolicy::kLowerPriority,
        KueuePreemptionPolicy::kLowerOrNewerEqualPriority,
        KueuePreemptionPolicy::kAny}) {
    if (text == KueuePreemptionPolicyName(p) &&
        std::find(allowed.begin(), allowed.end(), text) != allowed.end()) {
      return p;
    }
  }
  m.Fail(m.Get(key),
         fmt::format("{}: unknown policy '{}'{} (allowed: {})", key, text,
                     DidYouMean(text, allowed, 1), JoinNames(allowed)));
}

void ReadPreemption(const YamlMap& cq, ClusterQueueSpec* spec) {
  const YamlMap p = cq.Map("preemption", cq.what() + " preemption");
  p.AllowOnly({"within_cluster_queue", "reclaim_within_cohort",
               "borrow_within_cohort"});
  if (p.Has("within_cluster_queue")) {
    spec->within_cluster_queue =
        ReadPolicy(p, "within_cluster_queue",
                   {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
  }
  if (p.Has("reclaim_within_cohort")) {
    spec->reclaim_within_cohort = ReadPolicy(p, "reclaim_within_cohort",
                                             {"Never", "LowerPriority", "Any"});
  }
  if (p.Has("borrow_within_cohort")) {
    const YamlMap b =
        p.Map("borrow_within_cohort", p.what() + " borrow_within_cohort");
    b.AllowOnly({"policy", "max_priority_threshold"});
    spec->borrow_within_cohort =
        ReadPolicy(b, "policy", {"Never", "LowerPriority"});
    if (b.Has("max_priority_threshold")) {
      spec->borrow_max_priority_threshold = static_cast<int32_t>(
          b.Int("max_priority_threshold", std::numeric_limits<int32_t>::min(),
                std::numeric_limits<int32_t>::max()));
    }
    if (spec->borrow_within_cohort != KueuePreemptionPolicy::kNever &&
        spec->reclaim_within_cohort == KueuePreemptionPolicy::kNever) {
      b.Fail(b.Get("policy"),
             "policy: borrowing within the cohort by preemption needs "
             "reclaim_within_cohort other than Never (as Kueue validates)");
    }
  }
}

ResourceGroupSpec ReadGroup(const YamlMap& cq, const YAML::Node& node,
                            const std::vector<ResourceFlavorSpec>& flavors,
                            bool in_cohort) {
  YamlMap g(cq.file(), node, cq.what() + " resource group");
  g.AllowOnly({"covered_resources", "flavors"});
  ResourceGroupSpec group;
  const YAML::Node list = ListAt(g, "flavors");
  if (list.size() == 0 || list.size() > 16) {
    g.Fail(list, "flavors: expected 1 to 16 flavors");
  }
  if (g.Has("covered_resources")) {
    group.covered_resources = g.StringList("covered_resources");
  }
  for (const YAML::Node& item : list) {
    YamlMap f(g.file(), item, "flavor quota");
    f.AllowOnly({"name", "resources"});
    FlavorQuotasSpec fq;
    fq.flavor = f.String("name");
    std::vector<std::string> names;
    for (const ResourceFlavorSpec& known : flavors) names.push_back(known.name);
    if (std::find(names.begin(), names.end(), fq.flavor) == names.end()) {
      f.Fail(f.Get("name"),
             fmt::format("no resource flavor is named '{}'{} (flavors: {})",
                         fq.flavor, DidYouMean(fq.flavor, names, 1),
                         JoinNames(names)));
    }
    const YAML::Node resources = ListAt(f, "resources");
    if (resources.size() == 0 || resources.size() > 16) {
      f.Fail(resources, "resources: expected 1 to 16 resources");
    }
    std::vector<std::string> listed;
    for (const YAML::Node& r : resources) {
      YamlMap rm(f.file(), r, "resource quota");
      rm.AllowOnly(
          {"name", "nominal_quota", "borrowing_limit", "lending_limit"});
      ResourceQuotaSpec q;
      q.resource = rm.String("name");
      if (!IsLabelKey(q.resource)) {
        rm.Fail(rm.Get("name"), "name '" + q.resource +
                                    "' is not a resource name (cpu, memory, "
                                    "nvidia.com/gpu, ...)");
      }
      q.nominal_quota = ReadQuota(rm, "nominal_quota", q.resource);
      for (std::string_view key : {"borrowing_limit", "lending_limit"}) {
        if (!rm.Has(key)) continue;
        if (!in_cohort) {
          rm.Fail(rm.Get(key), std::string(key) +
                                   ": only a ClusterQueue in a cohort may "
                                   "borrow or lend");
        }
        const int64_t v = ReadQuota(rm, key, q.resource);
        if (key == "borrowing_limit") {
          q.borrowing_limit = v;
        } else {
          if (v > q.nominal_quota) {
            rm.Fail(rm.Get(key),
                    "lending_limit: must not exceed "
                    "nominal_quota");
          }
          q.lending_limit = v;
        }
      }
      listed.push_back(q.resource);
      fq.resources.push_back(q);
    }
    if (group.covered_resources.empty()) group.covered_resources = listed;
    if (listed != group.covered_resources) {
      f.Fail(
          resources,
          fmt::format("resources: must list the group's covered resources "
                      "in order ({}), got {}",
                      JoinNames(group.covered_resources), JoinNames(listed)));
    }
    group.flavors.push_back(fq);
  }
  return group;
}

ClusterQueueSpec ReadClusterQueue(
    const YamlMap& q, const std::vector<ResourceFlavorSpec>& flavors) {
  q.AllowOnly(
      {"name", "cohort", "queueing_strategy", "resource_groups", "preemption"});
  ClusterQueueSpec spec;
  spec.name = ReadName(q, "ClusterQueue");
  if (q.Has("cohort")) {
    spec.cohort = q.String("cohort");
    if (!IsDnsSubdomain(spec.cohort)) {
      q.Fail(q.Get("cohort"),
             "cohort '" + spec.cohort + "' must be a DNS subdomain");
    }
  }
  if (q.Has("queueing_strategy")) {
    const std::string s = q.String("queueing_strategy");
    if (s == "StrictFIFO") {
      spec.queueing_strategy = QueueingStrategy::kStrictFifo;
    } else if (s != "BestEffortFIFO") {
      q.Fail(q.Get("queueing_strategy"),
             fmt::format("queueing_strategy: unknown strategy '{}'{} "
                         "(BestEffortFIFO or StrictFIFO)",
                         s,
                         DidYouMean(s,
                                    std::vector<std::string>{"BestEffortFIFO",
                                                             "StrictFIFO"},
                                    1)));
    }
  }
  const YAML::Node groups = ListAt(q, "resource_groups");
  if (groups.size() == 0 || groups.size() > 16) {
    q.Fail(groups, "resource_groups: expected 1 to 16 groups");
  }
  std::vector<std::string> covered, used_flavors;
  for (const YAML::Node& g : groups) {
    ResourceGroupSpec group = ReadGroup(q, g, flavors, !spec.cohort.empty());
    for (const std::string& r : group.covered_resources) {
      if (std::find(covered.begin(), covered.end(), r) != covered.end()) {
        q.Fail(g, "resource '" + r + "' is covered by two resource groups");
      }
      covered.push_back(r);
    }
    for (const FlavorQuotasSpec& f : group.flavors) {
      if (std::find(used_flavors.begin(), used_flavors.end(), f.flavor) !=
          used_flavors.end()) {
        q.Fail(g, "flavor '" + f.flavor + "' is listed twice");
      }
      used_flavors.push_back(f.flavor);
    }
    spec.resource_groups.push_back(std::move(group));
  }
  if (q.Has("preemption")) ReadPreemption(q, &spec);
  return spec;
}

}  // namespace

KueueConfig ReadQueues(const YamlMap& top,
                       const std::vector<NodePoolSpec>& pools) {
  KueueConfig config;
  if (!top.Has("queues")) return config;
  const YamlMap m = top.Map("queues", "queues");
  m.AllowOnly({"resource_flavors", "cluster_queues", "local_queues", "import",
               "device_class_mappings"});
  std::string imported[3];  // flavors, ClusterQueues, LocalQueues files
  if (m.Has("import")) {
    const YamlMap im = m.Map("import", "queues import");
    im.AllowOnly({"resource_flavors", "cluster_queues", "local_queues"});
    const char* keys[3] = {"resource_flavors", "cluster_queues",
                           "local_queues"};
    for (int k = 0; k < 3; ++k) {
      if (!im.Has(keys[k])) continue;
      imported[k] = im.InputPath(keys[k]);
    }
  }
  if (m.Has("resource_flavors")) {
    for (const YAML::Node& item : ListAt(m, "resource_flavors")) {
      YamlMap f(m.file(), item, "resource flavor");
      f.AllowOnly({"name", "node_labels"});
      ResourceFlavorSpec flavor;
      flavor.name = ReadName(f, "flavor");
      for (const ResourceFlavorSpec& other : config.resource_flavors) {
        if (other.name == flavor.name) {
          f.Fail(f.Get("name"), "'" + flavor.name + "' is defined twice");
        }
      }
      if (f.Has("node_labels")) {
        flavor.node_labels =
            ReadLabelMap(f.file(), f.Get("node_labels"), "flavor node_labels");
      }
      config.resource_flavors.push_back(flavor);
    }
  }
  ImportKubectlQueues(imported[0], "", "", &config);
  if (config.resource_flavors.empty()) {
    for (const NodePoolSpec& pool : pools) {
      config.resource_flavors.push_back(
          {pool.name, {{kNodePoolLabel, pool.name}}});
    }
  }
  const YAML::Node queues = m.Has("cluster_queues") || imported[1].empty()
                                ? ListAt(m, "cluster_queues")
                                : YAML::Node(YAML::NodeType::Sequence);
  if (queues.size() == 0 && imported[1].empty()) {
    m.Fail(queues, "cluster_queues: expected at least one");
  }
  for (const YAML::Node& item : queues) {
    YamlMap q(m.file(), item, "ClusterQueue");
    ClusterQueueSpec spec = ReadClusterQueue(q, config.resource_flavors);
    for (const ClusterQueueSpec& other : config.cluster_queues) {
      if (other.name == spec.name) {
        q.Fail(q.Get("name"), "'" + spec.name + "' is defined twice");
      }
    }
    config.cluster_queues.push_back(std::move(spec));
  }
  ImportKubectlQueues("", imported[1], "", &config);
  if (m.Has("local_queues")) {
    std::vector<std::string> names;
    for (const ClusterQueueSpec& q : config.cluster_queues) {
      names.push_back(q.name);
    }
    for (const YAML::Node& item : ListAt(m, "local_queues")) {
      YamlMap l(m.file(), item, "LocalQueue");
      l.AllowOnly({"name", "namespace", "cluster_queue"});
      LocalQueueSpec lq;
      lq.name = ReadName(l, "LocalQueue");
      if (l.Has("namespace")) {
        lq.namespace_name = l.String("namespace");
        if (!IsDnsLabel(lq.namespace_name, 63)) {
          l.Fail(l.Get("namespace"),
                 "namespace '" + lq.namespace_name +
                     "' must be lowercase letters, digits and '-' (at most "
                     "63)");
        }
      }
      lq.cluster_queue = l.String("cluster_queue");
      if (std::find(names.begin(), names.end(), lq.cluster_queue) ==
          names.end()) {
        l.Fail(l.Get("cluster_queue"),
               fmt::format("no ClusterQueue is named '{}'{} (ClusterQueues: "
                           "{})",
                           lq.cluster_queue,
                           DidYouMean(lq.cluster_queue, names, 1),
                           JoinNames(names)));
      }
      for (const LocalQueueSpec& other : config.local_queues) {
        if (other.name == lq.name &&
            other.namespace_name == lq.namespace_name) {
          l.Fail(l.Get("name"),
                 fmt::format("LocalQueue '{}' is defined twice in namespace "
                             "'{}'",
                             lq.name, lq.namespace_name));
        }
      }
      config.local_queues.push_back(lq);
    }
  }
  ImportKubectlQueues("", "", imported[2], &config);
  if (m.Has("device_class_mappings")) {
    config.device_class_mappings = ReadDeviceClassMappings(m);
  }
  return config;
}

namespace {

// What the nodes a flavor selects advertise in all: nvidia.com/gpu, gpumem
// and gpucores.
struct HamiTotals {
  double gpu = 0;
  double gpumem = 0;
  double gpucores = 0;
};

// A HAMi quota: `figure` of nvidia.com/gpu scaled to `total` of the other
// resource, rounded down (with a margin for binary fractions).
int64_t HamiQuotaFrom(int64_t figure, double gpu_total, double total) {
  return static_cast<int64_t>(
      std::floor(static_cast<double>(figure) * total / gpu_total + 1e-9));
}

}  // namespace

std::vector<std::string> CoverHamiQueueResources(
    const std::vector<NodePoolSpec>& pools, const Catalog& catalog,
    KueueConfig* queues) {
  std::vector<std::string> notes;
  if (!queues->enabled()) return notes;
  bool any_hami = false;
  for (const NodePoolSpec& p : pools) {
    any_hami |= p.gpus_per_node > 0 &&
                p.sharing.sharing == DeviceSharing::kHami;
  }
  if (!any_hami) return notes;
  Cluster cluster(catalog);
  for (const NodePoolSpec& p : pools) cluster.AddPool(p);
  const ResourceRegistry& registry = cluster.resources();
  const int gpu_id = registry.Find(kNvidiaGpu);
  const int mem_id = registry.Find(kHamiGpuMem);
  const int cores_id = registry.Find(kHamiGpuCores);
  std::map<std::string, HamiTotals> totals;
  for (const ResourceFlavorSpec& f : queues->resource_flavors) {
    HamiTotals t;
    for (const Node& node : cluster.nodes()) {
      if (node.devices() == nullptr ||
          !MatchesSelector(f.node_labels, node.labels())) {
        continue;
      }
      const ResourceList& c = node.devices()->Capacity();
      if (gpu_id >= 0) t.gpu += static_cast<double>(c.Get(gpu_id));
      if (mem_id >= 0) t.gpumem += static_cast<double>(c.Get(mem_id));
      if (cores_id >= 0) t.gpucores += static_cast<double>(c.Get(cores_id));
    }
    totals[f.name] = t;
  }
  for (ClusterQueueSpec& cq : queues->cluster_queues) {
    for (ResourceGroupSpec& group : cq.resource_groups) {
      const auto covers = [](const ResourceGroupSpec& g, std::string_view r) {
        return std::find(g.covered_resources.begin(),
                         g.covered_resources.end(),
                         r) != g.covered_resources.end();
      };
      if (!covers(group, kNvidiaGpu)) continue;
      bool hami = false;
      for (const FlavorQuotasSpec& fq : group.flavors) {
        hami |= totals[fq.flavor].gpumem > 0 && totals[fq.flavor].gpu > 0;
      }
      if (!hami) continue;
      std::string added;
      for (std::string_view name : {kHamiGpuMem, kHamiGpuCores}) {
        if (std::any_of(cq.resource_groups.begin(), cq.resource_groups.end(),
                        [&](const ResourceGroupSpec& g) {
                          return covers(g, name);
                        })) {
          continue;  // a resource is in one group of a queue only
        }
        group.covered_resources.emplace_back(name);
        for (FlavorQuotasSpec& fq : group.flavors) {
          const HamiTotals& t = totals[fq.flavor];
          const double total = name == kHamiGpuMem ? t.gpumem : t.gpucores;
          ResourceQuotaSpec r;
          r.resource = std::string(name);
          auto gpu = std::find_if(
              fq.resources.begin(), fq.resources.end(),
              [](const ResourceQuotaSpec& q) { return q.resource == kNvidiaGpu; });
          if (gpu != fq.resources.end() && t.gpu > 0 && total > 0) {
            r.nominal_quota = HamiQuotaFrom(gpu->nominal_quota, t.gpu, total);
            if (gpu->borrowing_limit) {
              r.borrowing_limit =
                  HamiQuotaFrom(*gpu->borrowing_limit, t.gpu, total);
            }
            if (gpu->lending_limit) {
              r.lending_limit = std::min(
                  r.nominal_quota,
                  HamiQuotaFrom(*gpu->lending_limit, t.gpu, total));
            }
          }
          added += fmt::format("{}{} {} in flavor {}", added.empty() ? "" : ", ",
                               name, r.nominal_quota, fq.flavor);
          fq.resources.push_back(std::move(r));
        }
      }
      if (!added.empty()) {
        notes.push_back(fmt::format(
            "ClusterQueue {}: its vGPU (HAMi) pods request nvidia.com/gpumem "
            "and nvidia.com/gpucores, which Kueue admits only with a quota: "
            "{} (the nodes' total scaled as nvidia.com/gpu)",
            cq.name, added));
      }
    }
  }
  return notes;
}

}  // namespace gpushare
