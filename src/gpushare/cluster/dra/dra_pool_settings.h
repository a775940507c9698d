// DraPoolSettings: how NVIDIA's DRA driver is configured on a `devices: dra`
// pool (the scenario's pool key `dra:`), beyond the pool's sharing scheme.
//
// Contract: plain settings, checked against the pool's sharing by
// DraPoolSettingsProblem; EffectiveDraPoolSettings gives what the driver runs
// with (a DRA pool with scheme time-slicing has consumable shares). Their
// upstream meaning (kubernetes-sigs/dra-driver-nvidia-gpu,
// commit 95932046):
//  - consumable shares: the kubelet plugin's `--consumable-shares` flag (Helm
//    value `consumableShares`, feature gate `ConsumableShares`, alpha, off by
//    default; cmd/gpu-kubelet-plugin/consumable_shares.go). With it, every
//    device is published with `allowMultipleAllocations: true` and a
//    `memory` requestPolicy, so independent claims (KEP-5075, consumable
//    capacity) share one device: `N` adds a `shares` capacity of N (each claim
//    takes 1 by default); `memory` makes each claim take the memory it asks
//    (the whole device when it asks none); `unlimited` lets claims that ask
//    no memory share without limit. The driver enforces none of it on the
//    GPU (no memory or compute isolation); contexts time-slice.
//  - time-slicing interval: the claim's opaque GpuConfig
//    `sharing.strategy: TimeSlicing`, `timeSlicingConfig.interval`
//    (Default, Short, Medium, Long; api/nvidia.com/resource/v1beta1/
//    sharing.go; feature gate `TimeSlicingSettings`, alpha, off by default).
//  - extended resource (KEP-5004): the DeviceClasses carry
//    `extendedResourceName` (gpu.nvidia.com: nvidia.com/gpu; per MIG profile
//    nvidia.com/mig-<profile>), and pods of the pool ask those extended
//    resources as they would of the device plugin instead of a
//    ResourceClaimTemplate; the scheduler's DynamicResources plugin makes the
//    claim (Kubernetes gate DRAExtendedResource, beta in 1.36).

#ifndef GPUSHARE_CLUSTER_DRA_DRA_POOL_SETTINGS_H_
#define GPUSHARE_CLUSTER_DRA_DRA_POOL_SETTINGS_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

// The driver's --consumable-shares mode.
enum class DraConsumableShares { kDisabled, kCount, kMemoryShares, kUnlimited };

// GpuConfig TimeSlicing interval (sharing.go TimeSliceInterval).
enum class DraTimeSliceInterval { kDefault, kShort, kMedium, kLong };

struct DraPoolSettings {
  DraConsumableShares consumable_shares = DraConsumableShares::kDisabled;
  // The N of kCount (>= 2); 0 otherwise.
  int shares = 0;
  DraTimeSliceInterval time_slice_interval = DraTimeSliceInterval::kDefault;
  bool extended_resource = false;
  // A `sharing: mps` pool ("DRA MPS"): the claims' GpuConfig
  // `sharing.strategy: MPS` with `mpsConfig.defaultActiveThreadPercentage`
  // (1..100; 0: unset, no limit) and `defaultPinnedDeviceMemoryLimit` (MiB;
  // 0: unset, no limit) — the driver's MPS control daemon per claim applies
  // them to every client process (cmd/gpu-kubelet-plugin/sharing.go; gate
  // MPSSupport, alpha).
  int mps_active_thread_percentage = 0;
  int64_t mps_pinned_memory_limit_mib = 0;
  // The GPUs (indexes, ascending) whose claims run under those MPS settings:
  // an imported node's allocated MPS claims' GPUs, since the driver applies a
  // claim's GpuConfig to that claim's devices only; empty: every GPU of the
  // pool (a written DRA MPS pool).
  std::vector<int> mps_gpus;

  bool operator==(const DraPoolSettings&) const = default;
};

// "Default", "Short", "Medium", "Long" (the driver's spelling).
std::string_view DraTimeSliceIntervalName(DraTimeSliceInterval interval);
bool ParseDraTimeSliceInterval(std::string_view text,
                               DraTimeSliceInterval* interval);

// The Helm value / flag: "disabled", "memory", "unlimited" or N.
std::string DraConsumableSharesValue(const DraPoolSettings& settings);

// "" when a `devices: dra` pool shared by `sharing` may have `settings` (as
// the scenario wrote them; kDisabled also stands for "not written"), else why
// not. The rules (docs/scenario.md, "dra"): consumable shares need scheme
// time-slicing (whole GPUs); an integer must equal `replicas`; the
// TimeSlicing interval needs time-slicing; time-sliced MIG devices (MIG with
// replicas) are not modelled yet; extended_resource: true does not go with
// memory shares (a pod asking nvidia.com/gpu cannot ask memory); the MPS
// settings need scheme mps (whole GPUs), and MPS does not go with
// extended_resource (KEP-5004 claims come from the scheduler, per pod,
// without config).
std::string DraPoolSettingsProblem(const DraPoolSettings& settings,
                                   const SharingConfig& sharing);

// What NVIDIA's driver runs with on a `devices: dra` pool shared by
// `sharing`: scheme time-slicing means consumable shares — `memory` or
// `unlimited` as written, else N = replicas ("DRA time-slicing"); any other
// scheme has none (kDisabled, Default interval); scheme mps keeps the MPS
// settings.
DraPoolSettings EffectiveDraPoolSettings(const DraPoolSettings& settings,
                                         const SharingConfig& sharing);

// How reports name a `devices: dra` pool shared by `sharing`: "exclusive
// (DRA)", "MIG (DRA) 3x 2g.20gb" (SharingLabel's MIG part), "DRA
// time-slicing x4", "DRA shared capacity (memory)", "DRA shared capacity
// (unlimited)", "DRA MPS" (with ", 50% threads" and ", 10240Mi pinned" when
// set); a TimeSlicing interval other than Default is appended
// (", interval Long").
std::string DraPoolSharingLabel(const DraPoolSettings& settings,
                                const SharingConfig& sharing,
                                const GpuModel* model);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DRA_POOL_SETTINGS_H_
