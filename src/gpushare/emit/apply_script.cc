// apply.sh and rollback.sh (contract in apply_script.h).

#include "gpushare/emit/apply_script.h"

#include <fmt/format.h>

#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

// The shell functions both scripts define; `me` is the script's name,
// `dry_run` is --dry-run or empty.
constexpr const char* kClusterFunctions = R"sh(
fail() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$me" "$*" >&2; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 is not on PATH"; }

if [ -n "$dry_run" ]; then
  kube_dry=--dry-run=server helm_dry=--dry-run=server helm_undo_dry=--dry-run
else
  kube_dry= helm_dry= helm_undo_dry=
fi
restart=

# A kubectl command that changes something (a server-side dry run under --dry-run).
kube() { kubectl "$@" $kube_dry; }

# Reads the last Helm revision of release $1 in namespace $2: rel_status
# (none when Helm knows no such release), rel_revision, rel_chart (NAME-VERSION).
read_release() {
  if out=$(helm history "$1" -n "$2" --max 1 -o yaml 2>&1); then
    rel_status=$(printf '%s\n' "$out" | sed -n 's/^[ -] status: *//p' | tr -d '"')
    rel_revision=$(printf '%s\n' "$out" | sed -n 's/^[ -] revision: *//p' | tr -d '"')
    rel_chart=$(printf '%s\n' "$out" | sed -n 's/^[ -] chart: *//p' | tr -d '"')
    case $rel_revision in
      ''|*[!0-9]*) fail "helm history $1 -n $2 shows no revision: $out" ;;
    esac
  else
    case $out in
      *'release: not found'*) rel_status=none rel_revision= rel_chart= ;;
      *) fail "helm history $1 -n $2 failed: $out" ;;
    esac
  fi
}

# Stops unless release $1 (namespace $2) is settled and, for $7 = upgrade,
# not installed or installed at chart $3 version $4 ($5 names it, $6 is its
# platform key in the scenario).
check_release() {
  read_release "$1" "$2"
  case $rel_status in
    none|uninstalled|deployed|failed) ;;
    *) fail "$5 (release $1, namespace $2) is $rel_status: let the Helm operation in progress end first" ;;
  esac
  case $7:$rel_status in
    upgrade:deployed|upgrade:failed)
      case $rel_chart in
        "$3-${4#v}"|"$3-v${4#v}") ;;
        *) fail "$5 (release $1, namespace $2) runs chart $rel_chart; these files are written for $3 $4: emit them again with platform.$6.chart_version set to the version it runs, or upgrade it to $4 first. Nothing was changed" ;;
      esac ;;
  esac
}

# Prints object $1 (kubectl resource) named $2 (namespace $3, '' for none)
# as YAML without the fields the API server sets; nothing when it does not exist.
get_object() {
  obj=$(kubectl get "$1" "$2" ${3:+-n "$3"} -o yaml --ignore-not-found) ||
    fail "kubectl get $1 $2 failed (is its API installed?)"
  if [ -n "$obj" ]; then printf '%s\n' "$obj" | without_server_fields; fi
}

# The YAML on stdin without metadata.{creationTimestamp, deletion*, generation,
# managedFields, resourceVersion, selfLink, uid}, kubectl's last-applied
# annotation (and annotations: when it was the only one) and status.
without_server_fields() {
  awk '
    $0 == "" { if (!drop) print; next }
    {
      match($0, /^ */); n = RLENGTH
      if (drop) {
        if (n > drop_n || (n == drop_n && substr($0, n + 1, 2) == "- ")) next
        drop = 0
      }
      if (n == 0) { top = $0; sub(/:.*/, "", top) }
      if (n <= 2) { ann = 0; held = "" }
      if (n == 0 && top == "status") { drop = 1; drop_n = 0; next }
      if (top == "metadata" && n == 2) {
        if ($0 ~ /^  (creationTimestamp|deletionGracePeriodSeconds|deletionTimestamp|generation|managedFields|resourceVersion|selfLink|uid):/) {
          drop = 1; drop_n = 2; next
        }
        if ($0 == "  annotations:") { ann = 1; held = $0; next }
      }
      if (ann && n == 4 && $0 ~ /^    kubectl\.kubernetes\.io\/last-applied-configuration:/) {
        drop = 1; drop_n = 4; next
      }
      if (held != "") { print held; held = "" }
      print
    }'
}

# The data: section of the YAML on stdin.
data_section() { awk '/^[^ ]/ { d = ($0 ~ /^data:/) } d'; }

# Marks the device plugin for a restart.
mark_restart() {
  restart=1
  if [ -z "$dry_run" ]; then : > before/restart-device-plugin; fi
}

# Restarts DaemonSet $2 (namespace $1) when marked and it exists.
restart_device_plugin() {
  if [ -z "$restart" ] && [ ! -f before/restart-device-plugin ]; then return 0; fi
  ds=$(kubectl get daemonset "$2" -n "$1" -o name --ignore-not-found) ||
    fail "kubectl get daemonset $2 -n $1 failed"
  if [ -n "$ds" ]; then
    say "the device plugin's ConfigMap changed: restarting $2 (running pods keep running)"
    kube rollout restart -n "$1" "daemonset/$2"
  else
    say "no DaemonSet $2 in $1 yet: nothing to restart"
  fi
  if [ -z "$dry_run" ]; then rm -f before/restart-device-plugin; fi
}
)sh";

constexpr const char* kApplyFunctions = R"sh(
# Saves release $2 (namespace $3) into $saved/release-$1 and $saved/values-$1.yaml.
save_release() {
  read_release "$2" "$3"
  printf 'status=%s\nrevision=%s\nchart=%s\n' "$rel_status" "$rel_revision" "$rel_chart" > "$saved/release-$1"
  if [ "$rel_status" != none ]; then
    helm get values "$2" -n "$3" -o yaml > "$saved/values-$1.yaml"
  fi
}

# Saves object $2 $3 (namespace $4) into $saved/objects/$1.yaml, or
# $saved/objects/$1.absent when it does not exist.
save_object() {
  saved_object=$(get_object "$2" "$3" "$4")
  if [ -n "$saved_object" ]; then
    printf '%s\n' "$saved_object" > "$saved/objects/$1.yaml"
  else
    : > "$saved/objects/$1.absent"
  fi
}

# Marks the device plugin for a restart when applying file $4 would change
# the data of ConfigMap $2 (resource $1, namespace $3).
mark_if_data_changes() {
  live=$(kubectl get "$1" "$2" ${3:+-n "$3"} -o yaml --ignore-not-found) ||
    fail "kubectl get $1 $2 failed"
  next=$(kubectl apply -f "$4" --dry-run=server -o yaml) ||
    fail "kubectl apply -f $4 --dry-run=server failed"
  if [ "$(printf '%s\n' "$live" | data_section)" != "$(printf '%s\n' "$next" | data_section)" ]; then
    mark_restart
  fi
}

# Upgrades release $2 (namespace $3) with values file $4 and the chart
# arguments $5...; installs it where it is not installed. Left alone when
# it is at the revision this script left with the same file.
helm_apply() {
  key=$1 rel=$2 ns=$3 file=$4
  shift 4
  read_release "$rel" "$ns"
  sum=$(cksum < "$file")
  if [ "$rel_status" = deployed ] && [ -f "before/applied-$key" ] &&
     [ "$(cat "before/applied-$key")" = "$rel_revision $sum" ]; then
    say "$rel: $file is applied (revision $rel_revision)"
    return 0
  fi
  case $rel_status in
    deployed|failed) helm upgrade "$rel" "$@" --reuse-values -f "$file" $helm_dry ;;
    *) helm upgrade --install "$rel" "$@" --create-namespace -f "$file" $helm_dry ;;
  esac
  if [ -z "$dry_run" ]; then
    read_release "$rel" "$ns"
    printf '%s %s\n' "$rel_revision" "$sum" > "before/applied-$key"
  fi
}

# Uninstalls release $1 (namespace $2), keeping its history for rollback.sh,
# where it is installed; with $3, only once no pod names scheduler $3 ($4
# names the release).
helm_remove() {
  read_release "$1" "$2"
  case $rel_status in deployed|failed) ;; *) return 0 ;; esac
  if [ -n "$3" ]; then
    pods=$(kubectl get pods -A --field-selector=status.phase!=Succeeded,status.phase!=Failed -o "jsonpath={range .items[?(@.spec.schedulerName==\"$3\")]}{.metadata.namespace}/{.metadata.name}{\"\\n\"}{end}") ||
      fail "kubectl get pods failed"
    if [ -n "$pods" ]; then
      printf '%s\n' "$pods" >&2
      fail "$4 (release $1) is not uninstalled yet: the pods above still run under $3. Patch their workloads (pod-patches.yaml, README.md), wait until they have been replaced, then run apply.sh again: it goes on from here"
    fi
  fi
  say "no pool uses $4 any more: uninstalling release $1 (its history is kept for rollback.sh)"
  helm uninstall "$1" -n "$2" --keep-history $helm_undo_dry
}
)sh";

constexpr const char* kRollbackFunctions = R"sh(
field() { sed -n "s/^$2=//p" "$1"; }

# Brings release $2 (namespace $3) back to before/release-$1.
restore_release() {
  saved_status=$(field "before/release-$1" status)
  saved_revision=$(field "before/release-$1" revision)
  read_release "$2" "$3"
  case $saved_status in
    none|uninstalled)
      case $rel_status in none|uninstalled) return 0 ;; esac
      say "$2 was not installed before apply.sh: uninstalling it"
      if [ "$saved_status" = none ]; then
        helm uninstall "$2" -n "$3" $helm_undo_dry
      else
        helm uninstall "$2" -n "$3" --keep-history $helm_undo_dry
      fi ;;
    *)
      if [ "$rel_status" = "$saved_status" ] && [ "$rel_revision" = "$saved_revision" ]; then return 0; fi
      if [ "$rel_status" = deployed ] && [ -f "before/restored-$1" ] &&
         [ "$(cat "before/restored-$1")" = "$rel_revision" ]; then return 0; fi
      if [ "$rel_status" = none ]; then
        fail "$2 (namespace $3) has no Helm history to roll back to revision $saved_revision: install chart $(field "before/release-$1" chart) again with the values in before/values-$1.yaml"
      fi
      say "$2: back to revision $saved_revision (its chart and values then)"
      helm rollback "$2" "$saved_revision" -n "$3" $helm_undo_dry
      if [ -z "$dry_run" ]; then
        read_release "$2" "$3"
        printf '%s\n' "$rel_revision" > "before/restored-$1"
      fi ;;
  esac
}

# Brings object $2 $3 (namespace $4) back to before/objects/$1.yaml, or
# deletes it where before/objects/$1.absent says it did not exist; sets
# restored when it changed something.
restore_object() {
  f=before/objects/$1
  restored=
  now=$(get_object "$2" "$3" "$4")
  if [ -f "$f.absent" ]; then
    if [ -z "$now" ]; then return 0; fi
    kube delete "$2" "$3" ${4:+-n "$4"}
  elif [ -z "$now" ]; then
    kube create -f "$f.yaml"
  elif [ "$now" != "$(cat "$f.yaml")" ]; then
    kube replace -f "$f.yaml"
  else
    return 0
  fi
  restored=1
}
)sh";

std::string Usage(const std::string& script) {
  return ShellQuote("usage: sh " + script + " [--dry-run]");
}

// The script's start: header comments, arguments, its folder.
std::string Preamble(const std::string& script,
                     const std::vector<std::string>& header) {
  std::string out = "#!/bin/sh\n";
  for (const std::string& line : header) {
    out += line.empty() ? "#\n" : "# " + CommentText(line) + "\n";
  }
  out += fmt::format(
      "#\n# Usage: sh {0} [--dry-run]\n"
      "#   --dry-run  reads as a real run does; every change runs as a dry "
      "run (kubectl\n#              --dry-run=server, helm --dry-run) and "
      "nothing is written.\n"
      "# Safe to run again: a second run changes nothing.\n"
      "set -eu\nme={2}\ndry_run=\n"
      "if [ $# -gt 1 ]; then echo {1} >&2; exit 2; fi\n"
      "case ${{1-}} in\n  '') ;;\n  --dry-run) dry_run=--dry-run ;;\n"
      "  *) echo {1} >&2; exit 2 ;;\nesac\n"
      "cd -- \"$(dirname -- \"$0\")\"\n",
      CommentText(script), Usage(script), ShellWord(script));
  return out + kClusterFunctions;
}

std::string ObjectFile(int index, const KubeObjectRef& o) {
  std::string kind;
  for (const char c : o.kind) {
    kind += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return fmt::format("{:02}-{}-{}", index, kind, o.name);
}

// The object arguments of save_object and restore_object.
std::string ObjectArguments(int index, const KubeObjectRef& o) {
  return fmt::format("{} {} {} {}", ShellWord(ObjectFile(index, o)),
                     ShellWord(KubectlResource(o)), ShellWord(o.name),
                     ShellQuote(o.namespace_name));
}

std::string ReleaseArguments(const HelmRelease& r) {
  return fmt::format("{} {} {}", ShellWord(r.key), ShellWord(r.release),
                     ShellWord(r.namespace_name));
}

bool IsHelmStep(const ApplyStep& s) {
  return s.kind == ApplyStep::Kind::kHelmUpgrade ||
         s.kind == ApplyStep::Kind::kHelmUninstall;
}

// The restart step's DaemonSet arguments (namespace, name).
std::string RestartArguments(const ApplyStep& s) {
  return ShellWord(s.release.namespace_name) + " " +
         ShellWord(kDevicePluginDaemonSet);
}

}  // namespace

std::string ApplyScript(const ClusterChange& change) {
  std::string out = Preamble(
      "apply.sh",
      {"Applies scenario '" + change.scenario_name +
           "' to the cluster (written by gpushare-sim):",
       "checks the tools and the Helm releases' chart versions, saves "
       "today's state into before/",
       "(first run only), then applies every file of this folder in order "
       "(README.md).",
       "rollback.sh restores what before/ holds."});
  out += kApplyFunctions;
  out += "\n# 1. Checks, changing nothing.\nneed kubectl\nneed helm\n";
  for (const ApplyStep& s : change.steps) {
    if (!IsHelmStep(s)) continue;
    const HelmRelease& r = s.release;
    out += fmt::format(
        "check_release {} {} {} {} {} {} {}\n", ShellWord(r.release),
        ShellWord(r.namespace_name), ShellWord(r.chart_name),
        ShellWord(r.version), ShellQuote(r.what), ShellWord(r.platform_key),
        s.kind == ApplyStep::Kind::kHelmUpgrade ? "upgrade" : "uninstall");
  }
  out +=
      "if [ -z \"$dry_run\" ]; then\n"
      "  if ! out=$(sh node-setup.sh --dry-run 2>&1); then\n"
      "    printf '%s\\n' \"$out\" >&2\n"
      "    fail 'node-setup.sh --dry-run failed: nothing was changed'\n"
      "  fi\nfi\n";
  out +=
      "\n# 2. Today's state, saved once: a later run must not save the "
      "changed state.\n"
      "if [ -f before/saved ]; then\n"
      "  say 'before/ holds the state saved by the first run'\nelse\n"
      "  if [ -n \"$dry_run\" ]; then\n"
      "    saved=$(mktemp -d)\n    trap 'rm -rf \"$saved\"' EXIT\n"
      "  else\n    saved=before\n    rm -rf before\n  fi\n"
      "  mkdir -p \"$saved/objects\"\n";
  int index = 0;
  for (const ApplyStep& s : change.steps) {
    if (IsHelmStep(s)) {
      out += "  save_release " + ReleaseArguments(s.release) + "\n";
    }
    if (s.kind != ApplyStep::Kind::kApplyFile) continue;
    for (const KubeObjectRef& o : s.objects) {
      out += "  save_object " + ObjectArguments(++index, o) + "\n";
    }
  }
  out +=
      "  if [ -n \"$dry_run\" ]; then\n"
      "    say 'dry run: today'\\''s state read; a run saves it into before/'\n"
      "  else\n    : > before/saved\n"
      "    say 'today'\\''s state saved into before/'\n  fi\nfi\n";
  out += "\n# 3. The changes, in order.\n";
  for (const ApplyStep& s : change.steps) {
    out += "\n# " + CommentText(s.title) + "\n";
    switch (s.kind) {
      case ApplyStep::Kind::kApplyFile:
        if (s.device_plugin_config && !s.objects.empty()) {
          const KubeObjectRef& map = s.objects.front();
          out +=
              fmt::format("mark_if_data_changes {} {} {} {}\n",
                          ShellWord(KubectlResource(map)), ShellWord(map.name),
                          ShellQuote(map.namespace_name), ShellWord(s.file));
        }
        if (s.objects.empty()) {  // kubectl: "no objects passed to apply"
          out += "say " + ShellQuote(s.file + " holds no object") + "\n";
          break;
        }
        out += fmt::format("kube apply{} -f {}\n",
                           s.server_side ? " --server-side" : "",
                           ShellWord(s.file));
        break;
      case ApplyStep::Kind::kHelmUpgrade:
        out += fmt::format("helm_apply {} {} {}\n", ReleaseArguments(s.release),
                           ShellWord(s.file), HelmChartArguments(s.release));
        break;
      case ApplyStep::Kind::kHelmUninstall:
        out += fmt::format(
            "helm_remove {} {} {} {}\n", ShellWord(s.release.release),
            ShellWord(s.release.namespace_name),
            ShellQuote(s.wait_for_scheduler), ShellQuote(s.release.what));
        break;
      case ApplyStep::Kind::kNodeSetup:
        out += "sh node-setup.sh $dry_run\n";
        break;
      case ApplyStep::Kind::kRestartDevicePlugin:
        out += "restart_device_plugin " + RestartArguments(s) + "\n";
        break;
    }
  }
  out += "\nsay 'done'\n";
  return out;
}

std::string RollbackAllScript(const ClusterChange& change,
                              const std::string& nodes_unknown) {
  std::string out = Preamble(
      "rollback.sh",
      {"Rolls scenario '" + change.scenario_name +
           "' back (written by gpushare-sim): every object and",
       "Helm release apply.sh changed back to the state it saved in before/, "
       "then the",
       "nodes' labels, taints and MIG layouts (node-rollback.sh)."});
  out += kRollbackFunctions;
  // Object indexes as apply.sh numbered them.
  std::vector<int> first_index;
  int index = 0;
  for (const ApplyStep& s : change.steps) {
    first_index.push_back(index + 1);
    if (s.kind == ApplyStep::Kind::kApplyFile) {
      index += static_cast<int>(s.objects.size());
    }
  }
  out +=
      "\nneed kubectl\nneed helm\n"
      "\n# 1. The objects and Helm releases, in reverse order.\n"
      "if [ ! -f before/saved ]; then\n"
      "  say 'no before/saved: apply.sh has not saved today'\\''s state "
      "here; the objects and Helm releases are left as they are'\n"
      "else\n";
  bool any = false;
  const ApplyStep* restart = nullptr;
  for (size_t i = change.steps.size(); i-- > 0;) {
    const ApplyStep& s = change.steps[i];
    if (s.kind == ApplyStep::Kind::kRestartDevicePlugin) restart = &s;
    if (s.kind != ApplyStep::Kind::kApplyFile && !IsHelmStep(s)) continue;
    any = true;
    out += "  # " + CommentText(s.title) + "\n";
    if (IsHelmStep(s)) {
      out += "  restore_release " + ReleaseArguments(s.release) + "\n";
      continue;
    }
    for (size_t j = s.objects.size(); j-- > 0;) {
      out +=
          "  restore_object " +
          ObjectArguments(first_index[i] + static_cast<int>(j), s.objects[j]) +
          "\n";
      if (s.device_plugin_config && j == 0) {
        out += "  if [ -n \"$restored\" ]; then mark_restart; fi\n";
      }
    }
  }
  if (!any) out += "  :\n";
  out += "fi\n\n# 2. The nodes.\n";
  if (nodes_unknown.empty()) {
    out += "sh node-rollback.sh $dry_run\n";
  } else {
    out += "# " + CommentText(nodes_unknown) + "\n";
  }
  if (restart != nullptr) {
    out += "\n# 3. " + CommentText(restart->title) + "\n" +
           "restart_device_plugin " + RestartArguments(*restart) + "\n";
  }
  if (!nodes_unknown.empty()) {
    out += "\nfail " + ShellQuote(nodes_unknown) + "\n";
  } else {
    out += "\nsay 'done'\n";
  }
  return out;
}

}  // namespace gpushare
