// The change set that moves a cluster's nodes from today's configuration to
// a scenario's (`node-setup.sh`) and back (`rollback.sh`), written by `emit
// k8s` and `plan --out` (docs/emit.md, "node-setup.sh and node-rollback.sh").
//
// Contract: NodeChanges() is one NodeChange (emit/change_script.h) per pool
// with GPUs, in pool order: the pool's nodes as the real cluster has them
// (emit/pool_node_set.h: an imported pool's nodes by name, a written pool's
// by its match_labels or gpushare.io/node-pool=<pool>) and the target the
// pool needs (emit/node_target.h PoolNodeTarget with the pool's MIG config
// from emit/mig_parted_config.h), removing what today's pool of the same
// name in `today` sets and the scenario does not (null `today`: only the
// labels of other schemes are removed), with `mig_alike` the configs known
// from the catalog, `scenario` and `today` whose layout on the pool's GPUs
// is the target's (emit/mig_parted_config.h KnownMigConfigs). NodeSetupScript() is the
// ChangeScript of NodeChanges(). RollbackChanges() is the way back: an
// imported pool's nodes each to their own labels and taints
// (RestoreNodeTarget; nodes alike share one change), a written pool to
// today's pool of the same name (PoolNodeTarget of it, removing what the
// scenario set); nullopt when a written pool with GPUs has no pool in
// `today` (null `today` included): then today's configuration is unknown.
// Their `mig_alike` is found the same way (for an imported node's own
// config, by its name among the known configs; none when it is unknown).
// RollbackScript() is its ChangeScript, `node-rollback.sh`, which
// rollback.sh (emit/apply_script.h) runs after the cluster's objects.
// FindPoolSpec() is the pool named
// `name` in `scenario` (null when either is missing). Throws InputError as
// PoolMigConfigs and the catalog do. Deterministic.

#ifndef GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_
#define GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_

#include <optional>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/emit/change_script.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

const NodePoolSpec* FindPoolSpec(const Scenario* scenario,
                                 const std::string& name);

std::vector<NodeChange> NodeChanges(const Scenario& scenario,
                                    const Catalog& catalog,
                                    const Scenario* today);

std::string NodeSetupScript(const Scenario& scenario, const Catalog& catalog,
                            const Scenario* today = nullptr);

std::optional<std::vector<NodeChange>> RollbackChanges(
    const Scenario& scenario, const Catalog& catalog, const Scenario* today);

std::optional<std::string> RollbackScript(const Scenario& scenario,
                                          const Catalog& catalog,
                                          const Scenario* today);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_
