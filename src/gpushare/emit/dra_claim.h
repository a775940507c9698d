// DraClaim: the ResourceClaim a pod of a `devices: dra` pool gets, as the
// simulation gives it, in the form emit writes it (a ResourceClaimTemplate
// per tenant class, namespace and claim; docs/emit.md, "DRA pools").
//
// Contract: DraClaimOf() reads a pod translated for a DRA pool
// (workload/request_translator.h TranslateDraRequests: one `exactly` request
// of `count` devices of one DeviceClass, accounted under the class's
// bookkeeping name deviceclass.resource.kubernetes.io/<class>) back into the
// claim: the class, the count, and from the pool's driver settings
// (cluster/dra/dra_pool_settings.h) `memory_mib` — with consumable shares in
// memory mode, the memory each device must provide: the size the pod's
// template asks (its class's request, else its own footprint; the size
// HAMi's nvidia.com/gpumem is written from), in MiB, so already a whole Mi —
// and the TimeSlicing interval of whole GPUs (a MIG device's config has no
// interval: MigDeviceSharing, api/nvidia.com/resource/v1beta1/sharing.go).
// nullopt when the pod asks none of those classes (gpu.nvidia.com, the
// pool's per-profile classes). The bookkeeping name never leaves this
// function. DraClaimTemplateName() names the template
// `<class>-<pool>-<short class>[-x<count>][-<memory>mi]` ("gpu" for
// gpu.nvidia.com, "mig-1g-10gb" for mig-1g-10gb.gpu.nvidia.com): a DNS-1123
// subdomain of at most 253 characters for class and pool names as the
// scenario reader admits them (DNS labels of 50 and 40). ResourceClaimTemplateYaml()
// writes the resource.k8s.io/v1 object (kubernetes/api resource/v1/types.go:
// spec.spec.devices.requests[{name: gpu, exactly: {deviceClassName,
// allocationMode: ExactCount, count, capacity.requests.memory or .shares}}]
// and, for an
// interval other than Default, devices.config[{requests: [gpu], opaque:
// {driver: gpu.nvidia.com, parameters: GpuConfig}}]). kDraClaimName is the
// request's name and the pod's resourceClaims[].name.

#ifndef GPUSHARE_EMIT_DRA_CLAIM_H_
#define GPUSHARE_EMIT_DRA_CLAIM_H_

#include <cstdint>
#include <optional>
#include <string>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

inline constexpr const char* kDraClaimName = "gpu";

struct DraClaim {
  std::string pool;
  std::string device_class;  // gpu.nvidia.com, mig-<profile>.gpu.nvidia.com
  int64_t count = 1;
  int64_t memory_mib = 0;  // capacity.requests.memory; 0: none
  DraTimeSliceInterval interval = DraTimeSliceInterval::kDefault;
  // KEP-5004: the pod asks the class's extended resource instead.
  std::string extended_resource;  // "" unless the pool sets extended_resource
  auto operator<=>(const DraClaim&) const = default;
  // capacity.requests.shares; 0: none. Every share of the device, for a
  // pool that does not share GPUs when the driver runs with a count of
  // consumable shares for others (DraDriverSettings).
  int64_t shares = 0;
  // The pod references a shared ResourceClaim (Pod::dra_claim, a class's
  // pods_per_claim > 1): written as a ResourceClaim its pods name
  // (resourceClaimName), not a template.
  bool shared = false;
  // A `sharing: mps` DRA pool: GpuConfig sharing.strategy MPS with
  // mpsConfig's defaultActiveThreadPercentage (0: unset) and
  // defaultPinnedDeviceMemoryLimit (MiB; 0: unset).
  bool mps = false;
  int mps_active_thread_percentage = 0;
  int64_t mps_pinned_memory_limit_mib = 0;
};

// `driver`: what the driver runs with for the whole cluster
// (emit/dra_driver_values.h DraDriverSettings); the default: no consumable
// shares.
std::optional<DraClaim> DraClaimOf(const Pod& pod, const NodePool& pool,
                                   const ResourceRegistry& registry,
                                   const DraPoolSettings& driver = {});

std::string DraClaimTemplateName(const std::string& tenant_class,
                                 const DraClaim& claim);

std::string ResourceClaimTemplateYaml(const std::string& namespace_name,
                                      const std::string& name,
                                      const DraClaim& claim);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_CLAIM_H_
