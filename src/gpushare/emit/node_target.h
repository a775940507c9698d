// The configuration a change script brings a node to: the labels that put it
// in its pool and select its device plugin, MIG layout and HAMi, and its
// taints (docs/emit.md, "node-setup.sh and node-rollback.sh").
//
// Contract: a NodeTarget lists what to set and what to take away where it is
// present, so that applying it is idempotent. `set` labels are set with
// --overwrite; a `remove` entry is removed when the node has the key (with
// `only_value`, only when the key has that value: HAMi's `gpu=on`, so a
// `gpu` label of another meaning stays); `taints` are set with --overwrite;
// `remove_taints` are removed when present. `mig_config` non-empty: the
// node's nvidia.com/mig.config must be it, which takes a drain and the MIG
// manager's reconfiguration when it is not (emit/change_script.h);
// `disable_mig`: a node of a MIG-capable GPU outside MIG — a MIG layout set
// on it today becomes all-disabled the same way, and a node without the
// label is left to the GPU Operator (which labels it all-disabled itself).
//
// PoolNodeTarget() is what a pool needs on every node: gpushare.io/node-pool
// and the pool's labels; for pools served by NVIDIA's device plugin
// nvidia.com/device-plugin.config=<pool> and
// nvidia.com/gpu.deploy.device-plugin=true, without HAMi's gpu=on; for HAMi
// pools gpu=on and nvidia.com/gpu.deploy.device-plugin=false (the GPU
// Operator then runs no device plugin there), without
// nvidia.com/device-plugin.config; for DRA pools (devices: dra, NVIDIA's
// DRA driver) nvidia.com/gpu.deploy.device-plugin=false, without
// nvidia.com/device-plugin.config and gpu=on, and with dynamic MIG
// nvidia.com/gpu.deploy.mig-manager=false and no nvidia.com/mig.config (the
// DRA driver makes the instances; a pool that leaves dynamic MIG has the
// deploy label removed); its MIG config (`mig_config`, "" for a
// pool outside MIG: disable_mig on a MIG-capable GPU, else the label
// removed); its taints. With `before` (the pool as it is today) the labels
// and taints today's pool has and the target does not are removed too (a
// taint of the key and effect of one of the target's is replaced by it).
// RestoreNodeTarget() is the way back for an imported node: each label
// `applied` touched returns to the value the node had (removed when it had
// none; a MIG layout applied where the node had none becomes all-disabled),
// and the taints are the node's own again.

#ifndef GPUSHARE_EMIT_NODE_TARGET_H_
#define GPUSHARE_EMIT_NODE_TARGET_H_

#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"

namespace gpushare {

inline constexpr const char* kDevicePluginConfigLabel =
    "nvidia.com/device-plugin.config";
inline constexpr const char* kDeployDevicePluginLabel =
    "nvidia.com/gpu.deploy.device-plugin";
inline constexpr const char* kMigConfigLabel = "nvidia.com/mig.config";
// The GPU Operator runs its MIG manager on nodes labelled so
// (NVIDIA/gpu-operator controllers/state_manager.go migManagerLabelKey).
inline constexpr const char* kDeployMigManagerLabel =
    "nvidia.com/gpu.deploy.mig-manager";
inline constexpr const char* kMigConfigStateLabel =
    "nvidia.com/mig.config.state";
inline constexpr const char* kMigDisabledConfig = "all-disabled";

struct LabelRemoval {
  std::string key;
  std::string only_value;  // "": whatever its value
  bool operator==(const LabelRemoval&) const = default;
};

struct NodeTarget {
  Labels set;
  std::vector<LabelRemoval> remove;
  std::vector<Taint> taints;
  std::vector<Taint> remove_taints;
  std::string mig_config;
  bool disable_mig = false;
  bool operator==(const NodeTarget&) const = default;
};

NodeTarget PoolNodeTarget(const NodePoolSpec& pool,
                          const std::string& mig_config, bool mig_capable,
                          const NodePoolSpec* before);

NodeTarget RestoreNodeTarget(const NodeIdentity& node,
                             const NodeTarget& applied);

// Appends `taint` to `taints` unless it is there already (the distinct
// taints of several pools, in order of first appearance).
void AddTaintOnce(std::vector<Taint>* taints, const Taint& taint);

// "key=value:Effect" ("key=:Effect" without a value): how kubectl's
// jsonpath range over .spec.taints prints it in the change scripts.
std::string TaintText(const Taint& taint);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_NODE_TARGET_H_
