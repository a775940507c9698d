#include "gpushare/workload/request_translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"

namespace gpushare {
namespace {

int64_t WholeGpus(double gpus) {
  return gpus <= 0 ? 0 : static_cast<int64_t>(std::ceil(gpus - 1e-9));
}

// What the pod's template asks per GPU: its class's size, else its own
// needs (trace pods).
struct AskedSize {
  int64_t memory_mib = 0;
  double sm_demand = 0;
  bool from_class = false;  // the class's request, not the pod's needs
  const char* Whose() const {
    return from_class ? "its class's request" : "its footprint";
  }
};

AskedSize AskedSizeOf(const Pod& pod) {
  if (pod.template_request.set()) {
    return {pod.template_request.gpu_memory_mib,
            pod.template_request.sm_demand, true};
  }
  return {pod.needs.gpu_memory_mib, pod.needs.sm_demand, false};
}

// The smallest offered profile holding `size`, or -1 (and `why`).
int ChooseMigProfile(const AskedSize& size, const NodePool& pool,
                     const TranslationOptions& options, std::string* why) {
  const GpuModel& model = *pool.model;
  std::vector<int> offered;
  if (!pool.dynamic_mig_domains.empty()) {
    // Dynamic MIG: every catalog profile can be made.
    for (size_t p = 0; p < model.mig->profiles.size(); ++p) {
      offered.push_back(static_cast<int>(p));
    }
  }
  for (const MigLayout& layout : pool.mig_layouts) {
    for (const MigInstance& in : layout) {
      if (std::find(offered.begin(), offered.end(), in.profile) ==
          offered.end()) {
        offered.push_back(in.profile);
      }
    }
  }
  const auto& profiles = model.mig->profiles;
  std::sort(offered.begin(), offered.end(), [&](int a, int b) {
    if (profiles[a].memory_mib != profiles[b].memory_mib) {
      return profiles[a].memory_mib < profiles[b].memory_mib;
    }
    if (profiles[a].compute_slices != profiles[b].compute_slices) {
      return profiles[a].compute_slices < profiles[b].compute_slices;
    }
    return a < b;
  });
  const double sms_needed = size.sm_demand * model.sms;
  for (int p : offered) {
    if (profiles[p].memory_mib < size.memory_mib) continue;
    if (options.mig_match_sm_demand && profiles[p].sms + 1e-9 < sms_needed) {
      continue;
    }
    return p;
  }
  if (offered.empty()) {
    *why = "node pool '" + pool.spec.name + "' offers no MIG instances";
    return -1;
  }
  const MigProfile& largest = profiles[offered.back()];
  *why = fmt::format(
      "no MIG profile of node pool '{}' holds {} MiB{}{} (largest: {}, {} "
      "MiB, {} SMs)",
      pool.spec.name, size.memory_mib,
      options.mig_match_sm_demand
          ? fmt::format(" with {:.0f} SMs", std::ceil(sms_needed))
          : "",
      size.from_class ? " (its class's request_percentile of footprints)"
                      : "",
      largest.name, largest.memory_mib, largest.sms);
  return offered.back();
}

// Why a pod given `instances` MIG devices (`resource`) cannot run, or "":
// a CUDA process enumerates one MIG device, and MIG instances have no peer
// path between them (NVIDIA MIG User Guide, "CUDA Device Enumeration" and
// "Application Considerations"), so a pod that runs one process — or
// ranks that each pick a visible device by local rank — cannot use more
// than one. A pod whose class says it runs one process per instance
// (Pod::multi_process), and a pod the cluster already runs, are taken to.
std::string SeveralMigInstancesWhy(const Pod& pod, int64_t instances,
                                   std::string_view resource) {
  if (instances <= 1 || pod.multi_process || pod.running_in_dump) return "";
  return fmt::format(
      "it asks for {} MIG instances ({}) in one pod: a CUDA process sees "
      "only one MIG instance and instances have no peer-to-peer path, so "
      "its ranks cannot run together (a class whose pods run one process "
      "per instance says multi_process: true)",
      instances, resource);
}

// A DRA pool: one ResourceClaim from a template per pod, one `exactly`
// request of `n` devices of the class — gpu.nvidia.com for whole GPUs, the
// per-profile class of the profile ChooseMigProfile picks — accounted under
// the class's KEP-5004 name (cluster/dra/dra_gpu_devices.h).
std::string TranslateDraRequests(Pod& pod, const NodePool& pool, int64_t n,
                                 ResourceRegistry& registry,
                                 const TranslationOptions& options) {
  const GpuModel& model = *pool.model;
  std::string why;
  // KEP-5004: with extended_resource the pod asks the class's
  // extendedResourceName (device_class.h: nvidia.com/gpu, MigResourceName),
  // as it would ask the device plugin; no class is built per pod.
  const bool extended = pool.spec.dra.extended_resource;
  if (pool.spec.sharing.scheme() == SharingScheme::kMig) {
    const int profile = ChooseMigProfile(AskedSizeOf(pod), pool, options, &why);
    if (profile < 0) return why;
    const std::string& name = model.mig->profiles[profile].name;
    const std::string resource =
        extended ? MigResourceName(name)
                 : DraClassResourceName(NvidiaMigProfileClassName(name));
    pod.requests.Set(registry.Intern(resource), n);
    if (why.empty()) why = SeveralMigInstancesWhy(pod, n, resource);
    return why;
  }
  pod.requests.Set(
      registry.Intern(extended ? std::string(kNvidiaGpu)
                               : DraClassResourceName(kNvidiaGpuDriver)),
      n);
  const DraPoolSettings consumable =
      EffectiveDraPoolSettings(pool.spec.dra, pool.spec.sharing);
  if (consumable.consumable_shares != DraConsumableShares::kDisabled &&
      pod.dra_claim_memory_mib > 0) {
    // An imported claim's capacity.requests.memory is consumed of each
    // device it picks, whatever the mode (KEP-5075).
    pod.requests.Set(registry.Intern(kDraMemoryResource),
                     pod.dra_claim_memory_mib * n);
    if (pod.dra_claim_memory_mib > model.memory_mib) {
      return fmt::format(
          "its claim's capacity.requests.memory of {} MiB exceeds the {} MiB "
          "of {}",
          pod.dra_claim_memory_mib, model.memory_mib, model.name);
    }
  } else if (consumable.consumable_shares ==
                 DraConsumableShares::kMemoryShares &&
             pod.dra_claim_memory_mib < 0) {
    // Shared capacity: each GPU of the claim asks capacity.requests.memory =
    // the size HAMi's gpumem would get (whole MiB: already a multiple of the
    // policy's 1Mi step); none asked takes the whole GPU (the default).
    const AskedSize size = AskedSizeOf(pod);
    const int64_t per_gpu =
        size.memory_mib > 0 ? size.memory_mib : model.memory_mib;
    pod.requests.Set(registry.Intern(kDraMemoryResource), per_gpu * n);
    if (per_gpu > model.memory_mib) {
      return fmt::format("{} of {} MiB exceeds the {} MiB of {}", size.Whose(),
                         per_gpu, model.memory_mib, model.name);
    }
  }
  if (pod.needs.gpu_memory_mib > model.memory_mib) {
    why = fmt::format("its footprint of {} MiB exceeds the {} MiB of {}",
                      pod.needs.gpu_memory_mib, model.memory_mib, model.name);
  }
  return why;
}

}  // namespace

std::string TranslateRequests(Pod& pod, const NodePool& pool,
                              ResourceRegistry& registry,
                              const TranslationOptions& options) {
  ResourceList& r = pod.requests;
  r = ResourceList();
  r.Set(ResourceRegistry::kCpuId, pod.cpu_milli);
  r.Set(ResourceRegistry::kMemoryId, pod.memory_mib);
  if (!pod.explicit_requests.empty()) {
    // On a MIG pool its nvidia.com/gpu (single strategy) or
    // nvidia.com/mig-* requests are MIG instances.
    const bool mig = pool.model != nullptr &&
                     pool.spec.sharing.scheme() == SharingScheme::kMig;
    int64_t instances = 0;
    std::string names;
    for (const auto& [name, quantity] : pod.explicit_requests) {
      r.Set(registry.Intern(name), quantity);
      if (mig && (name.starts_with("nvidia.com/mig-") || name == kNvidiaGpu ||
                  name == std::string(kNvidiaGpu) + ".shared")) {
        instances += quantity;
        names += (names.empty() ? "" : ", ") + name;
      }
    }
    return SeveralMigInstancesWhy(pod, instances, names);
  }
  const int64_t n = WholeGpus(pod.needs.gpus);
  if (n == 0) return "";
  if (pool.model == nullptr) {
    return "node pool '" + pool.spec.name + "' has no GPUs";
  }
  const SharingConfig& sharing = pool.spec.sharing;
  const GpuModel& model = *pool.model;
  const bool renamed = (sharing.sharing == DeviceSharing::kTimeSlicing ||
                        sharing.sharing == DeviceSharing::kMps) &&
                       sharing.replicas.rename_by_default;
  const std::string suffix = renamed ? ".shared" : "";
  std::string why;
  if (pool.spec.devices == PoolDevices::kDra) {
    return TranslateDraRequests(pod, pool, n, registry, options);
  }
  switch (sharing.scheme()) {
    case SharingScheme::kExclusive:
    case SharingScheme::kTimeSlicing:
    case SharingScheme::kMps:
      r.Set(registry.Intern(std::string(kNvidiaGpu) + suffix), n);
      if (sharing.scheme() == SharingScheme::kMps) {
        const int64_t limit = model.memory_mib / sharing.replicas.replicas;
        if (n > 1 && sharing.replicas.fail_requests_greater_than_one) {
          return fmt::format(
              "it needs {} GPUs and node pool '{}' rejects requests for more "
              "than one MPS replica (failRequestsGreaterThanOne)",
              n, pool.spec.name);
        }
        if (pod.needs.gpu_memory_mib > limit) {
          return fmt::format(
              "its footprint of {} MiB exceeds the MPS per-replica memory "
              "limit of {} MiB ({} MiB / {} replicas)",
              pod.needs.gpu_memory_mib, limit, model.memory_mib,
              sharing.replicas.replicas);
        }
      }
      if (pod.needs.gpu_memory_mib > model.memory_mib) {
        why =
            fmt::format("its footprint of {} MiB exceeds the {} MiB of {}",
                        pod.needs.gpu_memory_mib, model.memory_mib, model.name);
      }
      return why;
    case SharingScheme::kMig: {
      const int profile =
          ChooseMigProfile(AskedSizeOf(pod), pool, options, &why);
      if (profile < 0) return why;
      const std::string resource =
          (sharing.mig.strategy == MigStrategy::kSingle
               ? std::string(kNvidiaGpu)
               : model.mig->profiles[profile].ResourceName()) +
          suffix;
      r.Set(registry.Intern(resource), n);
      if (why.empty()) why = SeveralMigInstancesWhy(pod, n, resource);
      return why;
    }
    case SharingScheme::kHami: {
      // Every vGPU right-sized from the same size as MIG's profile (the
      // class's request, else the pod's own needs): footprint and SM
      // demand per GPU, whole GPUs included.
      const AskedSize size = AskedSizeOf(pod);
      r.Set(registry.Intern(kNvidiaGpu), n);
      if (size.memory_mib > 0) {
        r.Set(registry.Intern(kHamiGpuMem), size.memory_mib);
      }
      const int64_t cores = std::clamp<int64_t>(
          static_cast<int64_t>(std::ceil(size.sm_demand * 100 - 1e-9)), 1,
          100);
      r.Set(registry.Intern(kHamiGpuCores), cores);
      if (size.memory_mib > model.memory_mib) {
        why = fmt::format("{} of {} MiB exceeds the {} MiB of {}", size.Whose(),
                          size.memory_mib, model.memory_mib, model.name);
      }
      return why;
    }
  }
  return why;
}

namespace {

// Whether `node`'s labels and NoSchedule/NoExecute taints admit the pod.
bool Admits(const Pod& pod, const Node& node) {
  if (!MatchesSelector(pod.node_selector, node.labels())) return false;
  if (!pod.required_affinity.empty() &&
      std::none_of(pod.required_affinity.begin(), pod.required_affinity.end(),
                   [&](const NodeSelectorTerm& t) {
                     return Matches(t, node.labels());
                   })) {
    return false;
  }
  for (const Taint& taint : node.taints()) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
    if (std::none_of(pod.tolerations.begin(), pod.tolerations.end(),
                     [&](const Toleration& t) { return t.Tolerates(taint); })) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool PoolAdmits(const Pod& pod, const Cluster& cluster, int pool) {
  const NodePool& p = cluster.pools()[pool];
  // Generated pools' nodes share labels and taints: the first decides.
  // Imported nodes keep their own: any of them may admit the pod.
  const int first = p.first_node;
  const int end = p.spec.members.empty() ? first + 1 : first + p.node_count;
  for (int n = first; n < end; ++n) {
    if (Admits(pod, cluster.nodes()[n])) return true;
  }
  return false;
}

namespace {

// Whether DRA pool `pool` publishes devices of DeviceClass `device_class`
// (the NVIDIA classes TranslateDraRequests asks).
bool PoolServesDraClass(const NodePool& pool,
                        const std::string& device_class) {
  if (pool.spec.devices != PoolDevices::kDra || pool.model == nullptr) {
    return false;
  }
  if (!pool.dynamic_mig_domains.empty()) {
    // Dynamic MIG: the whole GPU (Hopper+) and every catalog profile.
    if (device_class == kNvidiaGpuDriver) return NvidiaMigModeToggles(*pool.model);
    for (const MigProfile& p : pool.model->mig->profiles) {
      if (NvidiaMigProfileClassName(p.name) == device_class) return true;
    }
    return false;
  }
  if (device_class == kNvidiaGpuDriver) return pool.mig_layouts.empty();
  for (const MigLayout& layout : pool.mig_layouts) {
    for (const MigInstance& in : layout) {
      if (NvidiaMigProfileClassName(pool.model->mig->profiles[in.profile]
                                        .name) == device_class) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool PoolHasAllowedModel(const Pod& pod, const NodePool& pool) {
  if (pod.dra_gpu_models.empty()) return true;
  return pool.model != nullptr &&
         std::binary_search(pod.dra_gpu_models.begin(),
                            pod.dra_gpu_models.end(), pool.model->name);
}

int TargetPool(const Pod& pod, const Cluster& cluster) {
  if (!pod.dra_device_class.empty()) {
    for (size_t i = 0; i < cluster.pools().size(); ++i) {
      if (PoolServesDraClass(cluster.pools()[i], pod.dra_device_class) &&
          PoolHasAllowedModel(pod, cluster.pools()[i]) &&
          PoolAdmits(pod, cluster, static_cast<int>(i))) {
        return static_cast<int>(i);
      }
    }
  }
  for (size_t i = 0; i < cluster.pools().size(); ++i) {
    if (PoolHasAllowedModel(pod, cluster.pools()[i]) &&
        PoolAdmits(pod, cluster, static_cast<int>(i))) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

void RequireNodePools(const std::vector<std::string>& pools,
                      std::vector<NodeSelectorTerm>* terms) {
  NodeSelectorRequirement in;
  in.key = kNodePoolLabel;
  in.op = NodeSelectorRequirement::Operator::kIn;
  in.values = pools;
  if (terms->empty()) terms->emplace_back();
  for (NodeSelectorTerm& term : *terms) term.match_expressions.push_back(in);
}

std::vector<std::string> PinToTargetPool(Pod& pod, int target,
                                         const Cluster& cluster,
                                         ResourceRegistry& registry,
                                         const TranslationOptions& options) {
  if (target < 0 || !pod.explicit_requests.empty() ||
      WholeGpus(pod.needs.gpus) == 0) {
    return {};
  }
  const auto& pools = cluster.pools();
  const ResourceList written = pod.requests;
  std::vector<std::string> same = {pools[target].spec.name};
  bool differs = false;
  for (size_t q = 0; q < pools.size(); ++q) {
    if (static_cast<int>(q) == target || pools[q].model == nullptr ||
        pools[q].node_count == 0) {
      continue;
    }
    // Only a pool whose nodes advertise every extended resource the pod
    // asks for can take it.
    const ResourceList& offered =
        cluster.nodes()[pools[q].first_node].extended();
    bool takes = true;
    for (const auto& [id, quantity] : written.items()) {
      if (id == ResourceRegistry::kCpuId || id == ResourceRegistry::kMemoryId) {
        continue;
      }
      takes = takes && offered.Get(id) > 0;
    }
    if (!takes || !PoolAdmits(pod, cluster, static_cast<int>(q))) continue;
    const std::string why = TranslateRequests(pod, pools[q], registry, options);
    const bool equivalent =
        why.empty() && pod.requests == written &&
        pools[q].spec.sharing.scheme() == pools[target].spec.sharing.scheme();
    pod.requests = written;
    if (equivalent) {
      same.push_back(pools[q].spec.name);
    } else {
      differs = true;
    }
  }
  if (!differs) return {};
  if (same.size() == 1) {
    pod.node_selector[kNodePoolLabel] = same.front();
    return same;
  }
  // Several pools read it alike: required affinity `In` them.
  RequireNodePools(same, &pod.required_affinity);
  return same;
}

}  // namespace gpushare
