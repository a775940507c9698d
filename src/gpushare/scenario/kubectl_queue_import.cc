#include "gpushare/scenario/kubectl_queue_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/kubectl_object.h"

namespace gpushare {
namespace {

template <typename T>
bool Named(const std::vector<T>& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const T& t) { return t.name == name; });
}

KueuePreemptionPolicy Policy(const JsonValue& v,
                             const std::vector<std::string>& allowed) {
  const std::string text = v.String("Never");
  if (std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
    v.Fail(fmt::format("unknown policy '{}' (allowed: {})", text,
                       fmt::join(allowed, ", ")));
  }
  for (KueuePreemptionPolicy p :
       {KueuePreemptionPolicy::kNever, KueuePreemptionPolicy::kLowerPriority,
        KueuePreemptionPolicy::kLowerOrNewerEqualPriority,
        KueuePreemptionPolicy::kAny}) {
    if (KueuePreemptionPolicyName(p) == text) return p;
  }
  return KueuePreemptionPolicy::kNever;
}

ClusterQueueSpec ImportClusterQueue(const JsonValue& item,
                                    const KueueConfig& config) {
  ClusterQueueSpec q;
  q.name = item.Get("metadata").Get("name").String();
  if (q.name.empty()) item.Get("metadata").Fail("expected metadata.name");
  const JsonValue spec = item.Get("spec");
  q.cohort = spec.Get("cohort").String(spec.Get("cohortName").String(""));
  const std::string strategy =
      spec.Get("queueingStrategy").String("BestEffortFIFO");
  if (strategy == "StrictFIFO") {
    q.queueing_strategy = QueueingStrategy::kStrictFifo;
  } else if (strategy != "BestEffortFIFO") {
    spec.Get("queueingStrategy")
        .Fail("expected BestEffortFIFO or StrictFIFO, got '" + strategy + "'");
  }
  std::vector<std::string> covered_all;
  for (const JsonValue& g : spec.Get("resourceGroups").Items()) {
    ResourceGroupSpec group;
    for (const JsonValue& r : g.Get("coveredResources").Items()) {
      const std::string name = r.String();
      if (std::find(covered_all.begin(), covered_all.end(), name) !=
          covered_all.end()) {
        r.Fail("resource '" + name + "' is covered by two resource groups");
      }
      covered_all.push_back(name);
      group.covered_resources.push_back(name);
    }
    for (const JsonValue& f : g.Get("flavors").Items()) {
      FlavorQuotasSpec fq;
      fq.flavor = f.Get("name").String();
      if (!Named(config.resource_flavors, fq.flavor)) {
        f.Get("name").Fail("no ResourceFlavor is named '" + fq.flavor + "'");
      }
      std::vector<std::string> listed;
      for (const JsonValue& r : f.Get("resources").Items()) {
        ResourceQuotaSpec rq;
        rq.resource = r.Get("name").String();
        rq.nominal_quota =
            ReadResourceAmount(r.Get("nominalQuota"), rq.resource);
        if (!r.Get("borrowingLimit").Missing()) {
          rq.borrowing_limit =
              ReadResourceAmount(r.Get("borrowingLimit"), rq.resource);
        }
        if (!r.Get("lendingLimit").Missing()) {
          rq.lending_limit =
              ReadResourceAmount(r.Get("lendingLimit"), rq.resource);
          if (*rq.lending_limit > rq.nominal_quota) {
            r.Get("lendingLimit").Fail("must not exceed nominalQuota");
          }
        }
        if (q.cohort.empty() && (rq.borrowing_limit || rq.lending_limit)) {
          r.Fail("borrowingLimit and lendingLimit need a cohort");
        }
        listed.push_back(rq.resource);
        fq.resources.push_back(rq);
      }
      if (listed != group.covered_resources) {
        f.Get("resources")
            .Fail(fmt::format(
                "must list the group's coveredResources in order ({}), got {}",
                fmt::join(group.covered_resources, ", "),
                fmt::join(listed, ", ")));
      }
      group.flavors.push_back(std::move(fq));
    }
    if (group.flavors.empty()) g.Fail("expected at least one flavor");
    q.resource_groups.push_back(std::move(group));
  }
  if (q.resource_groups.empty()) {
    spec.Fail("expected spec.resourceGroups with at least one group");
  }
  const JsonValue p = spec.Get("preemption");
  if (!p.Missing()) {
    q.within_cluster_queue =
        Policy(p.Get("withinClusterQueue"),
               {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
    q.reclaim_within_cohort =
        Policy(p.Get("reclaimWithinCohort"), {"Never", "LowerPriority", "Any"});
    const JsonValue b = p.Get("borrowWithinCohort");
    if (!b.Missing()) {
      q.borrow_within_cohort =
          Policy(b.Get("policy"), {"Never", "LowerPriority"});
      if (!b.Get("maxPriorityThreshold").Missing()) {
        q.borrow_max_priority_threshold =
            static_cast<int32_t>(b.Get("maxPriorityThreshold")
                                     .Int(std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int32_t>::max()));
      }
    }
  }
  return q;
}

}  // namespace

void ImportKubectlQueues(const std::string& resource_flavors_file,
                         const std::string& cluster_queues_file,
                         const std::string& local_queues_file,
                         KueueConfig* config) {
  if (!resource_flavors_file.empty()) {
    for (const JsonValue& item :
         KubectlItems(resource_flavors_file,
                      ReadInputFile(resource_flavors_file), "ResourceFlavor")) {
      ResourceFlavorSpec f;
      f.name = item.Get("metadata").Get("name").String();
      if (Named(config->resource_flavors, f.name)) {
        item.Get("metadata")
            .Get("name")
            .Fail("'" + f.name + "' is defined twice");
      }
      f.node_labels = ReadStringMap(item.Get("spec").Get("nodeLabels"));
      config->resource_flavors.push_back(std::move(f));
    }
  }
  if (!cluster_queues_file.empty()) {
    for (const JsonValue& item :
         KubectlItems(cluster_queues_file, ReadInputFile(cluster_queues_file),
                      "ClusterQueue")) {
      ClusterQueueSpec q = ImportClusterQueue(item, *config);
      if (Named(config->cluster_queues, q.name)) {
        item.Get("metadata")
            .Get("name")
            .Fail("'" + q.name + "' is defined twice");
      }
      config->cluster_queues.push_back(std::move(q));
    }
  }
  if (!local_queues_file.empty()) {
    for (const JsonValue& item :
         KubectlItems(local_queues_file, ReadInputFile(local_queues_file),
                      "LocalQueue")) {
      LocalQueueSpec lq;
      lq.name = item.Get("metadata").Get("name").String();
      lq.namespace_name =
          item.Get("metadata").Get("namespace").String("default");
      lq.cluster_queue = item.Get("spec").Get("clusterQueue").String();
      if (!Named(config->cluster_queues, lq.cluster_queue)) {
        item.Get("spec")
            .Get("clusterQueue")
            .Fail("no ClusterQueue is named '" + lq.cluster_queue + "'");
      }
      for (const LocalQueueSpec& other : config->local_queues) {
        if (other.name == lq.name &&
            other.namespace_name == lq.namespace_name) {
          item.Get("metadata")
              .Get("name")
              .Fail("LocalQueue '" + lq.name +
                    "' is defined twice in namespace '" + lq.namespace_name +
                    "'");
        }
      }
      config->local_queues.push_back(std::move(lq));
    }
  }
}

}  // namespace gpushare
