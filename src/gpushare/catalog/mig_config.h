// Named MIG configurations as NVIDIA's MIG manager ships them.
//
// Contract: for a MIG-capable model, the configs the GPU Operator's default
// mig-parted ConfigMap (or `nvidia-mig-parted generate-config`) offers
// (NVIDIA/gpu-operator assets/state-mig-manager/0400_configmap.yaml;
// NVIDIA/mig-parted pkg/mig/builder/builder.go, balanced.go):
// `all-disabled` (MIG off), `all-enabled` (MIG on, no instances),
// `all-<profile>` for every profile at its max count ('+' in the profile
// name becomes '.': all-1g.5gb.me), and `all-balanced` (7-slice GPUs:
// 2 x 1g + 1 x 2g + 1 x 3g; 4-slice GPUs: 2 x 1g + 1 x 2g; for each G the
// profile without media suffix that has the highest max count). Every
// config's instances fit the GPU (checked when built).

#ifndef GPUSHARE_CATALOG_MIG_CONFIG_H_
#define GPUSHARE_CATALOG_MIG_CONFIG_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"

namespace gpushare {

struct NamedMigConfig {
  std::string name;          // "all-balanced"
  bool mig_enabled = false;
  std::vector<int> counts;   // instances per profile (MigGeometry order)
  MigLayout layout;          // where the instances go (PlaceMigProfiles)
};

// The named configs of `model`, in the order above; empty if not MIG-capable.
std::vector<NamedMigConfig> NamedMigConfigs(const GpuModel& model);

// The config called `name`; throws InputError naming the closest configs.
NamedMigConfig FindNamedMigConfig(const GpuModel& model,
                                  const std::string& name);

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_MIG_CONFIG_H_
