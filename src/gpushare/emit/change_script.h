// A POSIX shell script that brings sets of nodes to their NodeTargets:
// `node-setup.sh` (today's configuration → the scenario's) and
// `node-rollback.sh` (back), written by `emit k8s` and `plan --out`
// (docs/emit.md, "node-setup.sh and node-rollback.sh").
//
// Contract: ChangeScript() writes `set -eu` shell that
//   - takes one optional argument, --dry-run: every kubectl command that
//     changes something runs with --dry-run=server (the API server admits
//     it and changes nothing); the waits for the MIG manager are skipped;
//     any other argument exits 2 with a usage line;
//   - first checks, changing nothing: every named node exists (kubectl get
//     fails on one that does not), every selector matches a node, and no
//     node belongs to two changes (exit 1 with the reason); a selector that
//     matches another count than `nodes.nodes` is reported on stderr (the
//     README says which nodes to provision or remove), not refused;
//   - then, change by change in order, node by node: a MIG layout that
//     differs from `mig_config` (or a layout on a node that must leave MIG)
//     is changed by cordoning the node, draining it (kubectl drain
//     --ignore-daemonsets --delete-emptydir-data, DRAIN_TIMEOUT, default
//     10m; without --force unless DRAIN_FORCE=1, so a pod without a
//     controller stops the script with its name, the node cordoned),
//     setting nvidia.com/mig.config while removing
//     nvidia.com/mig.config.state in one command, polling the state every
//     MIG_POLL seconds (default 10) until the MIG manager sets success and
//     uncordoning it; state failed stops the script at once, anything else
//     after MIG_TIMEOUT (default 20m), the node cordoned, with a message
//     naming the node, the config and how to retry. A node whose label
//     already is `mig_config` is not touched with state success; with state
//     failed it is cordoned and drained, the state label removed and its
//     nvidia-mig-manager pod (namespace GPU_OPERATOR_NAMESPACE, default
//     gpu-operator) deleted, so that the new pod applies the label at
//     start-up, then waited for; with another state it is cordoned, drained
//     and waited for. A node labelled with one of `mig_alike` and state
//     success is relabelled to `mig_config` without cordon or drain, then
//     waited for. Then the labels are set with --overwrite, the removals
//     applied where the node has the label, the taints set with
//     --overwrite and the stale ones removed where present.
// Running it twice changes nothing the second time. Every name, label and
// taint is a single-quoted shell word (emit/quoting.h ShellWord); `title`
// and `header` lines are comments (CommentText). Deterministic.

#ifndef GPUSHARE_EMIT_CHANGE_SCRIPT_H_
#define GPUSHARE_EMIT_CHANGE_SCRIPT_H_

#include <string>
#include <vector>

#include "gpushare/emit/node_target.h"
#include "gpushare/emit/pool_node_set.h"

namespace gpushare {

struct NodeChange {
  std::string title;  // a comment line: which pool, from what to what
  PoolNodeSet nodes;  // named nodes or a selector
  NodeTarget target;
  // Other mig-parted configs whose layout on these nodes' GPUs is
  // target.mig_config's (emit/mig_parted_config.h SameLayoutMigConfigs).
  std::vector<std::string> mig_alike;
};

// `script_name` is the file's name in the usage line; `header` comment
// lines (without '#') describe what it does.
std::string ChangeScript(const std::string& script_name,
                         const std::vector<std::string>& header,
                         const std::vector<NodeChange>& changes);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_CHANGE_SCRIPT_H_
