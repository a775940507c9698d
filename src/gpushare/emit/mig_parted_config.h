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
// (the same name on different GPU models) get `<pool>-<config>` instead.
// With `today` (the scenario the cluster runs now), a pool whose config name
// today's pool of the same name gives another layout gets `<name>-2` (or
// the next number free in both): its nodes carry the name already, and the
// MIG manager acts only when the label's value changes, so the same name
// would leave the old layout in place (and a restarted MIG manager would
// apply the new one without a drain). With `today` the file also keeps, after
// the scenario's configs, the configs nodes carry today that it does not
// define (today's pools' configs, and the catalog's named configs today's
// imported nodes are labelled with; none given two layouts): the MIG manager
// restarts when its ConfigMap's name changes and applies each node's label
// again, and a name missing from the file would mark the node failed (so
// node-setup.sh would drain a node whose layout does not change). The
// layouts are the ones the simulation runs (SharingConfig::Validate);
// mig-parted keeps counts, not start positions, so MIG manager places the
// instances itself. MigPartedConfigMap() wraps the file as the ConfigMap the
// MIG manager reads (data key `config.yaml`, which a custom config must use),
// preceded by comments saying how to select each pool's config (node label
// `nvidia.com/mig.config`) and which ClusterPolicy settings it needs
// (`spec.migManager.config.name`, `spec.mig.strategy`). Throws InputError
// when the scenario has no MIG pool. Deterministic.
//
// Layouts by content (for the change scripts, emit/change_script.h): what a
// config does to a node's GPUs is a MigNodeCounts, per GPU index the
// instances per profile (MigGeometry order), empty where MIG is off. The MIG
// manager keeps counts, not start positions (mig-parted `assert` compares
// each GPU's instances per profile with the config's `mig-devices`:
// cmd/nvidia-mig-parted/assert/config.go AssertMigConfig), so two configs
// with equal MigNodeCounts are one layout under two names. PoolMigCounts()
// is what a MIG pool's config does to each of its GPUs. KnownMigConfigs() is
// every config a node of `model` with `gpus` GPUs may carry, by name: the
// catalog's named configs of the model (catalog/mig_config.h: every GPU
// alike) and the configs PoolMigConfigs gives the MIG pools of that model in
// `scenario` (named as with `today`) and in `today` (either may be null; a
// pool with another GPU count counts only when its GPUs are all alike); a
// name that means two layouts there is left out. SameLayoutMigConfigs() is
// the names in `known` other than `config` whose layout is `counts`, sorted.

#ifndef GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_
#define GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_

#include <map>
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
                                          const Catalog& catalog,
                                          const Scenario* today = nullptr);

std::string MigPartedConfigYaml(const Scenario& scenario,
                                const Catalog& catalog,
                                const Scenario* today = nullptr);

struct MigPartedConfigMapOptions {
  std::string name = "custom-mig-config";  // the GPU Operator docs' example
  std::string namespace_name = "gpu-operator";
  const Scenario* today = nullptr;  // the scenario the cluster runs now
};

std::string MigPartedConfigMap(const Scenario& scenario, const Catalog& catalog,
                               const MigPartedConfigMapOptions& options = {});

// Per GPU index, the instances per profile; empty where MIG is off.
using MigNodeCounts = std::vector<std::vector<int>>;

MigNodeCounts PoolMigCounts(const NodePoolSpec& pool, const GpuModel& model);

std::map<std::string, MigNodeCounts> KnownMigConfigs(
    const GpuModel& model, int gpus, const Scenario* scenario,
    const Scenario* today, const Catalog& catalog);

std::vector<std::string> SameLayoutMigConfigs(
    const std::string& config, const MigNodeCounts& counts,
    const std::map<std::string, MigNodeCounts>& known);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_MIG_PARTED_CONFIG_H_
