// SharingConfig: how a node pool's GPUs are cut and shared.
//
// Contract: two orthogonal choices, as NVIDIA's stack has them: whether MIG
// cuts each GPU into instances (mig-parted layout, device-plugin MIG
// strategy), and how each resulting device (a GPU or a MIG instance) is shared
// (not at all, time-slicing or MPS replicas of the NVIDIA device plugin, or
// HAMi's software vGPU). Validate() rejects what the real components reject
// (NVIDIA/k8s-device-plugin README and api/config/v1; NVIDIA MIG User Guide;
// Project-HAMi/HAMi charts/hami): replicas < 2, MPS on MIG, MPS replicas
// over the per-GPU client limit, a MIG layout that does not fit, the single
// strategy with more than one profile, MIG on a GPU without MIG.

#ifndef GPUSHARE_CLUSTER_SHARING_CONFIG_H_
#define GPUSHARE_CLUSTER_SHARING_CONFIG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"

namespace gpushare {

// The scheme a pool is reported and compared under.
enum class SharingScheme { kExclusive, kTimeSlicing, kMps, kMig, kHami };
std::string_view SharingSchemeName(SharingScheme scheme);
// The name users know the scheme by, for reports: "exclusive",
// "time-slicing", "MPS", "MIG", "vGPU (HAMi)".
std::string_view SharingSchemeDisplayName(SharingScheme scheme);
// Parses "exclusive", "time-slicing", "mps", "mig", "hami" (alias "vgpu").
bool ParseSharingScheme(std::string_view text, SharingScheme* scheme);

// How each device is shared.
enum class DeviceSharing { kNone, kTimeSlicing, kMps, kHami };

// sharedDevicesAllocationPolicy of the NVIDIA device plugin
// (internal/rm/allocate.go).
enum class ReplicaPolicy { kDistributed, kPacked };
// Device-plugin MIG strategy (NVIDIA/k8s-device-plugin README).
enum class MigStrategy { kSingle, kMixed };
// HAMi node and GPU scheduler policies (Project-HAMi/HAMi
// pkg/scheduler/policy/).
enum class HamiPolicy { kBinpack, kSpread };

struct MigSettings {
  MigStrategy strategy = MigStrategy::kSingle;  // gpu-operator default
  // A named config (all-balanced, all-3g.40gb, ...) applied to every GPU, or
  // empty when `layouts` is given.
  std::string config_name;
  // Explicit layouts: one for every GPU, or one per GPU index. Items as in
  // `mig validate` (profile@start, profile:count, profile).
  std::vector<std::vector<std::string>> layouts;
  // Dynamic MIG (a `devices: dra` pool with `dra: {dynamic_mig: true}`):
  // NVIDIA's DRA driver makes one MIG instance per claim (feature gate
  // DynamicMIG; docs/model.md §11.2), so there is no layout: neither
  // `config_name` nor `layouts`, and the strategy does not apply.
  bool dynamic = false;
};

struct ReplicaSettings {
  int replicas = 0;                        // >= 2 when sharing
  bool rename_by_default = false;          // advertise <name>.shared
  bool fail_requests_greater_than_one = false;  // MPS defaults to true
  ReplicaPolicy policy = ReplicaPolicy::kDistributed;
};

// HAMi device-config defaults (Project-HAMi/HAMi
// charts/hami/templates/scheduler/device-configmap.yaml).
struct HamiSettings {
  int split_count = 10;         // deviceSplitCount
  double memory_scaling = 1.0;  // deviceMemoryScaling
  double core_scaling = 1.0;    // deviceCoreScaling
  int64_t default_memory_mib = 0;  // defaultMemory (0: 100 % of the GPU)
  int default_cores = 0;        // defaultCores
  HamiPolicy node_policy = HamiPolicy::kBinpack;
  HamiPolicy gpu_policy = HamiPolicy::kSpread;
};

struct SharingConfig {
  bool mig_enabled = false;
  MigSettings mig;
  DeviceSharing sharing = DeviceSharing::kNone;
  ReplicaSettings replicas;
  HamiSettings hami;

  SharingScheme scheme() const;

  // Throws InputError (no location; callers add the pool) if the config is
  // invalid for `model`. Returns the resolved MIG layout of each GPU (empty
  // when MIG is off): one per GPU index, `gpus_per_node` of them.
  std::vector<MigLayout> Validate(const GpuModel& model,
                                  int gpus_per_node) const;
};

// Factory helpers for the common cases (used by tests and defaults).
SharingConfig ExclusiveSharing();
SharingConfig TimeSlicingSharing(int replicas);
SharingConfig MpsSharing(int replicas);
SharingConfig MigSharing(MigStrategy strategy, std::string config_name);
SharingConfig HamiSharing();

// How reports name a sharing setting: "exclusive", "time-slicing x4",
// "MPS x2", "vGPU (HAMi) split 10", "MIG all-balanced"; explicit MIG
// layouts as the profile counts of the one layout of every GPU when `model`
// is given ("MIG 3g.40gb + 2 x 2g.20gb") and per-GPU layouts as runs of
// GPUs ("MIG 7g.80gb on GPUs 0-1, 2 x 3g.40gb on GPUs 2-3"), else "MIG
// custom layout".
std::string SharingLabel(const SharingConfig& sharing,
                         const GpuModel* model = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_SHARING_CONFIG_H_
