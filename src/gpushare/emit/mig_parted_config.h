// The mig-parted configuration of a scenario's MIG pools: what NVIDIA's MIG
// manager (GPU Operator) applies to each node, written by
// `gpushare-sim emit mig-parted --scenario FILE`.
//
// Contract: MigPartedConfigYaml() is a mig-parted config file (`version: v1`,
// `mig-configs:`; NVIDIA/mig-parted api/spec/v1/spec.go) holding
// `all-disabled` and one config per MIG pool, in pool order: the pool's
// named config under its own name (every GPU alike: `devices: all`), or
// `<pool>-custom` for explicit layouts, where GPUs with the same profile
// counts share one entry (`devices: [i, ...]`). Each entry has `mig-enabled:
// true` and `mig-devices` (profile → count, larger profiles first, only
// counts > 0). Two pools that name the same config with different counts
// (the same name on different GPU models) get `<pool>-<config>` instead. The
// layouts are the ones the simulation runs (SharingConfig::Validate);
// mig-parted keeps counts, not start positions, so MIG manager places the
// instances itself. MigPartedConfigMap() wraps the file as the ConfigMap the
// MIG manager reads (data key `config.yaml`, which a custom config must use),
// preceded by comments saying how to select each pool's config (node label
// `nvidia.com/mig.config`) and which ClusterPolicy settings it needs
// (`spec.migManager.config.name`, `spec.mig.strategy`). Throws InputError
// when the scenario has no MIG pool. Deterministic.

#ifndef GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_
#define GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The config the MIG manager applies to one pool's nodes.
struct PoolMigConfig {
  std::string pool;
  std::string config;  // the value of nvidia.com/mig.config
  bool mixed = false;  // the pool's device-plugin MIG strategy
};

std::vector<PoolMigConfig> PoolMigConfigs(const Scenario& scenario,
                                          const Catalog& catalog);

std::string MigPartedConfigYaml(const Scenario& scenario,
                                const Catalog& catalog);

struct MigPartedConfigMapOptions {
  std::string name = "custom-mig-config";  // the GPU Operator docs' example
  std::string namespace_name = "gpu-operator";
};

std::string MigPartedConfigMap(const Scenario& scenario, const Catalog& catalog,
                               const MigPartedConfigMapOptions& options = {});

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_
