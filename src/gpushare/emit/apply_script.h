// The scripts that apply a folder's whole change to a cluster and take it
// back: `apply.sh` and `rollback.sh`, written by `emit k8s` and `plan --out`
// (docs/emit.md, "apply.sh and rollback.sh").
//
// Contract: a ClusterChange is the steps of the change in apply order.
// ApplyScript() writes a POSIX `set -eu` script that takes one optional
// argument, --dry-run (any other exits 2 with a usage line), runs in its
// own folder, and:
//   1. checks, changing nothing: kubectl and helm are on PATH; every release
//      a step touches is in a settled Helm state (not pending, not
//      uninstalling), and every release a step upgrades is either not
//      installed or installed at the chart version the step pins (else it
//      stops: re-emit with platform.<x>.chart_version, or upgrade the chart
//      first); node-setup.sh --dry-run passes;
//   2. saves today's state into before/ unless before/saved says it was
//      saved already (a second run must not save the changed state): per
//      release its Helm status, revision and chart (before/release-KEY) and
//      values (before/values-KEY.yaml); per object the files write, its
//      YAML without the fields the API server sets (before/objects/N.yaml:
//      no resourceVersion, uid, creationTimestamp, generation,
//      managedFields, kubectl's last-applied annotation or status), or
//      before/objects/N.absent when it does not exist; under --dry-run the
//      same reads go to a temporary folder;
//   3. runs the steps in order: kApplyFile `kubectl apply [--server-side]
//      -f FILE` (nothing for a file without objects, which kubectl refuses;
//      for the device plugin's ConfigMap, first comparing its data
//      with what the apply would store: a change marks the plugin for a
//      restart, before/restart-device-plugin); kHelmUpgrade `helm upgrade
//      REL CHART [--repo URL] -n NS --version V --reuse-values -f FILE`
//      where installed, `helm upgrade --install ... --create-namespace -f
//      FILE` where not, skipped when the release is still at the revision
//      the script left with the same file (before/applied-KEY: revision and
//      cksum); kHelmUninstall `helm uninstall --keep-history` where
//      installed, with `wait_for_scheduler` first stopping (exit 1, naming
//      them) while a pod not Succeeded or Failed names that scheduler;
//      kNodeSetup `sh node-setup.sh`; kRestartDevicePlugin `kubectl rollout
//      restart` of the GPU Operator's device-plugin DaemonSet when marked
//      (and the DaemonSet exists).
// Under --dry-run kubectl changes run with --dry-run=server, helm upgrades
// with --dry-run=server, uninstalls and rollbacks with --dry-run, and
// nothing is written to before/. A second run changes nothing.
//
// RollbackAllScript() writes `rollback.sh` (same arguments): when
// before/saved exists, the steps in reverse order, node steps left out:
// each saved object put back (kubectl create where it is missing, kubectl
// replace where it differs from the saved copy, which has no
// resourceVersion; kubectl delete where it did not exist), each release
// back to its saved state (`helm rollback REL REV` to the saved revision,
// also after an uninstall that kept the history; `helm uninstall` of a
// release that was not installed; recorded in before/restored-KEY so a
// second run does nothing); without before/saved it says so and leaves
// them. Then the nodes: `sh node-rollback.sh` — or, when `nodes_unknown` is
// non-empty (today's node configuration is not known), nothing, and after
// the restart the script exits 1 with `nodes_unknown` as the reason. The
// device plugin is restarted when the restore changed its ConfigMap. A
// second run changes nothing.
//
// Every name, file and version is a shell word (emit/quoting.h ShellWord);
// titles are comments (CommentText). Deterministic.

#ifndef GPUSHARE_EMIT_APPLY_SCRIPT_H_
#define GPUSHARE_EMIT_APPLY_SCRIPT_H_

#include <string>
#include <vector>

#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/kube_object_ref.h"

namespace gpushare {

struct ApplyStep {
  enum class Kind {
    kApplyFile,
    kHelmUpgrade,
    kHelmUninstall,
    kNodeSetup,
    kRestartDevicePlugin,
  };
  Kind kind = Kind::kApplyFile;
  std::string title;                   // a comment line
  std::string file;                    // kApplyFile, kHelmUpgrade
  bool server_side = false;            // kApplyFile
  std::vector<KubeObjectRef> objects;  // kApplyFile: what the file writes
  bool device_plugin_config = false;   // kApplyFile: decides the restart
  HelmRelease release;  // helm steps; kRestartDevicePlugin: the operator's
  std::string wait_for_scheduler;  // kHelmUninstall
};

struct ClusterChange {
  std::string scenario_name;
  std::vector<ApplyStep> steps;
};

std::string ApplyScript(const ClusterChange& change);

std::string RollbackAllScript(const ClusterChange& change,
                              const std::string& nodes_unknown);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_APPLY_SCRIPT_H_
