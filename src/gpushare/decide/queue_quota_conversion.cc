#include "gpushare/decide/queue_quota_conversion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/scenario/queue_reader.h"
#include "gpushare/workload/pod.h"

namespace gpushare {
namespace {

// Per pool: what one GPU advertises of each extended resource.
using PerGpu = std::map<std::string, double>;

// The quota resource Kueue counts `resource` under: a DRA pool's devices
// (the bookkeeping name of their DeviceClass) under the name of the
// DeviceClass mapping that lists the class; anything else as it is.
std::string QuotaResourceOf(const std::string& resource,
                            const KueueConfig& queues) {
  if (resource.rfind(kDraClassResourcePrefix, 0) != 0) return resource;
  const std::string device_class =
      resource.substr(kDraClassResourcePrefix.size());
  const DeviceClassMappingSpec* m = queues.MappingOf(device_class);
  return m != nullptr ? m->name : device_class;
}

std::vector<PerGpu> Advertised(const Cluster& cluster,
                               const KueueConfig& queues) {
  std::vector<PerGpu> out;
  for (const NodePool& pool : cluster.pools()) {
    PerGpu per;
    if (pool.node_count > 0 && pool.spec.gpus_per_node > 0) {
      const Node& node = cluster.nodes()[pool.first_node];
      if (node.devices() != nullptr) {
        for (const auto& [id, quantity] : node.devices()->Capacity().items()) {
          // A memory-mode DRA device's MiB: bookkeeping, not a quota.
          if (cluster.resources().Name(id) == kDraMemoryResource) continue;
          per[QuotaResourceOf(cluster.resources().Name(id), queues)] +=
              static_cast<double>(quantity) / pool.spec.gpus_per_node;
        }
      }
    }
    out.push_back(std::move(per));
  }
  return out;
}

// Gives every DeviceClass the variant's DRA pools hand out that no mapping
// lists a mapping of its own, named after the class (as a user would add
// one for a class the original cluster did not use), so that the quotas
// converted to it count. Returns a note per mapping added.
std::vector<std::string> MapNewDeviceClasses(const Cluster& after,
                                             KueueConfig* queues) {
  std::vector<std::string> notes;
  for (const NodePool& pool : after.pools()) {
    if (pool.node_count == 0) continue;
    const Node& node = after.nodes()[pool.first_node];
    if (node.devices() == nullptr) continue;
    for (const auto& [id, quantity] : node.devices()->Capacity().items()) {
      const std::string& name = after.resources().Name(id);
      if (name.rfind(kDraClassResourcePrefix, 0) != 0) continue;
      const std::string device_class =
          name.substr(kDraClassResourcePrefix.size());
      if (QuotaResourceOf(name, *queues) != device_class) continue;
      bool named = false;
      for (const DeviceClassMappingSpec& m : queues->device_class_mappings) {
        named |= m.name == device_class;
      }
      if (named) continue;
      queues->device_class_mappings.push_back({device_class, {device_class}});
      notes.push_back(fmt::format(
          "Kueue: DeviceClass {} mapped to quota resource {} "
          "(resources.deviceClassMappings)",
          device_class, device_class));
    }
  }
  return notes;
}

// The pools some node of which carries all of `labels`.
std::vector<int> PoolsOf(const Cluster& cluster, const Labels& labels) {
  std::vector<int> pools;
  for (size_t p = 0; p < cluster.pools().size(); ++p) {
    const NodePool& pool = cluster.pools()[p];
    for (int n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      if (MatchesSelector(labels, cluster.nodes()[n].labels())) {
        pools.push_back(static_cast<int>(p));
        break;
      }
    }
  }
  return pools;
}

bool SameSharing(const SharingConfig& a, const SharingConfig& b) {
  return a.scheme() == b.scheme() &&
         a.replicas.replicas == b.replicas.replicas &&
         a.replicas.rename_by_default == b.replicas.rename_by_default &&
         a.mig.config_name == b.mig.config_name &&
         a.mig.layouts == b.mig.layouts &&
         a.hami.split_count == b.hami.split_count;
}

// Whole GPUs a quota figure stands for: the largest over the device
// resources it names.
double Gpus(const FlavorQuotasSpec& fq, const PerGpu& old,
            std::optional<int64_t> ResourceQuotaSpec::*limit, bool nominal) {
  double gpus = 0;
  for (const ResourceQuotaSpec& r : fq.resources) {
    auto it = old.find(r.resource);
    if (it == old.end() || it->second <= 0) continue;
    const double q = nominal
                         ? static_cast<double>(r.nominal_quota)
                         : (r.*limit ? static_cast<double>(*(r.*limit)) : -1);
    if (q < 0) return -1;  // no limit on one of them: none after
    gpus = std::max(gpus, q / it->second);
  }
  return gpus;
}

// Σ nodes × (GPUs, cpu or memory per node) over `pools`.
double PoolListCapacity(const std::vector<NodePoolSpec>& specs,
                        const std::vector<int>& pools,
                        const std::string& resource) {
  double total = 0;
  for (int p : pools) {
    const double per_node =
        resource == "cpu"      ? static_cast<double>(specs[p].cpu_milli)
        : resource == "memory" ? static_cast<double>(specs[p].memory_mib)
                               : static_cast<double>(specs[p].gpus_per_node);
    total += static_cast<double>(specs[p].nodes) * per_node;
  }
  return total;
}

// The capacity of `pools` in the variant over the original's, for
// `resource` ("cpu", "memory", or "" for GPUs); 1 when not `scales`.
double CapacityRatio(const Scenario& original, const Scenario& variant,
                     const std::vector<int>& pools, const std::string& resource,
                     bool scales) {
  const double before = PoolListCapacity(original.pools, pools, resource);
  if (!scales || before <= 0) return 1;
  return PoolListCapacity(variant.pools, pools, resource) / before;
}

// A Kueue count scaled: rounded down, with a margin for binary fractions.
int64_t ScaledCount(int64_t q, double ratio) {
  return static_cast<int64_t>(
      std::floor(static_cast<double>(q) * ratio + 1e-9));
}

// Scales one quota (and its limits) by `ratio`.
void ScaleQuota(double ratio, ResourceQuotaSpec* r) {
  r->nominal_quota = ScaledCount(r->nominal_quota, ratio);
  if (r->borrowing_limit) {
    r->borrowing_limit = ScaledCount(*r->borrowing_limit, ratio);
  }
  if (r->lending_limit) {
    r->lending_limit =
        std::min(r->nominal_quota, ScaledCount(*r->lending_limit, ratio));
  }
}

// Scales the cpu and memory quotas of `fq` with their pools' capacity;
// appends "cpu 64000 to 96000" to `from_to`.
void ScaleCpuAndMemory(const Scenario& original, const Scenario& variant,
                       const std::vector<int>& pools, bool scales,
                       FlavorQuotasSpec* fq, std::string* from_to) {
  for (ResourceQuotaSpec& r : fq->resources) {
    if (r.resource != "cpu" && r.resource != "memory") continue;
    const double ratio =
        CapacityRatio(original, variant, pools, r.resource, scales);
    if (std::abs(ratio - 1) <= 1e-12) continue;
    const int64_t was = r.nominal_quota;
    ScaleQuota(ratio, &r);
    // As the scenario writes them: cpu in cores, memory in Gi.
    const double unit = r.resource == "cpu" ? 1000.0 : 1024.0;
    *from_to += fmt::format("{}{} {:g}{} to {:g}{}",
                            from_to->empty() ? "" : ", ", r.resource,
                            static_cast<double>(was) / unit,
                            r.resource == "cpu" ? "" : "Gi",
                            static_cast<double>(r.nominal_quota) / unit,
                            r.resource == "cpu" ? "" : "Gi");
  }
}

}  // namespace

std::vector<std::string> ConvertQueueQuotas(const Scenario& original,
                                            Scenario* variant,
                                            const Catalog& catalog,
                                            const QuotaScaling& scaling) {
  std::vector<std::string> notes;
  if (!variant->queues.enabled()) return notes;
  Cluster before(catalog);
  for (const NodePoolSpec& p : original.pools) before.AddPool(p);
  Cluster after(catalog);
  for (const NodePoolSpec& p : variant->pools) after.AddPool(p);
  std::vector<std::string> notes_mapped =
      MapNewDeviceClasses(after, &variant->queues);
  const std::vector<PerGpu> old_per = Advertised(before, original.queues);
  const std::vector<PerGpu> new_per = Advertised(after, variant->queues);
  std::map<std::string, Labels> flavor_labels;
  for (const ResourceFlavorSpec& f : variant->queues.resource_flavors) {
    flavor_labels[f.name] = f.node_labels;
  }
  for (ClusterQueueSpec& cq : variant->queues.cluster_queues) {
    const bool scales =
        scaling.with_pool_sizes &&
        std::find(scaling.pinned.begin(), scaling.pinned.end(), cq.name) ==
            scaling.pinned.end();
    for (ResourceGroupSpec& group : cq.resource_groups) {
      bool converted = false;
      for (FlavorQuotasSpec& fq : group.flavors) {
        const std::vector<int> pools =
            PoolsOf(before, flavor_labels[fq.flavor]);
        std::set<int> changed;
        for (int p : pools) {
          if (!SameSharing(original.pools[p].sharing,
                           variant->pools[p].sharing)) {
            changed.insert(p);
          }
        }
        // The GPUs of the flavor's pools after over before.
        const double ratio =
            CapacityRatio(original, *variant, pools, "", scales);
        if (changed.empty()) {
          // Same schemes, other sizes: every device quota scales with the
          // GPUs, cpu and memory with theirs.
          std::set<std::string> devices;
          for (int p : pools) {
            for (const auto& [name, per_gpu] : old_per[p]) devices.insert(name);
          }
          std::string from_to;
          for (ResourceQuotaSpec& r : fq.resources) {
            if (devices.count(r.resource) == 0 ||
                std::abs(ratio - 1) <= 1e-12) {
              continue;
            }
            const int64_t was = r.nominal_quota;
            ScaleQuota(ratio, &r);
            from_to += fmt::format("{}{} {} to {}", from_to.empty() ? "" : ", ",
                                   r.resource, was, r.nominal_quota);
          }
          ScaleCpuAndMemory(original, *variant, pools, scales, &fq, &from_to);
          if (!from_to.empty()) {
            notes.push_back(fmt::format(
                "ClusterQueue {} flavor {}: quota scaled with its pools' "
                "nodes: {}",
                cq.name, fq.flavor, from_to));
          }
          continue;
        }
        if (pools.size() != 1) {
          notes.push_back(fmt::format(
              "ClusterQueue {} flavor {}: its nodes are in pools of different "
              "schemes; its quota is left as written",
              cq.name, fq.flavor));
          continue;
        }
        const PerGpu& old = old_per[pools[0]];
        const PerGpu& now = new_per[pools[0]];
        const double gpus = Gpus(fq, old, nullptr, true) * ratio;
        double borrow =
            Gpus(fq, old, &ResourceQuotaSpec::borrowing_limit, false);
        double lend = Gpus(fq, old, &ResourceQuotaSpec::lending_limit, false);
        if (borrow > 0) borrow *= ratio;
        if (lend > 0) lend *= ratio;
        std::string scaled;
        ScaleCpuAndMemory(original, *variant, pools, scales, &fq, &scaled);
        std::vector<ResourceQuotaSpec> kept;
        std::string from, to;
        for (const ResourceQuotaSpec& r : fq.resources) {
          if (old.count(r.resource) > 0) {
            from += fmt::format("{}{} {}", from.empty() ? "" : ", ", r.resource,
                                r.nominal_quota);
          } else {
            kept.push_back(r);
          }
        }
        for (const auto& [name, per_gpu] : now) {
          ResourceQuotaSpec r;
          r.resource = name;
          // Rounded down (with a margin for binary fractions once scaled
          // with the pools).
          const double margin = ratio != 1 ? 1e-9 : 0;
          const auto count = [&](double x) {
            return static_cast<int64_t>(std::floor(x + margin));
          };
          r.nominal_quota = count(gpus * per_gpu);
          if (borrow >= 0) r.borrowing_limit = count(borrow * per_gpu);
          if (lend >= 0) {
            r.lending_limit = std::min(r.nominal_quota, count(lend * per_gpu));
          }
          to += fmt::format("{}{} {}", to.empty() ? "" : ", ", name,
                            r.nominal_quota);
          kept.push_back(r);
        }
        fq.resources = std::move(kept);
        converted = true;
        notes.push_back(fmt::format(
            "ClusterQueue {} flavor {}: quota {} becomes {} ({:g} GPUs){}",
            cq.name, fq.flavor, from.empty() ? "none" : from,
            to.empty() ? "none" : to, gpus,
            scaled.empty() ? "" : "; " + scaled));
      }
      if (!converted) continue;
      // One covered set for the group: the resources kept in their order,
      // then the new device resources; missing ones at 0.
      std::vector<std::string> covered;
      for (const FlavorQuotasSpec& fq : group.flavors) {
        for (const ResourceQuotaSpec& r : fq.resources) {
          if (std::find(covered.begin(), covered.end(), r.resource) ==
              covered.end()) {
            covered.push_back(r.resource);
          }
        }
      }
      for (FlavorQuotasSpec& fq : group.flavors) {
        std::vector<ResourceQuotaSpec> ordered;
        for (const std::string& name : covered) {
          auto it = std::find_if(
              fq.resources.begin(), fq.resources.end(),
              [&](const ResourceQuotaSpec& r) { return r.resource == name; });
          if (it != fq.resources.end()) {
            ordered.push_back(*it);
          } else {
            ResourceQuotaSpec zero;
            zero.resource = name;
            ordered.push_back(zero);
          }
        }
        fq.resources = std::move(ordered);
      }
      group.covered_resources = covered;
    }
  }
  for (std::string& note : notes_mapped) notes.push_back(std::move(note));
  // A flavor left as written over pools that now run HAMi still needs
  // quotas for what HAMi pods request (a no-op where converted above).
  for (std::string& note :
       CoverHamiQueueResources(variant->pools, catalog, &variant->queues)) {
    notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace gpushare
