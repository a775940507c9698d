#include "gpushare/emit/change_script.h"

#include <fmt/format.h>

#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

// The shell functions every change script defines (the contract in
// change_script.h says what they do).
constexpr const char* kChangeScriptFunctions = R"(: "${DRAIN_TIMEOUT:=10m}" "${MIG_TIMEOUT:=20m}"

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

# Brings node $1's MIG layout to $2: cordon, drain, set the layout, wait for
# the MIG manager's nvidia.com/mig.config.state=success, uncordon. A node
# already there is not touched; on failure the script stops, node cordoned.
ensure_mig() {
  current=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config}')
  state=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config\.state}')
  if [ "$current" = "$2" ] && [ "$state" = success ]; then return 0; fi
  printf '%s: MIG config %s -> %s: cordon, drain, reconfigure\n' "$1" "${current:-(none)}" "$2" >&2
  change cordon "$1"
  change drain "$1" --ignore-daemonsets --delete-emptydir-data --timeout="$DRAIN_TIMEOUT"
  change label node "$1" nvidia.com/mig.config.state- "nvidia.com/mig.config=$2" --overwrite
  if [ -n "$dry_run" ]; then
    printf '%s: dry run, not waiting for the MIG manager\n' "$1" >&2
  else
    kubectl wait node "$1" --for='jsonpath={.metadata.labels.nvidia\.com/mig\.config\.state}=success' --timeout="$MIG_TIMEOUT"
  fi
  change uncordon "$1"
}

# Takes node $1 out of MIG when a layout other than all-disabled is set.
leave_mig() {
  current=$(kubectl get node "$1" -o 'jsonpath={.metadata.labels.nvidia\.com/mig\.config}')
  case $current in
    ''|all-disabled) ;;
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
    body += fmt::format("  ensure_mig \"$1\" {}\n", ShellWord(t.mig_config));
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
      "# DRAIN_TIMEOUT (default 10m) and MIG_TIMEOUT (default 20m) bound each "
      "node's\n# drain and MIG reconfiguration. Safe to run again: a second "
      "run changes nothing.\nset -eu\ndry_run=\n"
      "if [ $# -gt 1 ]; then echo {1} >&2; exit 2; fi\n"
      "case ${{1-}} in\n  '') ;;\n  --dry-run) dry_run=--dry-run=server ;;\n"
      "  *) echo {1} >&2; exit 2 ;;\nesac\n",
      CommentText(script_name), usage);
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
