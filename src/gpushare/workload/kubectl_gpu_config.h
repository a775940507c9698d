// The NVIDIA DRA driver's opaque claim config, read from a kubectl List:
// the `sharing` of a GpuConfig or MigDeviceConfig (kubernetes-sigs/
// dra-driver-nvidia-gpu api/nvidia.com/resource/v1beta1 sharing.go,
// validate.go; cmd/gpu-kubelet-plugin/device_state.go).
//
// Contract: ReadNvidiaClaimSharing() gives the sharing that applies to the
// gpu.nvidia.com devices of request `request` of a claim: the entries of
// the request's DeviceClass `spec.config` (`class_config`),
// then of the claim's `spec.devices.config`, each an `opaque` of driver
// gpu.nvidia.com whose `requests` are empty or name the request (or, for a
// subrequest "r/s", "r"); a later entry overrides an earlier one, so a
// claim's config wins over its class's. Entries of other drivers are
// skipped. The parameters must be apiVersion resource.nvidia.com/v1beta1,
// kind GpuConfig or MigDeviceConfig (others: InputError at `kind`); their
// `sharing` is checked as the driver's Validate() checks it, each failure
// an InputError at the offending value naming the claim ("claim NS/NAME:
// ..."), since the kubelet plugin then refuses to prepare the claim and its
// pods never start: a strategy other than TimeSlicing or MPS ("unknown GPU
// sharing strategy", Fabric "is not enabled"), an interval other than
// Default, Short, Medium, Long, a TimeSlicing strategy with mpsConfig or an
// MPS one with timeSlicingConfig, defaultActiveThreadPercentage outside
// 0..100, a pinned memory limit under 1Mi ("value set too low"), and a
// MigDeviceConfig with timeSlicingConfig (MigDeviceSharing has none).
// defaultPerDevicePinnedMemoryLimit overrides the limit per device (by
// index or UUID); the simulator keeps one limit per claim, the least of
// those given. A thread percentage of 0, which the driver passes on, is
// read as unset (the simulator's MPS limits are 1..100).

#ifndef GPUSHARE_WORKLOAD_KUBECTL_GPU_CONFIG_H_
#define GPUSHARE_WORKLOAD_KUBECTL_GPU_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>

#include <vector>

#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/io/json_value.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/kubectl_mixed_list.h"

namespace gpushare {

struct NvidiaClaimSharing {
  enum class Strategy { kNone, kTimeSlicing, kMps };
  Strategy strategy = Strategy::kNone;
  DraTimeSliceInterval interval = DraTimeSliceInterval::kDefault;
  int active_thread_percentage = 0;     // 0: unset
  int64_t pinned_memory_limit_mib = 0;  // 0: unset
  std::optional<JsonValue> at;          // the `sharing` read, for errors
};

// `claim_name` is "NS/NAME", for errors.
// `class_config`: the class's spec.config (null: none).
NvidiaClaimSharing ReadNvidiaClaimSharing(const JsonValue& claim_spec,
                                          const JsonValue* class_config,
                                          const std::string& request,
                                          const std::string& claim_name);

// The sharing config of the claims allocated on imported DRA nodes, applied
// to those nodes (`nodes`: the import's, a devices: dra node has its
// slice's settings). For each ResourceClaim of `items` with results of
// driver gpu.nvidia.com, each result's request is read as above on the
// node its `pool` names:
//   - MPS on a node with consumable shares: InputError at the sharing,
//     naming the claim and the node (device_state.go: "MPS sharing is not
//     supported when consumable shares is enabled");
//   - MPS on whole GPUs: the node becomes "DRA MPS" (sharing mps, its
//     dra.mps thread percentage and pinned limit the claim's), so the pods
//     of the claim share its GPU under the MPS model with those limits;
//   - MPS on MIG devices: noted, not modelled (the MIG device is not
//     shared by MPS here);
//   - TimeSlicing with an interval: on a consumable-shares node its
//     dra.time_slicing_interval; elsewhere noted (the claim's pods
//     time-slice at the Default interval).
// A node's claims with different settings keep the first claim's (in list
// order), noted; claims without MPS on a node that has it run under it,
// noted. `notes` (if set) gets one sentence per kind with its count.
void ApplyClaimSharingToNodes(const KubectlDraItems& items,
                              std::vector<ImportedNode>* nodes,
                              std::vector<std::string>* notes);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_GPU_CONFIG_H_
