"""A stand-in `helm` for the tests that run apply.sh and rollback.sh
(tests/fake_cluster.py writes it beside its kubectl and shares its state
file).

Releases live in the state under "helm" → "releases" ("NAMESPACE/NAME" → the
list of revisions, oldest first: {revision, status, chart, version,
app_version, config, chart_values, description}); the charts a repository
offers under "helm" → "charts" (chart name → version → {app_version,
values}). It follows Helm v4's source (helm/helm e9b85e4, pkg/action and
pkg/cmd):
  history REL -n NS [--max N] -o yaml   the last N revisions, oldest first,
      keys app_version, chart (NAME-VERSION), description, revision, status,
      updated (cmd/history.go); no release: "Error: release: not found"
  list -n NS [--filter RE] [--deployed|--uninstalled|...] -o yaml
      every status by default (action/list.go SetStateMask)
  status REL -n NS -o yaml | get values REL -n NS [--all] -o yaml
  upgrade REL CHART [--repo URL] -n NS [--version V] [--install]
      [--create-namespace] [--reuse-values|--reset-values|
      --reset-then-reuse-values] [-f FILE]... [--dry-run[=server]]
      without --version the newest chart version; the values by
      action/upgrade.go reuseValues: --reset-values the files only;
      --reuse-values the files coalesced over the release's values, on the
      old chart's values (chart.Values = oldVals); --reset-then-reuse-values
      the same on the new chart's; neither: the files, or the release's
      values when no file is given. Coalescing (chart/common/util/
      coalesce.go): the first map wins, maps merge key by key, lists and
      scalars replace, a null removes the key. With --install, a release
      that is not there or uninstalled is installed (cmd/upgrade.go).
  install REL CHART ... (refused for a name in use, action/install.go)
  rollback REL REV -n NS [--dry-run]   a new revision with REV's chart,
      values and chart values; the others superseded (action/rollback.go
      prepareRollback); also from an uninstalled release kept in history
  uninstall REL -n NS [--keep-history] [--dry-run]   --keep-history marks
      the last revision uninstalled, else the history is purged
      (action/uninstall.go)
  repo add|update, version   do nothing
A command that changes a release is appended to the state's "mutations"
(none under --dry-run).
"""

HELM = r'''#!/usr/bin/env python3
import copy, json, os, re, sys
import yaml

STATE = os.environ["FAKE_CLUSTER"]
with open(STATE, encoding="utf-8") as f:
    state = json.load(f)
state["calls"].append(["helm"] + sys.argv[1:])
helm = state.setdefault("helm", {})
releases = helm.setdefault("releases", {})
charts = helm.setdefault("charts", {})


def save():
    with open(STATE, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1, sort_keys=True)


def fail(message):
    save()
    sys.stderr.write("Error: " + message + "\n")
    sys.exit(1)


VALUED = {"-n", "--namespace", "-o", "--output", "-f", "--values",
          "--version", "--repo", "--max", "--filter", "--description"}
opts, pos, files = {}, [], []
argv = sys.argv[1:]
i = 0
while i < len(argv):
    a = argv[i]
    if a in VALUED:
        if a in ("-f", "--values"):
            files.append(argv[i + 1])
        else:
            opts[{"--namespace": "-n", "--output": "-o"}.get(a, a)] = \
                argv[i + 1]
        i += 2
        continue
    if a.startswith("-"):
        k, eq, v = a.partition("=")
        opts[k] = v if eq else True
    else:
        pos.append(a)
    i += 1
dry = "--dry-run" in opts and opts["--dry-run"] not in ("none", "false")
ns = opts.get("-n", "default")


def mutate(what):
    if not dry:
        state["mutations"].append(["helm"] + what)


def semver(v):
    core = v.lstrip("v").split("-")[0]
    return tuple(int(x) for x in core.split("."))


def chart_version(name, wanted):
    versions = charts.get(name) or {}
    if not versions:
        fail('chart "%s" not found in repository' % name)
    if wanted is None:
        return max(versions, key=semver)
    for v in versions:
        if v.lstrip("v") == wanted.lstrip("v"):
            return v
    fail('chart "%s" version "%s" not found in repository' % (name, wanted))


def coalesce(dst, src):
    """Helm's CoalesceTables: dst wins; maps merge; null in dst removes."""
    dst = copy.deepcopy(dst) if isinstance(dst, dict) else {}
    for k, v in (src or {}).items():
        if k in dst and dst[k] is None:
            if v is not None:
                del dst[k]
        elif k not in dst:
            dst[k] = copy.deepcopy(v)
        elif isinstance(v, dict) and isinstance(dst[k], dict):
            dst[k] = coalesce(dst[k], v)
    return dst


def merged_files():
    out = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        out = coalesce(data, out)
    return out


def history(name):
    return releases.get("%s/%s" % (ns, name)) or []


def emit(obj):
    if opts.get("-o") in ("yaml", None):
        sys.stdout.write(yaml.safe_dump(obj, default_flow_style=False,
                                        sort_keys=True))
    else:
        sys.stdout.write(json.dumps(obj) + "\n")


def info(r):
    return {"app_version": r["app_version"],
            "chart": "%s-%s" % (r["chart"], r["version"]),
            "description": r["description"], "revision": r["revision"],
            "status": r["status"], "updated": "2026-01-01T00:00:00Z"}


def supersede(hist):
    for r in hist:
        if r["status"] == "deployed":
            r["status"] = "superseded"


def add_revision(name, chart, version, config, chart_values, description):
    hist = history(name)
    rev = {"revision": (hist[-1]["revision"] if hist else 0) + 1,
           "status": "deployed", "chart": chart, "version": version,
           "app_version": charts.get(chart, {}).get(version, {}).get(
               "app_version", version),
           "config": config, "chart_values": chart_values,
           "description": description}
    if dry:
        print('Release "%s" would be %s (dry run)' % (name, description))
        return
    supersede(hist)
    releases["%s/%s" % (ns, name)] = hist + [rev]
    print('Release "%s" has been %s. Happy Helming!' % (name, description))


def install(name, chart_ref):
    chart = chart_ref.rstrip("/").split("/")[-1]
    version = chart_version(chart, opts.get("--version"))
    values = charts[chart][version].get("values", {})
    mutate(["install", name, ns, chart, version])
    add_revision(name, chart, version, merged_files(), values,
                 "Install complete")


def upgrade(name, chart_ref):
    hist = history(name)
    if not hist or hist[-1]["status"] == "uninstalled":
        if "--install" in opts:
            return install(name, chart_ref)
        fail('UPGRADE FAILED: "%s" has no deployed releases' % name)
    current = hist[-1]
    if current["status"].startswith("pending"):
        fail("UPGRADE FAILED: another operation (install/upgrade/rollback) "
             "is in progress")
    chart = chart_ref.rstrip("/").split("/")[-1]
    version = chart_version(chart, opts.get("--version"))
    new = merged_files()
    chart_values = charts[chart][version].get("values", {})
    if "--reset-values" in opts:
        config = new
    elif "--reuse-values" in opts:
        config = coalesce(new, current["config"])
        chart_values = coalesce(current["config"], current["chart_values"])
    elif "--reset-then-reuse-values" in opts:
        config = coalesce(new, current["config"])
    else:
        config = new if new else current["config"]
    mutate(["upgrade", name, ns, chart, version])
    add_revision(name, chart, version, config, chart_values,
                 "Upgrade complete")


def main():
    verb = pos[0] if pos else ""
    if verb in ("version", "repo"):
        print("v4.2.4") if verb == "version" else None
    elif verb == "history":
        hist = history(pos[1])
        if not hist:
            fail("release: not found")
        emit([info(r) for r in hist[-int(opts.get("--max", 256)):]])
    elif verb == "list":
        wanted = {s for s in ("deployed", "uninstalled", "failed",
                              "superseded", "uninstalling") if "--" + s in opts}
        if "--pending" in opts:
            wanted |= {"pending-install", "pending-upgrade",
                       "pending-rollback"}
        out = []
        for key in sorted(releases):
            rns, rname = key.split("/", 1)
            last = releases[key][-1]
            if (rns == ns and (not wanted or last["status"] in wanted) and
                    re.search(opts.get("--filter", ""), rname)):
                item = info(last)
                item.update(name=rname, namespace=rns,
                            revision=str(last["revision"]))
                del item["description"]
                out.append(item)
        emit(out)
    elif verb == "status":
        hist = history(pos[1])
        if not hist:
            fail("release: not found")
        last = hist[-1]
        emit({"name": pos[1], "namespace": ns, "version": last["revision"],
              "info": {"status": last["status"]},
              "chart": {"metadata": {"name": last["chart"],
                                     "version": last["version"]}}})
    elif verb == "get" and pos[1:2] == ["values"]:
        hist = history(pos[2])
        if not hist:
            fail("release: not found")
        last = hist[-1]
        emit(coalesce(last["config"], last["chart_values"])
             if "--all" in opts else last["config"])
    elif verb == "upgrade":
        upgrade(pos[1], pos[2])
    elif verb == "install":
        hist = history(pos[1])
        if hist and not (hist[-1]["status"] == "uninstalled"
                         and "--replace" in opts):
            fail("INSTALLATION FAILED: cannot reuse a name that is still in "
                 "use")
        install(pos[1], pos[2])
    elif verb == "rollback":
        name, target = pos[1], int(pos[2])
        hist = history(name)
        if not hist:
            fail("release: not found")
        old = [r for r in hist if r["revision"] == target]
        if not old:
            fail("release has no %d version" % target)
        mutate(["rollback", name, ns, str(target)])
        add_revision(name, old[0]["chart"], old[0]["version"],
                     old[0]["config"], old[0]["chart_values"],
                     "Rollback to %d" % target)
    elif verb == "uninstall":
        name = pos[1]
        hist = history(name)
        if not hist:
            fail("uninstall: Release not loaded: %s: release: not found" %
                 name)
        if hist[-1]["status"] == "uninstalled" and "--keep-history" in opts:
            fail('the release named "%s" is already deleted' % name)
        mutate(["uninstall", name, ns])
        if not dry:
            if "--keep-history" in opts:
                supersede(hist)
                hist[-1]["status"] = "uninstalled"
                hist[-1]["description"] = "Uninstallation complete"
            else:
                del releases["%s/%s" % (ns, name)]
        print('release "%s" uninstalled' % name)
    else:
        fail("fake helm: unsupported command " + " ".join(sys.argv[1:]))


main()
save()
'''
