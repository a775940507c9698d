// What a new node of an autoscaled pool looks like once it is ready, as the
// autoscalers' node-group templates must describe it (docs/emit.md,
// "Autoscaled pools"), and the small formats the autoscaler emitters share.
//
// Contract: AutoscaledPools() returns the scenario's pools with GPUs whose
// autoscaling provider is `provider`, in scenario order. NodeGroupTemplateOf()
// builds one node of `pool` with `gpus` GPUs (the pool's own count when
// `gpus` < 0) through the simulator's device plugin (cluster/cluster.h) and
// returns what the node advertises once its device plugin is registered:
// the extended resources by name, sorted — whole GPUs or time-slicing / MPS
// replicas (`nvidia.com/gpu`, `nvidia.com/gpu.shared`), MIG devices
// (`nvidia.com/mig-<profile>` under the mixed strategy, `nvidia.com/gpu` per
// instance under the single one), and for HAMi pools only `nvidia.com/gpu`
// (the vGPU count, split count x GPUs): HAMi's `nvidia.com/gpumem` and
// `nvidia.com/gpucores` are served by its scheduler extender, not
// registered with kubelet, so no template can carry them (they are in
// `extender_resources`, counted as HAMi's scheduler counts them) — plus the
// labels
// the node must carry from its first boot (emit/node_target.h
// PoolNodeTarget: the pool label, the pool's labels, the device-plugin
// config or HAMi label, the MIG config of `mig_config`), its taints, its
// physical GPU count, and whether it hands out GPUs through DRA (then no
// extended resources). Throws InputError as Cluster::AddPool does.
// MigConfigsOf() maps each MIG pool of the scenario to its
// nvidia.com/mig.config value (emit/mig_parted_config.h PoolMigConfigs).
// GoDuration() writes seconds as Go's time.ParseDuration reads them, whole
// units only ("10s", "10m", "1m30s", "1h", "500ms", "0s"); throws
// InputError for a negative, infinite or not-a-number value, or one finer
// than a millisecond. ShortNumber() writes 0.5, 1, 1e-05 as {:g} does.
// Deterministic.

#ifndef GPUSHARE_EMIT_NODE_GROUP_TEMPLATE_H_
#define GPUSHARE_EMIT_NODE_GROUP_TEMPLATE_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct NodeGroupTemplate {
  std::vector<std::pair<std::string, int64_t>> resources;  // sorted by name
  std::vector<std::pair<std::string, int64_t>> extender_resources;  // HAMi
  Labels labels;
  std::vector<Taint> taints;
  int physical_gpus = 0;
  bool dra = false;
};

std::vector<const NodePoolSpec*> AutoscaledPools(const Scenario& scenario,
                                                 AutoscalerProvider provider);

std::map<std::string, std::string> MigConfigsOf(const Scenario& scenario,
                                                const Catalog& catalog);

NodeGroupTemplate NodeGroupTemplateOf(const NodePoolSpec& pool,
                                      const std::string& mig_config,
                                      const Catalog& catalog, int gpus = -1);

std::string GoDuration(double seconds);
std::string ShortNumber(double value);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_NODE_GROUP_TEMPLATE_H_
