"""A stand-in for a Kubernetes cluster's nodes, for the tests that run the
scripts gpushare-sim writes (node-setup.sh, rollback.sh).

FakeCluster writes an executable `kubectl` into a folder to put first on
PATH. That kubectl keeps node names, labels, taints and cordons in a JSON
state file and answers the commands the scripts use, as kubectl does
(kubernetes/kubectl pkg/cmd/label, taint, drain, wait, get -o name and
-o jsonpath):
  get node NAME... -o name | get nodes -l K=V,... -o name
      (a missing node: "Error from server (NotFound)", exit 1)
  get node NAME -o jsonpath=EXPR  for {.metadata.labels} (compact JSON,
      sorted keys), {.metadata.labels.ESCAPED\\.KEY} and the taint range
      {range .spec.taints[*]}{.key}={.value}:{.effect}{"\\n"}{end}
  label node(s) NAME... | -l SEL  K=V ... K- [--overwrite]
      (an existing key with another value without --overwrite: error;
      removing a missing key: "label not found." and exit 0)
  taint node NAME K=V:E [--overwrite] | K:E-   (removing a missing taint:
      error, exit 1)
  cordon, uncordon NAME
  drain NAME [--force]   (cordons; a pod of the node's `pods` without a
      controller makes it fail as kubectl pkg/drain does, dry run or not,
      unless --force; otherwise the node's pods are gone)
  wait node NAME --for=jsonpath={...}=VALUE   (exit 1 unless it holds)
  delete pod -n NS -l app=nvidia-mig-manager --field-selector=spec.nodeName=N
      (the node's MIG manager pod restarts and applies the node's label)
  apply, create, replace, delete, get of other kinds, rollout restart: the
      API objects, pods and DaemonSets of tests/fake_kube_objects.py.
A `helm` beside it keeps Helm releases in the same state file
(tests/fake_helm.py).
Every command with --dry-run=server changes nothing. A command that changes
state is logged in `mutations`. The MIG manager is modelled (NVIDIA/mig-parted
cmd/nvidia-mig-manager/main.go, pkg/mig/reconfigure/reconfigure.go): it acts
when a node's nvidia.com/mig.config changes value and when its pod starts;
when the GPUs already hold the config's layout (`mig_layouts` maps a config
name to a layout; a name not there is its own layout) it only sets
nvidia.com/mig.config.state=success; else it reconfigures, recording a
violation when the node is schedulable (not cordoned) or has pods then, and
sets success, or `failed` once for a node in `mig_fail` (fail_next_mig), or
leaves `pending` for a node in `mig_hang`.
"""

import json
import os
import re
import stat
import subprocess

from fake_helm import HELM
from fake_kube_objects import KUBECTL_OBJECTS

KUBECTL = r'''#!/usr/bin/env python3
import json, os, re, sys

STATE = os.environ["FAKE_CLUSTER"]
with open(STATE, encoding="utf-8") as f:
    state = json.load(f)
state["calls"].append(sys.argv[1:])

def save():
    with open(STATE, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1, sort_keys=True)

def fail(message):
    save()
    sys.stderr.write(message + "\n")
    sys.exit(1)

args, flags = [], {}
argv = sys.argv[1:]
i = 0
while i < len(argv):
    a = argv[i]
    if a in ("-o", "-l", "-n"):
        flags[a] = argv[i + 1]
        i += 2
        continue
    if a.startswith("-o="):
        flags["-o"] = a[3:]
    elif a.startswith("--"):
        key, _, value = a.partition("=")
        flags[key] = value
    else:
        args.append(a)
    i += 1
dry = flags.get("--dry-run") == "server"
nodes = state["nodes"]
verb = args[0] if args else ""

def select(selector):
    want = dict(p.split("=", 1) for p in selector.split(","))
    return [n for n in sorted(nodes)
            if all(nodes[n]["labels"].get(k) == v for k, v in want.items())]

def targets(rest):
    if "-l" in flags:
        return select(flags["-l"])
    for name in rest:
        if name not in nodes:
            fail('Error from server (NotFound): nodes "%s" not found' % name)
    return rest

def mutate(what):
    if not dry:
        state["mutations"].append(what)

def mig_manager(name):
    node = nodes[name]
    labels = node["labels"]
    if "nvidia.com/mig.config" not in labels:
        return
    config = labels["nvidia.com/mig.config"]
    layout = state["mig_layouts"].get(config, config)
    if node.get("mig_applied") == layout:  # mig-parted assert holds
        labels["nvidia.com/mig.config.state"] = "success"
        return
    if not node["unschedulable"] or node.get("pods"):
        state["violations"].append(
            "MIG config of %s changed while schedulable or with pods" % name)
    if name in state["mig_hang"]:
        labels["nvidia.com/mig.config.state"] = "pending"
    elif name in state["mig_fail"]:
        state["mig_fail"].remove(name)
        labels["nvidia.com/mig.config.state"] = "failed"
    else:
        node["mig_applied"] = layout
        labels["nvidia.com/mig.config.state"] = "success"

def set_mig_state(name, before):
    labels = nodes[name]["labels"]
    if labels.get("nvidia.com/mig.config") != before and not dry:
        mig_manager(name)

def jsonpath(node, expr):
    if expr == "{.metadata.labels}":
        return json.dumps(node["labels"], separators=(",", ":"),
                          sort_keys=True)
    if expr.startswith("{range .spec.taints[*]}"):
        return "".join("%s=%s:%s\n" % (t["key"], t.get("value", ""),
                                       t["effect"]) for t in node["taints"])
    m = re.fullmatch(r"\{\.metadata\.labels\.(.+)\}", expr)
    if m:
        return node["labels"].get(m.group(1).replace("\\.", "."), "")
    fail("fake kubectl: unsupported jsonpath " + expr)

#@objects
if verb == "get":
    names = targets(args[2:])
    out = flags.get("-o", "")
    if out == "name":
        sys.stdout.write("".join("node/%s\n" % n for n in names))
    elif out.startswith("jsonpath="):
        sys.stdout.write(jsonpath(nodes[names[0]], out[len("jsonpath="):]))
    else:
        fail("fake kubectl: unsupported output " + out)
elif verb == "label":
    names = targets([a for a in args[2:] if "=" not in a
                     and not a.endswith("-")])
    changes = [a for a in args[2:] if "=" in a or a.endswith("-")]
    for name in names:
        labels = nodes[name]["labels"]
        before = labels.get("nvidia.com/mig.config")
        new = dict(labels)
        for c in changes:
            if c.endswith("-") and "=" not in c:
                key = c[:-1]
                if key not in new:
                    print('label "%s" not found.' % key)
                new.pop(key, None)
            else:
                key, value = c.split("=", 1)
                if (key in new and new[key] != value
                        and "--overwrite" not in flags):
                    fail("error: '%s' already has a value (%s), and "
                         "--overwrite is false" % (key, new[key]))
                new[key] = value
        if new != labels:
            mutate(["label", name] + changes)
            if not dry:
                nodes[name]["labels"] = new
                set_mig_state(name, before)
elif verb == "taint":
    name, spec = args[2], args[3]
    targets([name])
    taints = nodes[name]["taints"]
    if spec.endswith("-"):
        key, _, effect = spec[:-1].partition(":")
        key = key.split("=", 1)[0]
        kept = [t for t in taints
                if not (t["key"] == key and t["effect"] == effect)]
        if len(kept) == len(taints):
            fail('error: taint "%s" not found' % spec[:-1])
        mutate(["taint", name, spec])
        if not dry:
            nodes[name]["taints"] = kept
    else:
        kv, _, effect = spec.rpartition(":")
        key, _, value = kv.partition("=")
        new = {"key": key, "value": value, "effect": effect}
        same = [t for t in taints
                if t["key"] == key and t["effect"] == effect]
        if same and same[0] != new and "--overwrite" not in flags:
            fail("error: node %s already has %s taint(s) with same effect(s) "
                 "and --overwrite is false" % (name, key))
        if not same or same[0] != new:
            mutate(["taint", name, spec])
            if not dry:
                nodes[name]["taints"] = [
                    t for t in taints
                    if not (t["key"] == key and t["effect"] == effect)
                ] + [new]
elif verb in ("cordon", "uncordon", "drain"):
    name = args[1]
    targets([name])
    value = verb != "uncordon"
    if nodes[name]["unschedulable"] != value:
        mutate([verb, name])
        if not dry:
            nodes[name]["unschedulable"] = value
    if verb == "drain":
        pods = nodes[name].get("pods", [])
        bare = [p["name"] for p in pods if not p["controller"]]
        if bare and "--force" not in flags:
            error = ("cannot delete Pods that declare no controller (use "
                     "--force to override): " + ", ".join(bare))
            fail('error: unable to drain node "%s" due to error: %s, '
                 'continuing command...\nThere are pending nodes to be '
                 'drained:\n %s\nerror: %s' % (name, error, name, error))
        mutate(["drain", name] + (["--force"] if bare else []))
        if not dry and pods:
            nodes[name]["pods"] = []
elif verb == "delete" and flags.get("-l") == "app=nvidia-mig-manager":
    name = flags.get("--field-selector", "").partition("spec.nodeName=")[2]
    targets([name])
    mutate(["restart-mig-manager", name])
    if not dry:
        mig_manager(name)
elif verb == "wait":
    name = args[1].split("/")[-1] if "/" in args[1] else args[2]
    targets([name])
    cond = flags.get("--for", "")
    m = re.fullmatch(r"jsonpath=(\{.*\})=(.*)", cond)
    if not m or jsonpath(nodes[name], m.group(1)) != m.group(2):
        fail("error: timed out waiting for the condition on nodes/" + name)
save()
'''


class FakeCluster:
    """Nodes in a JSON file and a kubectl that reads and changes them."""

    def __init__(self, folder, nodes, mig_layouts=None, charts=None,
                 daemonsets=()):
        """`nodes`: name → {"labels": {...}, "taints": [{key, value,
        effect}], "pods": [{name: "ns/pod", controller: bool}] (optional)};
        `mig_layouts`: config name → layout, for the MIG manager's model
        (a node's GPUs start with its nvidia.com/mig.config's layout).
        `charts`: chart name → version → {app_version, values} that the
        fake helm's repositories offer (tests/fake_helm.py);
        `daemonsets`: "NAMESPACE/NAME" of the DaemonSets that exist."""
        self.bin = os.path.join(folder, "fake-bin")
        os.makedirs(self.bin, exist_ok=True)
        for name, text in (("kubectl", KUBECTL.replace("#@objects\n",
                                                       KUBECTL_OBJECTS)),
                           ("helm", HELM)):
            path = os.path.join(self.bin, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        self.state_file = os.path.join(folder, "fake-cluster.json")
        state = {"nodes": {}, "calls": [], "mutations": [], "violations": [],
                 "objects": {}, "pods": [], "daemonsets": list(daemonsets),
                 "helm": {"releases": {}, "charts": charts or {}}}
        # The MIG manager's model: see the module's doc.
        state.update(mig_layouts=dict(mig_layouts or {}), mig_fail=[],
                     mig_hang=[])
        for name, node in nodes.items():
            state["nodes"][name] = {
                "labels": dict(node.get("labels", {})),
                "taints": [dict({"value": ""}, **t)
                           for t in node.get("taints", [])],
                "unschedulable": False}
            config = node.get("labels", {}).get("nvidia.com/mig.config")
            if config is not None:
                state["nodes"][name]["mig_applied"] = (
                    state["mig_layouts"].get(config, config))
            if node.get("pods"):
                state["nodes"][name]["pods"] = [dict(p) for p in node["pods"]]
        self._write(state)

    def _write(self, state):
        with open(self.state_file, "w", encoding="utf-8") as f:
            json.dump(state, f, indent=1, sort_keys=True)

    def state(self):
        with open(self.state_file, encoding="utf-8") as f:
            return json.load(f)

    def nodes(self):
        return self.state()["nodes"]

    def fail_next_mig(self, name, hang=False):
        """Makes node `name`'s next MIG reconfiguration fail (with `hang`:
        never end, the state left pending)."""
        state = self.state()
        state["mig_hang" if hang else "mig_fail"].append(name)
        self._write(state)

    def reset_log(self):
        state = self.state()
        state["calls"], state["mutations"] = [], []
        self._write(state)

    def objects(self):
        """GROUP/kind/NAMESPACE/NAME → the object as stored."""
        return self.state()["objects"]

    def releases(self):
        """"NAMESPACE/NAME" → the release's revisions, oldest first."""
        return self.state()["helm"]["releases"]

    def set_pods(self, pods):
        """Pods: [{namespace, name, schedulerName, phase}]."""
        state = self.state()
        state["pods"] = pods
        self._write(state)

    def run(self, *command, stdin=None):
        """Runs the fake kubectl or helm (`command[0]`); returns its
        CompletedProcess, failing on a non-zero exit."""
        result = subprocess.run(
            [os.path.join(self.bin, command[0]), *command[1:]],
            env=self.env(), capture_output=True, text=True, input=stdin,
            timeout=60, check=False)
        if result.returncode != 0:
            raise AssertionError(" ".join(command) + ": " + result.stderr)
        return result

    def env(self, extra_path=""):
        return dict(os.environ, FAKE_CLUSTER=self.state_file,
                    PATH=self.bin + ":" + (extra_path + ":" if extra_path
                                           else "") + "/usr/bin:/bin")


def kubectl_nodes(path):
    """name → {labels, taints} of a `kubectl get nodes -o json` file."""
    with open(path, encoding="utf-8") as f:
        items = json.load(f)["items"]
    return {n["metadata"]["name"]: {
        "labels": n["metadata"].get("labels") or {},
        "taints": (n.get("spec") or {}).get("taints") or []} for n in items}


def strip_state_labels(nodes):
    """Nodes without the MIG manager's state label, which it owns."""
    out = {}
    for name, node in nodes.items():
        labels = {k: v for k, v in node["labels"].items()
                  if k != "nvidia.com/mig.config.state"}
        out[name] = dict(node, labels=labels)
    return out


__all__ = ["FakeCluster", "kubectl_nodes", "strip_state_labels", "re"]
