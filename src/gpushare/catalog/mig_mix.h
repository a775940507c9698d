// MIG mixes: per-GPU layouts of one node that give some GPUs one instance
// the size of the whole GPU and the others a named config, as operators
// write them in one mig-parted config with per-device entries (`devices:
// [0, 1]` all-7g.80gb, `devices: [2, 3]` all-3g.40gb; NVIDIA/mig-parted
// api/spec/v1/spec.go, MigConfigSpec.Devices).
//
// Contract: WholeGpuMigProfile() is the base profile (no +me/-gfx suffix)
// with every compute slice and the most memory (7g.80gb on H100-80GB,
// 4g.24gb on A30-24GB), or -1 without MIG. "MIG off" on some GPUs of a
// MIG-enabled node (mig-parted `mig-enabled: false` per device) is not
// modelled: the device plugin's mixed strategy would advertise such a GPU as
// nvidia.com/gpu beside the MIG resources, and the simulated device plugin
// gives a MIG-enabled GPU only its instances; the whole-GPU instance stands
// in for it (the same memory, the SMs usable under MIG).
//
// MigMixWholeGpuCounts(G) is the bounded set of whole-GPU counts k a mix
// tries on a node of G GPUs: every k in 1..G-1 when G <= 4, else 1, G/4,
// G/2 and 3G/4 (rounded down, repeats dropped): 0 to 4 values, ascending.
//
// MigMixes() lists, for a MIG-capable model and G >= 2, one mix per k of
// MigMixWholeGpuCounts(G) (ascending) and per named config (NamedMigConfigs
// order) that is MIG-enabled, has instances, has no media-extension profile
// and is not the whole-GPU config itself: GPUs 0..k-1 hold the whole-GPU
// instance, GPUs k..G-1 the named config. At most 4 x (profiles + 1) mixes
// (H100-80GB, 8 GPUs: 4 x 6 = 24). Empty without MIG or with one GPU.
// Deterministic; pure.

#ifndef GPUSHARE_CATALOG_MIG_MIX_H_
#define GPUSHARE_CATALOG_MIG_MIX_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"

namespace gpushare {

struct MigMix {
  int whole_gpus = 0;        // GPUs 0..whole_gpus-1 hold the whole profile
  std::string other_config;  // the named config of the other GPUs
  // One layout per GPU index (SharingConfig::MigSettings::layouts items:
  // "7g.80gb", "3g.40gb:2"), gpus_per_node of them.
  std::vector<std::vector<std::string>> layouts;
};

int WholeGpuMigProfile(const GpuModel& model);

std::vector<int> MigMixWholeGpuCounts(int gpus_per_node);

std::vector<MigMix> MigMixes(const GpuModel& model, int gpus_per_node);

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_MIG_MIX_H_
