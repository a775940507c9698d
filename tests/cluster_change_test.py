"""End-to-end: the whole change of a folder (`apply.sh`, `rollback.sh`;
docs/emit.md "apply.sh and rollback.sh") against a stateful stand-in cluster
(tests/fake_cluster.py: nodes, API objects, pods and DaemonSets behind a fake
kubectl, Helm releases behind a fake helm, tests/fake_helm.py).

The cluster: the nodes of examples/kubectl/nodes.json (an A100 in MIG, two
time-sliced L4s, an A10 under HAMi, a control-plane node) and three written
pools found by a GKE node-pool label; the GPU Operator and HAMi installed by
Helm with values of their own; ConfigMaps in the operator's namespace (one
the change writes, with older data; unrelated ones); a Kueue ClusterQueue; a
pod of HAMi's scheduler. The chart repositories offer newer charts than the
pinned ones, so an unpinned upgrade would move to them.

Plans: A keeps the import as it runs, moves the written pools to MIG, HAMi
and DRA (installing the DRA driver) and changes Kueue's queues; B moves
every pool off HAMi; A on a cluster without HAMi installs it. Each runs
`apply.sh --dry-run` (nothing changes), `apply.sh`, again (nothing changes,
no new Helm revision), `rollback.sh` and again, checking the end states and
the exact restore of node labels and taints, objects (data, spec, labels,
annotations; an absent one deleted, unrelated ones untouched) and Helm
values and chart versions. Also: a release at another chart version stops
apply.sh before anything, HAMi is not uninstalled while a pod of its
scheduler runs, the device plugin is not restarted when its ConfigMap's
data is already the plan's, a folder without today's node configuration
rolls the rest back and exits 1, the stand-in refuses stale copies, and
apply.sh's filter drops exactly the server's fields.

Run as: python3 tests/cluster_change_test.py --binary /path/to/gpushare-sim
"""

import copy
import os
import subprocess

import yaml

from cli_harness import TempDirTestCase, main, run
from fake_cluster import FakeCluster, kubectl_nodes, strip_state_labels

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODEPOOL = "cloud.google.com/gke-nodepool"
OPERATOR_REPO = "https://helm.ngc.nvidia.com/nvidia"
HAMI_REPO = "https://project-hami.github.io/HAMi/"
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists",
                  "effect": "NoSchedule"}
OPERATOR_DEFAULTS = {
    "mig": {"strategy": "single"},
    "devicePlugin": {"enabled": True,
                     "config": {"name": "", "default": "", "create": False}},
    "migManager": {"config": {"name": "", "default": "all-disabled"}},
    "daemonsets": {"tolerations": [GPU_TOLERATION]},
    "driver": {"enabled": True}}
HAMI_DEFAULTS = {"schedulerName": "hami-scheduler",
                 "devicePlugin": {"deviceSplitCount": 10}}
CHARTS = {
    "gpu-operator": {v: {"app_version": v, "values": OPERATOR_DEFAULTS}
                     for v in ("v25.10.1", "v26.7.0", "v26.9.0")},
    "hami": {v: {"app_version": v, "values": HAMI_DEFAULTS}
             for v in ("2.9.0", "2.10.0", "2.11.0")},
    "dra-driver-nvidia-gpu": {v: {"app_version": v, "values": {}}
                              for v in ("0.4.0", "0.4.1", "0.5.0")}}
DEVICE_PLUGIN_DS = "gpu-operator/nvidia-device-plugin-daemonset"
DP_MAP = "/configmap/gpu-operator/gpushare-device-plugin-config"
MIG_MAP = "/configmap/gpu-operator/custom-mig-config"
UNRELATED = ("/configmap/gpu-operator/kube-root-ca.crt",
             "/configmap/gpu-operator/time-slicing-config")

CLASSES = """\
workload:
  classes:
    - {name: a, class: batch, count: 1, work_s: 60}
"""
TODAY = """\
name: today
cluster:
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: train-pool}
    - name: dev
      gpu: L4
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: dev-pool}
      sharing: {scheme: time-slicing, replicas: 4}
    - name: infer
      gpu: L4
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer-pool}
""" + CLASSES
PLAN_A = """\
name: plan-a
cluster:
  import: {format: kubectl, file: nodes.json, prefix: im}
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: train-pool}
      sharing: {scheme: mig, mig_config: all-1g.10gb, mig_strategy: mixed}
    - name: dev
      gpu: L4
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: dev-pool}
      sharing: {scheme: hami}
    - name: infer
      gpu: L4
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer-pool}
      devices: dra
""" + CLASSES + """\
queues:
  cluster_queues:
    - name: research
      resource_groups:
        - flavors:
            - name: dev
              resources:
                - {name: nvidia.com/gpu, nominal_quota: 4}
  local_queues:
    - {name: research, namespace: research, cluster_queue: research}
"""
PLAN_B = """\
name: plan-b
cluster:
  import: {format: kubectl, file: nodes.json, prefix: im,
           sharing: {scheme: time-slicing, replicas: 2}}
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: train-pool}
    - name: dev
      gpu: L4
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: dev-pool}
      sharing: {scheme: time-slicing, replicas: 2}
""" + CLASSES
WRITTEN = {"gke-train-pool-5f2a": "train-pool",
           "gke-train-pool-9c1d": "train-pool",
           "gke-dev-pool-a7e3": "dev-pool",
           "gke-infer-pool-3d6b": "infer-pool"}
OPERATOR_TODAY = {"driver": {"enabled": False},
                  "devicePlugin": {"config": {"name": "time-slicing-config",
                                              "default": "any"}},
                  "daemonsets": {"tolerations": [
                      GPU_TOLERATION, {"key": "site", "operator": "Exists"}]}}
HAMI_TODAY = {"devicePlugin": {"deviceSplitCount": 4},
              "scheduler": {"defaultSchedulerPolicy":
                            {"nodeSchedulerPolicy": "spread"}}}


def coalesce(dst, src):
    """Helm's CoalesceTables, as the fake helm applies it."""
    out = copy.deepcopy(dst)
    for k, v in src.items():
        if k not in out:
            out[k] = copy.deepcopy(v)
        elif isinstance(v, dict) and isinstance(out[k], dict):
            out[k] = coalesce(out[k], v)
    return out


def kept(obj):
    """What a restore must bring back: data, binaryData, spec, labels and
    the annotations other than kubectl's last-applied one."""
    meta = obj["metadata"]
    annotations = {k: v for k, v in (meta.get("annotations") or {}).items()
                   if k != "kubectl.kubernetes.io/last-applied-configuration"}
    return {"data": obj.get("data"), "binaryData": obj.get("binaryData"),
            "spec": obj.get("spec"), "labels": meta.get("labels"),
            "annotations": annotations or None}


class ClusterChangeTest(TempDirTestCase):

    def setUp(self):
        super().setUp()
        with open(os.path.join(ROOT, "examples", "kubectl", "nodes.json"),
                  encoding="utf-8") as f:
            self.write("nodes.json", f.read())
        self.write("today.yaml", TODAY)
        self.write("plan-a.yaml", PLAN_A)
        self.write("plan-b.yaml", PLAN_B)

    def make_cluster(self, hami=True, operator_version="v26.7.0"):
        nodes = kubectl_nodes(self.path("nodes.json"))
        for name, pool in WRITTEN.items():
            labels = {NODEPOOL: pool, "kubernetes.io/hostname": name}
            if "train" in pool:
                labels.update({"nvidia.com/mig.capable": "true",
                               "nvidia.com/mig.config": "all-disabled",
                               "nvidia.com/mig.config.state": "success"})
            nodes[name] = {"labels": labels, "taints": []}
        self.cluster = FakeCluster(self.tmp.name, nodes, charts=CHARTS,
                                   daemonsets=[DEVICE_PLUGIN_DS])
        c = self.cluster
        self.write("op-1.yaml", yaml.safe_dump({"driver": {"enabled": False}}))
        self.write("op-2.yaml", yaml.safe_dump(OPERATOR_TODAY))
        c.run("helm", "install", "gpu-operator", "gpu-operator", "--repo",
              OPERATOR_REPO, "-n", "gpu-operator", "--version",
              operator_version, "-f", self.path("op-1.yaml"))
        c.run("helm", "upgrade", "gpu-operator", "gpu-operator", "--repo",
              OPERATOR_REPO, "-n", "gpu-operator", "--version",
              operator_version, "--reuse-values", "-f", self.path("op-2.yaml"))
        if hami:
            self.write("hami.yaml", yaml.safe_dump(HAMI_TODAY))
            c.run("helm", "install", "hami", "hami", "--repo", HAMI_REPO,
                  "-n", "kube-system", "--version", "2.10.0", "-f",
                  self.path("hami.yaml"))
        self.write("maps.yaml", """\
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-root-ca.crt, namespace: gpu-operator}
data: {ca.crt: "-----BEGIN CERTIFICATE-----\\nMIIB\\n"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: time-slicing-config, namespace: gpu-operator}
data: {any: "version: v1\\n"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: gpushare-device-plugin-config
  namespace: gpu-operator
  labels: {owner: platform}
  annotations: {note: "from an earlier plan"}
data:
  default: |
    version: v1
    flags:
      migStrategy: none

  old-pool: |
    version: v1
""")
        c.run("kubectl", "apply", "-f", self.path("maps.yaml"))
        # Kueue's queue of the research team as it runs today.
        self.write("queue.yaml", """\
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: research}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: old-flavor
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 2}
""")
        c.run("kubectl", "apply", "--server-side", "-f",
              self.path("queue.yaml"))
        c.set_pods([
            {"namespace": "research", "name": "notebook-0",
             "schedulerName": "hami-scheduler", "phase": "Running"},
            {"namespace": "research", "name": "done-0",
             "schedulerName": "hami-scheduler", "phase": "Succeeded"},
            {"namespace": "ml", "name": "train-0",
             "schedulerName": "default-scheduler", "phase": "Running"}])
        # The written pools as node-setup.sh of today's scenario left them.
        today = self.emit("today.yaml", "today")
        self.sh(today, "node-setup.sh")
        c.reset_log()

    def emit(self, scenario, out, *extra):
        code, _, err = run("emit", "k8s", "--scenario", self.path(scenario),
                           "--out", self.path(out), *extra)
        self.assertEqual(code, 0, err)
        return self.path(out)

    def sh(self, folder, script, *args, status=0):
        result = subprocess.run(
            ["sh", os.path.join(folder, script), *args], cwd=self.tmp.name,
            env=self.cluster.env(), capture_output=True, text=True,
            timeout=300, check=False)
        self.assertEqual(result.returncode, status,
                         result.stdout + result.stderr)
        return result.stderr

    def snapshot(self):
        state = self.cluster.state()
        return {"nodes": strip_state_labels(state["nodes"]),
                "objects": state["objects"],
                "releases": state["helm"]["releases"],
                "restarts": state.get("restarts", [])}

    def run_changes(self, folder, script, *args, status=0):
        """Runs `script`; returns the changes it made and its stderr."""
        self.cluster.reset_log()
        err = self.sh(folder, script, *args, status=status)
        state = self.cluster.state()
        self.assertEqual(state["violations"], [])
        for name, node in state["nodes"].items():
            self.assertFalse(node["unschedulable"], name)
        return state["mutations"], err

    def assert_nothing_changes(self, folder, script, *args, status=0):
        before = self.snapshot()
        mutations, err = self.run_changes(folder, script, *args,
                                          status=status)
        self.assertEqual(mutations, [], err)
        self.assertEqual(self.snapshot(), before)

    def file_data(self, folder, name):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            return yaml.safe_load(f)

    def check_saved_copies(self, folder):
        """before/ holds clean copies: no field the API server sets."""
        objects = os.path.join(folder, "before", "objects")
        names = sorted(os.listdir(objects))
        self.assertIn("02-configmap-custom-mig-config.absent", names)
        for name in names:
            if not name.endswith(".yaml"):
                continue
            with open(os.path.join(objects, name), encoding="utf-8") as f:
                obj = yaml.safe_load(f)
            meta = obj["metadata"]
            for field in ("resourceVersion", "uid", "creationTimestamp",
                          "managedFields", "generation"):
                self.assertNotIn(field, meta, name)
            self.assertNotIn("status", obj, name)
            self.assertNotIn("kubectl.kubernetes.io/last-applied-"
                             "configuration", meta.get("annotations") or {})

    def apply_and_roll_back(self, folder, check_applied, dry_runs=True):
        """The cycle every plan goes through; returns the state applied."""
        today = self.snapshot()
        if dry_runs:
            self.assert_nothing_changes(folder, "apply.sh", "--dry-run")
            self.assertFalse(os.path.exists(os.path.join(folder, "before")))
        mutations, err = self.run_changes(folder, "apply.sh")
        self.assertNotEqual(mutations, [], err)
        check_applied(today)
        applied = self.snapshot()
        self.assert_nothing_changes(folder, "apply.sh")
        if dry_runs:
            self.assert_nothing_changes(folder, "rollback.sh", "--dry-run")
        mutations, err = self.run_changes(folder, "rollback.sh")
        self.assertNotEqual(mutations, [], err)
        self.check_restored(today)
        self.assert_nothing_changes(folder, "rollback.sh")
        return applied

    def check_restored(self, today):
        now = self.snapshot()
        self.assertEqual(now["nodes"], today["nodes"])
        self.assertEqual(sorted(now["objects"]), sorted(today["objects"]))
        for key, obj in today["objects"].items():
            self.assertEqual(kept(now["objects"][key]), kept(obj), key)
        for key in UNRELATED:
            self.assertEqual(now["objects"][key], today["objects"][key], key)
        self.assertEqual(sorted(now["releases"]), sorted(today["releases"]))
        for key, history in today["releases"].items():
            old, new = history[-1], now["releases"][key][-1]
            self.assertEqual(new["status"], "deployed", key)
            self.assertEqual((new["chart"], new["version"], new["config"],
                              new["chart_values"]),
                             (old["chart"], old["version"], old["config"],
                              old["chart_values"]), key)

    def check_plan_a(self, folder, today, hami_revisions):
        state = self.cluster.state()
        objects, releases = state["objects"], state["helm"]["releases"]
        dp = self.file_data(folder, "device-plugin-config.yaml")
        self.assertEqual(objects[DP_MAP]["data"], dp["data"])
        # kubectl apply's three-way merge drops what the earlier apply set.
        self.assertNotIn("labels", objects[DP_MAP]["metadata"])
        self.assertEqual(objects[MIG_MAP]["data"],
                         self.file_data(folder, "mig-parted-config.yaml")
                         ["data"])
        for key in UNRELATED:
            self.assertEqual(objects[key], today["objects"][key], key)
        operator = releases["gpu-operator/gpu-operator"]
        self.assertEqual(len(operator), 3)
        self.assertEqual(operator[-1]["version"], "v26.7.0")
        values = self.file_data(folder, "gpu-operator-values.yaml")
        self.assertEqual(operator[-1]["config"],
                         coalesce(values, operator[-2]["config"]))
        self.assertFalse(operator[-1]["config"]["driver"]["enabled"])
        self.assertEqual(
            operator[-1]["config"]["devicePlugin"]["config"]["name"],
            "gpushare-device-plugin-config")
        hami = releases["kube-system/hami"]
        self.assertEqual(len(hami), hami_revisions)
        self.assertEqual((hami[-1]["status"], hami[-1]["version"]),
                         ("deployed", "2.10.0"))
        hami_values = self.file_data(folder, "hami-values.yaml")
        self.assertEqual(hami[-1]["config"],
                         coalesce(hami_values, hami[-2]["config"])
                         if len(hami) > 1 else hami_values)
        self.assertEqual(state["restarts"], [DEVICE_PLUGIN_DS])
        nodes = state["nodes"]
        for name in ("gke-train-pool-5f2a", "gke-train-pool-9c1d"):
            self.assertEqual(nodes[name]["labels"]["nvidia.com/mig.config"],
                             "all-1g.10gb")
        self.assertEqual(nodes["gke-dev-pool-a7e3"]["labels"]["gpu"], "on")
        dra = releases["dra-driver-nvidia-gpu/dra-driver-nvidia-gpu"]
        self.assertEqual([(r["version"], r["status"]) for r in dra],
                         [("0.4.1", "deployed")])
        queue = objects["kueue.x-k8s.io/clusterqueue//research"]
        self.assertEqual(queue["spec"]["resourceGroups"][0]["flavors"][0]
                         ["name"], "dev")
        self.assertIn("kueue.x-k8s.io/localqueue/research/research", objects)
        self.check_saved_copies(folder)

    def test_plan_a_applies_and_rolls_back(self):
        self.make_cluster()
        plan = self.emit("plan-a.yaml", "plan-a", "--from",
                         self.path("today.yaml"))
        self.assertIn("node-rollback.sh", os.listdir(plan))
        self.apply_and_roll_back(
            plan, lambda today: self.check_plan_a(plan, today, 2))
        # The device plugin restarted once on apply, once on rollback.
        self.assertEqual(self.cluster.state()["restarts"],
                         [DEVICE_PLUGIN_DS, DEVICE_PLUGIN_DS])

    def test_plan_a_mig_failure_stops_and_a_second_run_retries(self):
        """The MIG manager fails the first train node's reconfiguration:
        apply.sh stops at once with the node cordoned and says how to retry;
        a second apply.sh retries (restarts that node's MIG manager) and
        finishes the change; the rollback restores today as ever."""
        self.make_cluster()
        plan = self.emit("plan-a.yaml", "plan-a", "--from",
                         self.path("today.yaml"))
        today = self.snapshot()
        self.cluster.fail_next_mig("gke-train-pool-5f2a")
        err = self.sh(plan, "apply.sh", status=1)
        self.assertIn("gke-train-pool-5f2a", err)
        self.assertIn("failed", err)
        node = self.cluster.nodes()["gke-train-pool-5f2a"]
        self.assertTrue(node["unschedulable"])
        self.assertEqual(node["labels"]["nvidia.com/mig.config.state"],
                         "failed")
        self.assertEqual(node["labels"]["nvidia.com/mig.config"],
                         "all-1g.10gb")
        mutations, err = self.run_changes(plan, "apply.sh")
        self.assertIn(["restart-mig-manager", "gke-train-pool-5f2a"],
                      mutations, err)
        self.check_plan_a(plan, today, 2)
        self.assert_nothing_changes(plan, "apply.sh")
        self.run_changes(plan, "rollback.sh")
        self.check_restored(today)
        self.assert_nothing_changes(plan, "rollback.sh")

    def test_plan_a_installs_hami_and_rollback_uninstalls_it(self):
        self.make_cluster(hami=False)
        plan = self.emit("plan-a.yaml", "plan-a", "--from",
                         self.path("today.yaml"))
        self.apply_and_roll_back(
            plan, lambda today: self.check_plan_a(plan, today, 1),
            dry_runs=False)
        self.assertNotIn("kube-system/hami", self.cluster.releases())


    def test_plan_b_uninstalls_hami_once_its_pods_are_gone(self):
        self.make_cluster()
        plan = self.emit("plan-b.yaml", "plan-b", "--from",
                         self.path("today.yaml"))
        today = self.snapshot()
        # The dry run stops where a run would, for the same reason.
        self.assert_nothing_changes(plan, "apply.sh", "--dry-run", status=1)
        mutations, err = self.run_changes(plan, "apply.sh", status=1)
        self.assertIn("research/notebook-0\n", err)
        self.assertNotIn("done-0", err)  # Succeeded: not in the way
        self.assertIn("still run under hami-scheduler", err)
        self.assertNotIn(["helm", "uninstall", "hami", "kube-system"],
                         mutations)
        self.assertEqual(self.cluster.releases()["kube-system/hami"][-1]
                         ["status"], "deployed")
        nodes = self.cluster.nodes()
        self.assertNotIn("gpu", nodes["gpu-a10-0"]["labels"])
        self.assertEqual(
            nodes["gke-dev-pool-a7e3"]["labels"]
            ["nvidia.com/device-plugin.config"], "dev")
        # Its workload patched, the pod has gone: a second run goes on.
        state = self.cluster.state()
        self.cluster.set_pods([p for p in state["pods"]
                               if p["name"] != "notebook-0"])
        mutations, err = self.run_changes(plan, "apply.sh")
        self.assertEqual(mutations,
                         [["helm", "uninstall", "hami", "kube-system"]], err)
        hami = self.cluster.releases()["kube-system/hami"]
        self.assertEqual([r["status"] for r in hami], ["uninstalled"])
        operator = self.cluster.releases()["gpu-operator/gpu-operator"]
        self.assertEqual(len(operator), 3)  # the first run's upgrade only
        self.assertEqual(self.cluster.state()["restarts"], [DEVICE_PLUGIN_DS])
        self.assert_nothing_changes(plan, "apply.sh")
        mutations, err = self.run_changes(plan, "rollback.sh")
        self.assertIn(["helm", "rollback", "hami", "kube-system", "1"],
                      mutations)
        self.check_restored(today)
        self.assert_nothing_changes(plan, "rollback.sh")

    def test_another_chart_version_stops_before_anything(self):
        self.make_cluster(operator_version="v25.10.1")
        plan = self.emit("plan-a.yaml", "plan-a", "--from",
                         self.path("today.yaml"))
        mutations, err = self.run_changes(plan, "apply.sh", status=1)
        self.assertEqual(mutations, [])
        self.assertIn("runs chart gpu-operator-v25.10.1; these files are "
                      "written for gpu-operator v26.7.0", err)
        self.assertIn("platform.gpu_operator.chart_version", err)
        self.assertFalse(os.path.exists(os.path.join(plan, "before")))
        # Written for the version it runs: pinned to it, never the newest.
        self.write("plan-pinned.yaml", PLAN_A.replace(
            "name: plan-a\n", "name: plan-a\nplatform:\n  gpu_operator: "
            "{chart_version: v25.10.1}\n"))
        plan = self.emit("plan-pinned.yaml", "pinned", "--from",
                         self.path("today.yaml"))
        # Its device-plugin ConfigMap already holds the plan's data: no
        # restart (a plan that changes no pool's config restarts nothing).
        self.cluster.run("kubectl", "apply", "-f",
                         os.path.join(plan, "device-plugin-config.yaml"))
        mutations, err = self.run_changes(plan, "apply.sh")
        operator = self.cluster.releases()["gpu-operator/gpu-operator"]
        self.assertEqual([r["version"] for r in operator], ["v25.10.1"] * 3)
        self.assertEqual(self.cluster.state().get("restarts", []), [], err)
        self.assertFalse(any(m[0] == "rollout restart" for m in mutations))

    def test_rollback_without_todays_nodes_restores_the_rest(self):
        self.make_cluster()
        plan = self.emit("plan-a.yaml", "plan-a")
        self.assertNotIn("node-rollback.sh", os.listdir(plan))
        today = self.snapshot()
        self.run_changes(plan, "apply.sh")
        applied = self.snapshot()
        mutations, err = self.run_changes(plan, "rollback.sh", status=1)
        self.assertIn("today's configuration of pool(s) train, dev, infer is "
                      "not known", err)
        now = self.snapshot()
        self.assertEqual(now["nodes"], applied["nodes"])
        for key, obj in today["objects"].items():
            self.assertEqual(kept(now["objects"][key]), kept(obj), key)
        self.assertNotIn(MIG_MAP, now["objects"])
        self.assertEqual(
            now["releases"]["gpu-operator/gpu-operator"][-1]["config"],
            today["releases"]["gpu-operator/gpu-operator"][-1]["config"])
        mutations, _ = self.run_changes(plan, "rollback.sh", status=1)
        self.assertEqual(mutations, [])


class FakeApiServerTest(TempDirTestCase):
    """The stand-in refuses what the API server refuses, so a script that
    restored a stale copy would fail here too."""

    def test_stale_resource_version_and_create_with_one_fail(self):
        cluster = FakeCluster(self.tmp.name, {})
        self.write("m.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: "
                   "{name: m, namespace: ns}\ndata: {a: '1'}\n")
        cluster.run("kubectl", "apply", "-f", self.path("m.yaml"))
        live = cluster.run("kubectl", "get", "configmap", "m", "-n", "ns",
                           "-o", "yaml").stdout
        self.write("stale.yaml", live)
        self.write("m.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: "
                   "{name: m, namespace: ns}\ndata: {a: '2'}\n")
        cluster.run("kubectl", "apply", "-f", self.path("m.yaml"))
        with self.assertRaisesRegex(AssertionError, "Conflict"):
            cluster.run("kubectl", "replace", "-f", self.path("stale.yaml"))
        cluster.run("kubectl", "delete", "configmap", "m", "-n", "ns")
        with self.assertRaisesRegex(AssertionError, "resourceVersion should "
                                    "not be set"):
            cluster.run("kubectl", "create", "-f", self.path("stale.yaml"))


class ServerFieldsTest(TempDirTestCase):
    """apply.sh's filter of the fields the API server sets, on the YAML
    kubectl prints (managedFields shown, a multi-line value with a blank
    line, the last-applied annotation alone and beside another)."""

    LIVE = """\
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue"}
    team: ml
  creationTimestamp: "2026-01-01T00:00:00Z"
  finalizers:
  - kueue.x-k8s.io/resource-in-use
  generation: 3
  labels:
    uid: kept
  managedFields:
  - apiVersion: kueue.x-k8s.io/v1beta1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec: {}
    manager: kubectl
  name: team-a
  resourceVersion: "4711"
  uid: 7d3c
spec:
  note: |
    first

    after a blank line
  resourceVersion: a spec field of the same name
status:
  pendingWorkloads: 0
  conditions:
  - type: Active
"""
    CLEAN = """\
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  annotations:
    team: ml
  finalizers:
  - kueue.x-k8s.io/resource-in-use
  labels:
    uid: kept
  name: team-a
spec:
  note: |
    first

    after a blank line
  resourceVersion: a spec field of the same name
"""

    def test_only_server_fields_are_dropped(self):
        cluster = FakeCluster(self.tmp.name, {})
        self.write("s.yaml", "name: s\ncluster:\n  pools:\n    - {name: p, "
                   "gpu: L4, nodes: 1}\n" + CLASSES)
        code, _, err = run("emit", "k8s", "--scenario", self.path("s.yaml"),
                           "--out", self.path("out"))
        self.assertEqual(code, 0, err)
        with open(self.path("out/apply.sh"), encoding="utf-8") as f:
            script = f.read()
        start = script.index("without_server_fields() {")
        end = script.index("\n}\n", start) + 3
        function = script[start:end]
        for live, clean in ((self.LIVE, self.CLEAN),
                            (self.LIVE.replace("    team: ml\n", ""),
                             self.CLEAN.replace("  annotations:\n    team: "
                                                "ml\n", ""))):
            result = subprocess.run(
                ["sh", "-c", function + "without_server_fields"],
                input=live, capture_output=True, text=True, check=True,
                env=cluster.env())
            self.assertEqual(result.stdout, clean)


if __name__ == "__main__":
    main()
