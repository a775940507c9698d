"""`emit k8s` values applied to a release as `helm upgrade --reuse-values -f`
applies them (issue 53, points 5 and 8): today's tolerations are kept and
every pool's taint is tolerated, by the GPU Operator's DaemonSets and by
node-feature-discovery's worker; `mig.strategy` stays the release's unless a
pool needs it; kueue-queues.yaml is written for the Kueue installed.

Helm's --reuse-values merges the release's values with the file's: a map
merges key by key, anything else — a list among them — is replaced whole
(helm/helm CoalesceTables, pkg/chartutil/coalesce.go in Helm 3 and
pkg/chart/common/util/coalesce.go in Helm 4; the file's values win).
"""

import copy
import json
import os
import shutil
import unittest

import yaml

from cli_harness import TempDirTestCase, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")

CONTROLLER_ADDED = [  # kubernetes AddOrUpdateDaemonPodTolerations
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists",
     "effect": "NoExecute"},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
     "effect": "NoExecute"},
    {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists",
     "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists",
     "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists",
     "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
     "effect": "NoSchedule"},
]

# The release as installed today: a toleration of its own beside the chart's
# default in each list, and the mixed MIG strategy.
RELEASE = {
    "daemonsets": {"priorityClassName": "system-node-critical",
                   "tolerations": [
                       {"key": "nvidia.com/gpu", "operator": "Exists",
                        "effect": "NoSchedule"},
                       {"key": "example.com/maintenance",
                        "operator": "Exists"}]},
    "node-feature-discovery": {"worker": {"tolerations": [
        {"key": "node-role.kubernetes.io/control-plane", "operator": "Equal",
         "value": "", "effect": "NoSchedule"},
        {"key": "nvidia.com/gpu", "operator": "Exists",
         "effect": "NoSchedule"},
        {"key": "example.com/labels-only", "operator": "Exists",
         "effect": "NoSchedule"}]}},
    "mig": {"strategy": "mixed"},
    "driver": {"enabled": True},
}


def reuse_values(release, values):
    """`helm upgrade --reuse-values -f values` on `release`'s values."""
    out = copy.deepcopy(release)
    for key, value in (values or {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = reuse_values(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def tolerates(toleration, taint):
    """v1.Toleration.ToleratesTaint."""
    effect = toleration.get("effect", "")
    if effect and effect != taint["effect"]:
        return False
    key = toleration.get("key", "")
    operator = toleration.get("operator", "Equal")
    if not key:
        return operator == "Exists"
    if key != taint["key"]:
        return False
    return operator == "Exists" or toleration.get("value", "") == \
        taint.get("value", "")


def daemon_pod(name, daemonset, tolerations):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "gpu-operator",
                         "ownerReferences": [{"kind": "DaemonSet",
                                              "name": daemonset}]},
            "spec": {"nodeName": "cpu-0",
                     "containers": [{"name": "c", "resources": {
                         "requests": {"cpu": "10m", "memory": "16Mi"}}}],
                     "tolerations": tolerations + CONTROLLER_ADDED},
            "status": {"phase": "Running"}}


class ReleaseValuesTest(TempDirTestCase):

    def setUp(self):
        super().setUp()
        os.makedirs(self.path("kubectl"))
        shutil.copy(os.path.join(EXAMPLES, "kubectl", "nodes.json"),
                    self.path("kubectl"))
        with open(os.path.join(EXAMPLES, "kubectl", "pods.json")) as f:
            self.pods = json.load(f)
        with open(os.path.join(EXAMPLES, "kubectl-import.yaml")) as f:
            self.scenario = f.read()
        with open(self.path("kubectl/nodes.json")) as f:
            self.taints = [t for n in json.load(f)["items"]
                           if "nvidia.com/gpu.product" in
                           n["metadata"]["labels"]
                           for t in n["spec"].get("taints", [])]
        self.assertTrue(any(t["key"] == "dedicated" for t in self.taints))

    def emit(self, pods, scenario=None):
        """Writes pods.json and the scenario; emit k8s; the values file's
        text and its YAML."""
        with open(self.path("kubectl/pods.json"), "w") as f:
            json.dump(pods, f)
        path = self.write("s.yaml", scenario or self.scenario)
        out = self.path("out")
        code, _, stderr = run("emit", "k8s", "--scenario", path, "--out", out)
        self.assertEqual(code, 0, stderr)
        with open(os.path.join(out, "gpu-operator-values.yaml")) as f:
            text = f.read()
        return text, yaml.safe_load(text)

    def operator_pods(self):
        pods = copy.deepcopy(self.pods)
        pods["items"] += [
            daemon_pod("nvidia-device-plugin-daemonset-a1b2c",
                       "nvidia-device-plugin-daemonset",
                       RELEASE["daemonsets"]["tolerations"]),
            daemon_pod("gpu-operator-node-feature-discovery-worker-d3e4f",
                       "gpu-operator-node-feature-discovery-worker",
                       RELEASE["node-feature-discovery"]["worker"]
                       ["tolerations"]),
        ]
        return pods

    def test_lists_from_the_dump_keep_todays_and_cover_the_pools(self):
        text, values = self.emit(self.operator_pods())
        after = reuse_values(RELEASE, values)
        lists = {
            "daemonsets": after["daemonsets"]["tolerations"],
            "nfd worker": after["node-feature-discovery"]["worker"]
            ["tolerations"],
        }
        before = {
            "daemonsets": RELEASE["daemonsets"]["tolerations"],
            "nfd worker": RELEASE["node-feature-discovery"]["worker"]
            ["tolerations"],
        }
        for name, tolerations in lists.items():
            # Today's list, whole and first; no toleration twice.
            self.assertEqual(tolerations[:len(before[name])], before[name],
                             name)
            self.assertEqual(len({json.dumps(t, sort_keys=True)
                                  for t in tolerations}),
                             len(tolerations), name)
            # Every GPU node's taint is tolerated: new nodes of a tainted
            # pool get the operator's pods and NFD's labels.
            for taint in self.taints:
                self.assertTrue(any(tolerates(t, taint) for t in tolerations),
                                (name, taint))
            # Not the controller's own.
            self.assertFalse(any(t.get("key", "").startswith(
                "node.kubernetes.io/") for t in tolerations), name)
        self.assertEqual(lists["daemonsets"][-1],
                         {"key": "dedicated", "operator": "Equal",
                          "value": "research", "effect": "NoSchedule"})
        # The header says where each list came from.
        flat = " ".join(line[2:] for line in text.splitlines()
                        if line.startswith("# "))
        self.assertIn("daemonsets.tolerations: the pods of DaemonSet "
                      "nvidia-device-plugin-daemonset in namespace "
                      "gpu-operator (" + self.path("kubectl/pods.json") + ")",
                      flat)
        self.assertIn("node-feature-discovery.worker.tolerations: the pods of "
                      "DaemonSet gpu-operator-node-feature-discovery-worker",
                      flat)
        self.assertNotIn("Today's list is not known", flat)
        # The rest of the release is untouched.
        self.assertEqual(after["driver"], RELEASE["driver"])
        self.assertEqual(after["daemonsets"]["priorityClassName"],
                         "system-node-critical")

    def test_without_the_operators_pods_the_header_warns(self):
        text, values = self.emit(self.pods)
        # The chart's default plus the pools' taints: the release's own
        # toleration would be lost, and the file says so.
        after = reuse_values(RELEASE, values)
        self.assertNotIn({"key": "example.com/maintenance",
                          "operator": "Exists"},
                         after["daemonsets"]["tolerations"])
        flat = " ".join(line[2:] for line in text.splitlines()
                        if line.startswith("# "))
        self.assertIn("Today's list is not known: compare it with `helm get "
                      "values`, and say it in the scenario "
                      "(platform.gpu_operator.daemonsets.tolerations)", flat)
        # Said in the scenario, the list is kept.
        said = self.scenario.replace(
            "\nworkload:",
            "\nplatform:\n  gpu_operator:\n    daemonsets:\n      "
            "tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: "
            "NoSchedule}, {key: example.com/maintenance, operator: Exists}]\n"
            "workload:", 1)
        _, values = self.emit(self.pods, said)
        after = reuse_values(RELEASE, values)
        self.assertEqual(after["daemonsets"]["tolerations"][:2],
                         RELEASE["daemonsets"]["tolerations"])

    def test_mig_strategy_stays_the_releases_unless_a_pool_needs_it(self):
        # The imported A100 node runs MIG (mixed): the strategy is set.
        _, values = self.emit(self.operator_pods())
        self.assertEqual(values["mig"], {"strategy": "mixed"})
        # Every pool exclusive or time-sliced: the release's strategy (here
        # mixed, for MIG nodes outside the plan) is kept.
        exclusive = self.scenario.replace(
            "  import: {format: kubectl, file: kubectl/nodes.json}",
            "  import: {format: kubectl, file: kubectl/nodes.json,\n"
            "           sharing: {scheme: exclusive}}", 1)
        text, values = self.emit(self.operator_pods(), exclusive)
        self.assertNotIn("mig", values, text)
        self.assertNotIn("migManager", values, text)
        after = reuse_values(RELEASE, values)
        self.assertEqual(after["mig"], {"strategy": "mixed"})
        self.assertEqual(after["devicePlugin"]["config"]["name"],
                         "gpushare-device-plugin-config")

    def test_kueue_objects_for_the_installed_kueue(self):
        text = self.write("q.yaml", """name: q
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1}
queues:
  cluster_queues:
    - name: team
      cohort: org
      resource_groups:
        - flavors:
            - name: a
              resources: [{name: nvidia.com/gpu, nominal_quota: 4}]
  local_queues:
    - {name: lq, namespace: ml, cluster_queue: team}
workload:
  classes:
    - {name: c, class: batch, count: 1, tenants: [ml], queue: lq}
""")
        with open(text) as f:
            base = f.read()
        # Not said: v1beta2, and the file and the README say Kueue 0.15+.
        out = self.path("k")
        code, _, stderr = run("emit", "k8s", "--scenario", text, "--out", out)
        self.assertEqual(code, 0, stderr)
        with open(os.path.join(out, "kueue-queues.yaml")) as f:
            queues = f.read()
        docs = [d for d in yaml.safe_load_all(queues) if d]
        self.assertEqual({d["apiVersion"] for d in docs},
                         {"kueue.x-k8s.io/v1beta2"})
        self.assertIn("# They need Kueue 0.15 or later", queues)
        with open(os.path.join(out, "README.md")) as f:
            self.assertIn("Kueue 0.15 or later, the first release that serves "
                          "kueue.x-k8s.io/v1beta2", f.read())
        # Kueue 0.14: v1beta1, whose ClusterQueue names its cohort `cohort`.
        old = self.write("old.yaml",
                         base + "platform: {kueue: {version: 0.14.2}}\n")
        code, queues, stderr = run("emit", "kueue", "--scenario", old)
        self.assertEqual(code, 0, stderr)
        docs = [d for d in yaml.safe_load_all(queues) if d]
        self.assertEqual({d["apiVersion"] for d in docs},
                         {"kueue.x-k8s.io/v1beta1"})
        cq = next(d for d in docs if d["kind"] == "ClusterQueue")
        self.assertEqual(cq["spec"]["cohort"], "org")
        self.assertNotIn("cohortName", cq["spec"])
        # Older than any Kueue the objects fit: refused, naming both.
        older = self.write("older.yaml",
                           base + "platform: {kueue: {version: 0.5.0}}\n")
        code, stdout, stderr = run("emit", "k8s", "--scenario", older,
                                   "--out", self.path("k2"))
        self.assertEqual(code, 2, stdout)
        self.assertIn("platform.kueue.version 0.5.0: kueue-queues.yaml needs "
                      "Kueue 0.6 or later", stderr)
        self.assertFalse(os.path.exists(self.path("k2")))


if __name__ == "__main__":
    main()
