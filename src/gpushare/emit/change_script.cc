#include "gpushare/emit/change_script.h"

#include <fmt/format.h>

#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

// The shell functions every change script defines (the contract in
// change_script.h says what they do).
constexpr const char* kChangeScriptFunctions = R"(: "${DRAIN_TIMEOUT:=10m}" "${DRAIN_FORCE:=}" "${MIG_TIMEOUT:=20m}" "${MIG_POLL:=10}"
: "${GPU_OPERATOR_NAMESPACE:=gpu-operator}"
case $MIG_TIMEOUT in
  *h) mig_limit=${MIG_TIMEOUT%h} mig_unit=3600 ;;
  *m) mig_limit=${MIG_TIMEOUT%m} mig_unit=60 ;;
  *s) mig_limit=${MIG_TIMEOUT%s} mig_unit=1 ;;
  *) mig_limit=$MIG_TIMEOUT mig_unit=1 ;;
esac
case $mig_limit in ''|*[!0-9]*) mig_limit=x ;; esac
case $mig_limit/$MIG_POLL in
  x/*|*/|*/*[!0-9]*)
    printf '%s: MIG_TIMEOUT (%s) is seconds, or 20m or 1h; MIG_POLL (%s) is seconds\n' "$me" "$MIG_TIMEOUT" "$MIG_POLL" >&2
    exit 2 ;;
esac
mig_limit=$((mig_limit * mig_unit))
mig_step=$MIG_POLL
if [ "$mig_step" -lt 1 ]; then mig_step=1; fi
if [ -n "$dry_run" ]; then kept='nothing changed (dry run)'; else kept='it stays cordoned'; fi

# A kubectl command that changes something (server-side dry run with --dry-run).
change() {
  if [ -n "$dry_run" ]; then kubectl "$@" "$dry_run"; else kubectl "$@"; fi
}

# Reads node $1's labels (JSON) and taints (key=value:Effect lines).
read_node() {
  labels=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels}')
  taints=$(kubectl get node "$1" -o 'jsonpath={range .spec.taints[*]}{.key}={.value}:{.effect}{"\n"}{end}')
}

# Removes label $2 from node $1 where it has it (with $3: only with value $3).
unlabel() {
  if [ $# -eq 3 ]; then pattern="\"$2\":\"$3\""; else pattern="\"$2\":"; fi
  case $labels in
    *"$pattern"*) change label node "$1" "$2-" ;;
  esac
}

# Removes taint $2 (key=value:Effect) from node $1 where it has it; $3 is
# kubectl's form of the removal (key:Effect-).
untaint() {
  if printf '%s\n' "$taints" | grep -qxF -e "$2"; then
    change taint node "$1" "$3"
  fi
}

# Drains the cordoned node $1. kubectl drain refuses pods that no controller
# owns (kubectl pkg/drain/filters.go unreplicatedFilter): deleted, nothing
# recreates them. Then the script stops and names them; with DRAIN_FORCE=1
# it passes --force, which deletes them.
drain_node() {
  if [ "$DRAIN_FORCE" = 1 ]; then force=--force; else force=; fi
  if { drain_err=$(change drain "$1" --ignore-daemonsets --delete-emptydir-data --timeout="$DRAIN_TIMEOUT" $force 2>&1 1>&3 3>&-); } 3>&1; then
    if [ -n "$drain_err" ]; then printf '%s\n' "$drain_err" >&2; fi
    return 0
  fi
  printf '%s\n' "$drain_err" >&2
  bare=$(printf '%s\n' "$drain_err" | sed -n 's/.*declare no controller (use --force to override): //p' | sed 's/, continuing command\.\.\.$//' | head -n 1)
  if [ -n "$bare" ]; then
    printf '%s: %s not drained: these pods have no controller, so nothing would recreate them once deleted: %s. Move or delete them yourself and run %s again, or run it with DRAIN_FORCE=1 to let kubectl drain --force delete them; %s, its MIG layout unchanged.\n' "$me" "$1" "$bare" "$me" "$kept" >&2
  else
    printf '%s: %s not drained (kubectl drain above, DRAIN_TIMEOUT=%s); %s, its MIG layout unchanged. Run %s again once it can be drained.\n' "$me" "$1" "$DRAIN_TIMEOUT" "$kept" "$me" >&2
  fi
  exit 1
}

# Polls node $1's nvidia.com/mig.config.state every MIG_POLL seconds until
# the MIG manager reports success for config $2; stops the script at once on
# failed, and on anything else after MIG_TIMEOUT. $3 says how the node is
# left then.
wait_mig() {
  if [ -n "$dry_run" ]; then
    printf '%s: dry run, not waiting for the MIG manager\n' "$1" >&2
    return 0
  fi
  waited=0
  while :; do
    state=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config\.state}')
    if [ "$state" = success ]; then return 0; fi
    if [ "$state" = failed ] || [ "$waited" -ge "$mig_limit" ]; then
      if [ "$state" = failed ]; then
        printf '%s: %s: the MIG manager failed to apply MIG config %s (nvidia.com/mig.config.state=failed); %s.\n' "$me" "$1" "$2" "$3" >&2
      else
        printf '%s: %s: MIG config %s not applied after MIG_TIMEOUT=%s (nvidia.com/mig.config.state=%s); %s.\n' "$me" "$1" "$2" "$MIG_TIMEOUT" "${state:-(none)}" "$3" >&2
      fi
      printf '  Its log: kubectl logs -n %s $(kubectl get pod -n %s -l app=nvidia-mig-manager --field-selector spec.nodeName=%s -o name)\n' "$GPU_OPERATOR_NAMESPACE" "$GPU_OPERATOR_NAMESPACE" "$1" >&2
      printf '  Once the cause is fixed, run %s again: on a node whose label already names the config and whose state is failed it restarts that MIG manager pod, which applies the label when it starts (setting the same label again does nothing).\n' "$me" >&2
      exit 1
    fi
    sleep "$MIG_POLL"
    waited=$((waited + mig_step))
  done
}

# Brings node $1's MIG layout to config $2 (docs/emit.md, "The MIG
# sequence"); $3... are configs with the same layout on the node's GPUs.
#  - label $2, state success: nothing to do;
#  - label $2, state failed: a retry. The MIG manager reconfigures when the
#    label's value changes and when it starts (mig-parted
#    cmd/nvidia-mig-manager/main.go, the informer's UpdateFunc and AddFunc),
#    so the node is cordoned and drained, the state label removed and the
#    node's nvidia-mig-manager pod deleted; its DaemonSet starts a new one,
#    which applies the label;
#  - label $2, another state (pending, rebooting, none): the MIG manager is
#    at work: cordon, drain, wait;
#  - a label in $3... with state success: the GPUs already hold the layout;
#    the label is set to $2 without a drain (the MIG manager asserts the
#    layout first and, as it holds, only reports success:
#    pkg/mig/reconfigure/reconfigure.go Run, isConfigAlreadyApplied);
#  - otherwise: cordon, drain, set the label (removing the state label in
#    the same command, so that the previous success is not read), wait.
# The wait stops the script at once on failed and after MIG_TIMEOUT, the
# node cordoned; after success the node is uncordoned.
ensure_mig() {
  mig_node=$1 target=$2
  shift 2
  current=$(kubectl get node "$mig_node" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config}')
  state=$(kubectl get node "$mig_node" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config\.state}')
  if [ "$current" = "$target" ] && [ "$state" = success ]; then return 0; fi
  if [ "$current" = "$target" ]; then
    change cordon "$mig_node"
    drain_node "$mig_node"
    if [ "$state" = failed ]; then
      printf '%s: MIG config %s failed before: cordoned, drained; restarting its MIG manager to retry\n' "$mig_node" "$target" >&2
      change label node "$mig_node" nvidia.com/mig.config.state-
      change delete pod -n "$GPU_OPERATOR_NAMESPACE" -l app=nvidia-mig-manager --field-selector="spec.nodeName=$mig_node"
    else
      printf '%s: MIG config %s being applied (state %s): cordoned, drained; waiting\n' "$mig_node" "$target" "${state:-(none)}" >&2
    fi
    wait_mig "$mig_node" "$target" "$kept"
    change uncordon "$mig_node"
    return 0
  fi
  if [ "$state" = success ]; then
    for alike in "$@"; do
      if [ "$current" = "$alike" ]; then
        printf '%s: MIG config %s -> %s, the same layout: relabel, no drain\n' "$mig_node" "$current" "$target" >&2
        change label node "$mig_node" nvidia.com/mig.config.state- "nvidia.com/mig.config=$target" --overwrite
        wait_mig "$mig_node" "$target" 'it was not cordoned'
        return 0
      fi
    done
  fi
  printf '%s: MIG config %s -> %s: cordon, drain, reconfigure\n' "$mig_node" "${current:-(none)}" "$target" >&2
  change cordon "$mig_node"
  drain_node "$mig_node"
  change label node "$mig_node" nvidia.com/mig.config.state- "nvidia.com/mig.config=$target" --overwrite
  wait_mig "$mig_node" "$target" "$kept"
  change uncordon "$mig_node"
}

# Takes node $1 out of MIG when a layout other than all-disabled is set, or
# retries an all-disabled that failed.
leave_mig() {
  current=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config}')
  state=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config\.state}')
  case $current/$state in
    /*|all-disabled/success|all-disabled/pending|all-disabled/rebooting|all-disabled/) ;;
    *) ensure_mig "$1" all-disabled ;;
  esac
}
)";

std::string TaintArgument(const Taint& t) {
  return fmt::format("{}{}{}:{}", t.key, t.value.empty() ? "" : "=", t.value,
                     TaintEffectName(t.effect));
}

std::string ChangeFunction(int index, const NodeChange& c) {
  const NodeTarget& t = c.target;
  std::string body = "  read_node \"$1\"\n";
  if (!t.mig_config.empty()) {
    std::string alike;
    for (const std::string& name : c.mig_alike) alike += " " + ShellWord(name);
    body += fmt::format("  ensure_mig \"$1\" {}{}\n", ShellWord(t.mig_config),
                        alike);
  } else if (t.disable_mig) {
    body += "  leave_mig \"$1\"\n";
  }
  if (!t.set.empty()) {
    std::string labels;
    for (const auto& [k, v] : t.set) labels += " " + ShellWord(k + "=" + v);
    body += fmt::format("  change label node \"$1\"{} --overwrite\n", labels);
  }
  for (const LabelRemoval& r : t.remove) {
    body += fmt::format(
        "  unlabel \"$1\" {}{}\n", ShellWord(r.key),
        r.only_value.empty() ? "" : " " + ShellWord(r.only_value));
  }
  for (const Taint& taint : t.taints) {
    body += fmt::format("  change taint node \"$1\" {} --overwrite\n",
                        ShellWord(TaintArgument(taint)));
  }
  for (const Taint& taint : t.remove_taints) {
    body += fmt::format(
        "  untaint \"$1\" {} {}\n", ShellWord(TaintText(taint)),
        ShellWord(fmt::format("{}:{}-", taint.key,
                              TaintEffectName(taint.effect))));
  }
  return fmt::format("\n# {}\nchange_{}() {{\n{}}}\n", CommentText(c.title),
                     index, body);
}

std::string Fail(const std::string& script, const std::string& message) {
  return fmt::format("echo {} >&2; exit 1", ShellQuote(script + ": " + message));
}

}  // namespace

std::string ChangeScript(const std::string& script_name,
                         const std::vector<std::string>& header,
                         const std::vector<NodeChange>& changes) {
  std::string out = "#!/bin/sh\n";
  for (const std::string& line : header) out += "# " + CommentText(line) + "\n";
  const std::string usage =
      ShellQuote("usage: sh " + script_name + " [--dry-run]");
  out += fmt::format(
      "#\n# Usage: sh {0} [--dry-run]\n"
      "#   --dry-run  every change runs as kubectl --dry-run=server: the API "
      "server\n#              checks it and nothing changes (the MIG manager is "
      "not waited for).\n"
      "# DRAIN_TIMEOUT (default 10m) and MIG_TIMEOUT (default 20m) bound "
      "each node's\n# drain and MIG reconfiguration, whose state is read "
      "every MIG_POLL seconds\n# (default 10). kubectl drain does not "
      "delete pods without a controller\n# (nothing would recreate them): "
      "the script stops and names them;\n# DRAIN_FORCE=1 deletes them "
      "(drain --force). A MIG reconfiguration that failed\n# stops the "
      "script, the node cordoned; run it again to retry: it restarts the\n"
      "# node's MIG manager pod (in GPU_OPERATOR_NAMESPACE, default "
      "gpu-operator).\n# Safe to run again: a second run changes nothing.\n"
      "set -eu\nme={2}\ndry_run=\n"
      "if [ $# -gt 1 ]; then echo {1} >&2; exit 2; fi\n"
      "case ${{1-}} in\n  '') ;;\n  --dry-run) dry_run=--dry-run=server ;;\n"
      "  *) echo {1} >&2; exit 2 ;;\nesac\n",
      CommentText(script_name), usage, ShellQuote(script_name));
  out += kChangeScriptFunctions;
  for (size_t i = 0; i < changes.size(); ++i) {
    out += ChangeFunction(static_cast<int>(i) + 1, changes[i]);
  }
  out += "\n# Checks, changing nothing: the nodes exist, every selector "
         "matches, no node is\n# in two pools.\n";
  std::string all;
  for (size_t i = 0; i < changes.size(); ++i) {
    const PoolNodeSet& set = changes[i].nodes;
    const size_t n = i + 1;
    if (set.by_name() && set.names.empty()) {
      out += fmt::format("nodes_{}=\n", n);
      continue;
    }
    out += fmt::format("nodes_{}=$(kubectl get {} -o name)\n", n,
                       NodeArguments(set));
    all += fmt::format(" $nodes_{}", n);
    if (set.by_name()) continue;
    const std::string selector = SelectorText(set.selector);
    out += fmt::format(
        "if [ -z \"$nodes_{}\" ]; then {}; fi\n", n,
        Fail(script_name,
             fmt::format("no node matches {} (pool {}): label the pool's "
                         "nodes or give the pool match_labels",
                         selector, set.pool)));
    out += fmt::format(
        "count=$(printf '%s\\n' $nodes_{} | wc -l)\n"
        "if [ \"$count\" -ne {} ]; then printf '%s %s\\n' {} \"$count\" >&2; "
        "fi\n",
        n, set.nodes,
        ShellQuote(fmt::format(
            "{}: pool {} has {} nodes in the scenario (README.md says which "
            "to provision or remove); nodes matching {} now:",
            script_name, set.pool, set.nodes, selector)));
  }
  if (!all.empty()) {
    out += fmt::format(
        "dups=$(printf '%s\\n'{} | sort | uniq -d)\n"
        "if [ -n \"$dups\" ]; then printf '%s %s\\n' {} \"$dups\" >&2; exit 1; "
        "fi\n",
        all,
        ShellQuote(script_name + ": nodes selected by two pools (fix the "
                                 "pools' match_labels):"));
  }
  out += "\n# The changes, pool by pool.\n";
  for (size_t i = 0; i < changes.size(); ++i) {
    out += fmt::format(
        "for node in $nodes_{0}; do change_{0} \"${{node#node/}}\"; done\n",
        i + 1);
  }
  return out;
}

}  // namespace gpushare
