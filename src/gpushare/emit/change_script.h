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
//     10m), setting nvidia.com/mig.config while removing
//     nvidia.com/mig.config.state in one command, waiting for the MIG
//     manager to set the state to success (MIG_TIMEOUT, default 20m; on
//     failure or timeout the script stops with the node cordoned) and
//     uncordoning it; a node whose layout already is the target with state
//     success is not touched. Then the labels are set with --overwrite, the
//     removals applied where the node has the label, the taints set with
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
};

// `script_name` is the file's name in the usage line; `header` comment
// lines (without '#') describe what it does.
std::string ChangeScript(const std::string& script_name,
                         const std::vector<std::string>& header,
                         const std::vector<NodeChange>& changes);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_CHANGE_SCRIPT_H_
