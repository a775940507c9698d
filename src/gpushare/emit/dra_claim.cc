#include "gpushare/emit/dra_claim.h"

#include <fmt/format.h>

#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

// The short part of a class name in a template name: "gpu" for
// gpu.nvidia.com, "mig-1g-10gb" for mig-1g-10gb.gpu.nvidia.com.
std::string DraClaimShortClass(const std::string& device_class) {
  const std::string suffix = std::string(".") + kNvidiaGpuDriver;
  if (device_class == kNvidiaGpuDriver) return "gpu";
  if (device_class.size() > suffix.size() &&
      device_class.compare(device_class.size() - suffix.size(), suffix.size(),
                           suffix) == 0) {
    return device_class.substr(0, device_class.size() - suffix.size());
  }
  return device_class;
}

// The class's KEP-5004 extended resource name (device_class.h), "" for a
// class that is not one of `pool`'s.
std::string DraClaimExtendedResource(const std::string& device_class,
                                     const NodePool& pool) {
  if (device_class == kNvidiaGpuDriver) return std::string(kNvidiaGpu);
  if (pool.model != nullptr && pool.model->mig) {
    for (const MigProfile& p : pool.model->mig->profiles) {
      if (NvidiaMigProfileClassName(p.name) == device_class) {
        return p.ResourceName();
      }
    }
  }
  return "";
}

// The class of `pool` whose extendedResourceName is `resource`, or "".
std::string DraClaimClassOfExtendedResource(const std::string& resource,
                                            const NodePool& pool) {
  if (resource == kNvidiaGpu) return kNvidiaGpuDriver;
  if (pool.model != nullptr && pool.model->mig) {
    for (const MigProfile& p : pool.model->mig->profiles) {
      if (p.ResourceName() == resource) return NvidiaMigProfileClassName(p.name);
    }
  }
  return "";
}

}  // namespace

std::optional<DraClaim> DraClaimOf(const Pod& pod, const NodePool& pool,
                                   const ResourceRegistry& registry,
                                   const DraPoolSettings& driver) {
  if (pool.spec.devices != PoolDevices::kDra) return std::nullopt;
  for (const auto& [id, quantity] : pod.requests.items()) {
    const std::string& name = registry.Name(id);
    if (quantity <= 0) continue;
    DraClaim claim;
    claim.pool = pool.spec.name;
    if (name.compare(0, kDraClassResourcePrefix.size(),
                     kDraClassResourcePrefix) == 0) {
      claim.device_class = name.substr(kDraClassResourcePrefix.size());
    } else if (pool.spec.dra.extended_resource) {
      // KEP-5004: the pod asks a class's extendedResourceName.
      claim.device_class = DraClaimClassOfExtendedResource(name, pool);
      if (claim.device_class.empty()) continue;
    } else {
      continue;
    }
    // Only the NVIDIA classes TranslateDraRequests asks: gpu.nvidia.com and
    // the pool's per-profile classes.
    if (claim.device_class != kNvidiaGpuDriver &&
        DraClaimExtendedResource(claim.device_class, pool).empty()) {
      continue;
    }
    claim.count = quantity;
    const DraPoolSettings dra =
        EffectiveDraPoolSettings(pool.spec.dra, pool.spec.sharing);
    if (dra.consumable_shares == DraConsumableShares::kMemoryShares) {
      claim.memory_mib = pod.template_request.set()
                             ? pod.template_request.gpu_memory_mib
                             : pod.needs.gpu_memory_mib;
    }
    if (dra.consumable_shares == DraConsumableShares::kDisabled &&
        driver.consumable_shares == DraConsumableShares::kCount) {
      // The pool does not share, but the driver publishes N shares of
      // every device: the claim takes them all.
      claim.shares = driver.shares;
    }
    if (claim.device_class == kNvidiaGpuDriver) {
      claim.interval = dra.time_slice_interval;
    }
    if (dra.extended_resource) {
      claim.extended_resource =
          DraClaimExtendedResource(claim.device_class, pool);
    }
    // A shared claim where the simulation keeps it (sim/simulation.h
    // NoteSharedClaim): a DRA pool of whole GPUs without extended_resource.
    claim.shared = !pod.dra_claim.empty() && !dra.extended_resource &&
                   !pool.spec.sharing.mig_enabled;
    if (claim.device_class == kNvidiaGpuDriver &&
        pool.spec.sharing.scheme() == SharingScheme::kMps) {
      claim.mps = true;
      claim.mps_active_thread_percentage =
          pool.spec.dra.mps_active_thread_percentage;
      claim.mps_pinned_memory_limit_mib =
          pool.spec.dra.mps_pinned_memory_limit_mib;
    }
    return claim;
  }
  return std::nullopt;
}

std::string DraClaimTemplateName(const std::string& tenant_class,
                                 const DraClaim& claim) {
  std::string name = fmt::format("{}-{}-{}", tenant_class, claim.pool,
                                 DraClaimShortClass(claim.device_class));
  if (claim.count > 1) name += fmt::format("-x{}", claim.count);
  if (claim.memory_mib > 0) name += fmt::format("-{}mi", claim.memory_mib);
  if (claim.shared) name += "-shared";
  return name;
}

namespace {

// The claim spec's `devices:` block, every line indented by `indent`.
std::string DraClaimDevicesYaml(const DraClaim& claim,
                                const std::string& indent) {
  std::string out = fmt::format(
      "devices:\n"
      "  requests:\n"
      "    - name: {}\n"
      "      exactly:\n"
      "        deviceClassName: {}\n"
      "        allocationMode: ExactCount\n"
      "        count: {}\n",
      kDraClaimName, YamlScalar(claim.device_class), claim.count);
  if (claim.memory_mib > 0 || claim.shares > 0) {
    out +=
        "        capacity:\n"
        "          requests:\n";
  }
  if (claim.memory_mib > 0) {
    out += fmt::format("            memory: \"{}Mi\"\n", claim.memory_mib);
  }
  if (claim.shares > 0) {
    out += fmt::format("            shares: \"{}\"\n", claim.shares);
  }
  const bool time_slicing = claim.interval != DraTimeSliceInterval::kDefault;
  if (time_slicing || claim.mps) {
    out += fmt::format(
        "  config:\n"
        "    - requests: [{}]\n"
        "      opaque:\n"
        "        driver: {}\n"
        "        parameters:\n"
        "          apiVersion: resource.nvidia.com/v1beta1\n"
        "          kind: GpuConfig\n"
        "          sharing:\n",
        kDraClaimName, kNvidiaGpuDriver);
  }
  if (claim.mps) {
    out += "            strategy: MPS\n";
    if (claim.mps_active_thread_percentage > 0 ||
        claim.mps_pinned_memory_limit_mib > 0) {
      out += "            mpsConfig:\n";
    }
    if (claim.mps_active_thread_percentage > 0) {
      out += fmt::format("              defaultActiveThreadPercentage: {}\n",
                         claim.mps_active_thread_percentage);
    }
    if (claim.mps_pinned_memory_limit_mib > 0) {
      out += fmt::format(
          "              defaultPinnedDeviceMemoryLimit: \"{}Mi\"\n",
          claim.mps_pinned_memory_limit_mib);
    }
  } else if (time_slicing) {
    out += fmt::format(
        "            strategy: TimeSlicing\n"
        "            timeSlicingConfig:\n"
        "              interval: {}\n",
        DraTimeSliceIntervalName(claim.interval));
  }
  std::string indented;
  size_t at = 0;
  while (at < out.size()) {
    const size_t eol = out.find('\n', at);
    indented += indent;
    indented.append(out, at, eol + 1 - at);
    at = eol + 1;
  }
  return indented;
}

}  // namespace

std::string ResourceClaimTemplateYaml(const std::string& namespace_name,
                                      const std::string& name,
                                      const DraClaim& claim) {
  if (claim.shared) {
    return fmt::format(
               "apiVersion: resource.k8s.io/v1\n"
               "kind: ResourceClaim\n"
               "metadata:\n"
               "  name: {}\n"
               "  namespace: {}\n"
               "spec:\n",
               YamlScalar(name), YamlScalar(namespace_name)) +
           DraClaimDevicesYaml(claim, "  ");
  }
  return fmt::format(
             "apiVersion: resource.k8s.io/v1\n"
             "kind: ResourceClaimTemplate\n"
             "metadata:\n"
             "  name: {}\n"
             "  namespace: {}\n"
             "spec:\n"
             "  spec:\n",
             YamlScalar(name), YamlScalar(namespace_name)) +
         DraClaimDevicesYaml(claim, "    ");
}

}  // namespace gpushare
