"""End-to-end: the change set `emit k8s --from TODAY` writes (node-setup.sh,
rollback.sh) applied to a fake cluster (tests/fake_cluster.py: a stand-in
kubectl that keeps node names, labels, taints and cordons in a file and
models the MIG manager), docs/emit.md "node-setup.sh and node-rollback.sh".

The cluster: two imported nodes with real-looking names (an A100 in MIG
mixed all-balanced, an L4 time-sliced x4 with a team taint) planned onto
HAMi, and three written pools found by their GKE node-pool label, each
running another scheme today than planned: train exclusive → MIG,
dev time-slicing (labels, taint) → exclusive with another taint and one
node more, infer MIG → exclusive. Checks: --dry-run changes nothing; the
end state is the plan (labels, taints, MIG layouts, no node left cordoned,
no MIG change on a schedulable node); a second run changes nothing;
rollback.sh restores today's state; its second run changes nothing too.

Run as: python3 tests/change_set_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import subprocess

from cli_harness import TempDirTestCase, main, run
from fake_cluster import FakeCluster, kubectl_nodes, strip_state_labels

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODEPOOL = "cloud.google.com/gke-nodepool"
A100 = "ip-10-0-1-23.ec2.internal"
L4 = "ip-10-0-1-24.ec2.internal"
RENAMES = {"gpu-a100-0": A100, "gpu-l4-1": L4}

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
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: dev-pool}
      labels: {team: research}
      taints: [{key: dedicated, value: research, effect: NoSchedule}]
      sharing: {scheme: time-slicing, replicas: 4}
    - name: infer
      gpu: A100-80GB
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer-pool}
      sharing: {scheme: mig, mig_config: all-1g.10gb}
""" + CLASSES

PLAN = """\
name: plan
cluster:
  import: {format: kubectl, file: nodes.json, prefix: im,
           sharing: {scheme: hami}}
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: train-pool}
      sharing: {scheme: mig, mig_config: all-balanced, mig_strategy: mixed}
    - name: dev
      gpu: L4
      nodes: 3
      match_labels: {cloud.google.com/gke-nodepool: dev-pool}
      taints: [{key: dedicated, value: dev, effect: NoSchedule}]
    - name: infer
      gpu: A100-80GB
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer-pool}
""" + CLASSES

WRITTEN = {"gke-train-pool-5f2a": "train-pool",
           "gke-train-pool-9c1d": "train-pool",
           "gke-dev-pool-a7e3": "dev-pool", "gke-dev-pool-b04f": "dev-pool",
           "gke-infer-pool-3d6b": "infer-pool"}


class ChangeSetTest(TempDirTestCase):

    def setUp(self):
        super().setUp()
        with open(os.path.join(ROOT, "examples", "kubectl", "nodes.json"),
                  encoding="utf-8") as f:
            items = json.load(f)["items"]
        kept = []
        for node in items:
            name = node["metadata"]["name"]
            if name not in RENAMES:
                continue
            text = json.dumps(node).replace(f'"{name}"',
                                            f'"{RENAMES[name]}"')
            kept.append(json.loads(text))
        self.write("nodes.json", json.dumps({"apiVersion": "v1", "kind": "List",
                                           "items": kept}, indent=1))
        nodes = kubectl_nodes(self.path("nodes.json"))
        for name, pool in WRITTEN.items():
            labels = {NODEPOOL: pool, "kubernetes.io/hostname": name}
            if "dev" not in pool:  # A100s: what the GPU Operator sets
                labels.update({"nvidia.com/mig.capable": "true",
                               "nvidia.com/mig.config": "all-disabled",
                               "nvidia.com/mig.config.state": "success"})
            nodes[name] = {"labels": labels, "taints": []}
        self.cluster = FakeCluster(self.tmp.name, nodes)
        self.write("today.yaml", TODAY)
        self.write("plan.yaml", PLAN)

    def emit(self, scenario, out, *extra):
        code, _, err = run("emit", "k8s", "--scenario", self.path(scenario),
                           "--out", self.path(out), *extra)
        self.assertEqual(code, 0, err)
        return self.path(out)

    def sh(self, folder, script, *args):
        result = subprocess.run(
            ["sh", os.path.join(folder, script), *args], cwd=self.tmp.name,
            env=self.cluster.env(), capture_output=True, text=True,
            timeout=120, check=False)
        self.assertEqual(result.returncode, 0,
                         result.stderr + json.dumps(self.cluster.state()))
        return result.stderr

    def run_changes(self, folder, script):
        """Runs `script` and returns the changes it made."""
        self.cluster.reset_log()
        self.sh(folder, script)
        state = self.cluster.state()
        self.assertEqual(state["violations"], [])
        for name, node in state["nodes"].items():
            self.assertFalse(node["unschedulable"], name)
        return state["mutations"]

    def test_apply_twice_then_roll_back(self):
        # Today's cluster: the imported nodes as they are, the written pools
        # as node-setup.sh of today's scenario leaves them.
        self.run_changes(self.emit("today.yaml", "today"), "node-setup.sh")
        today = strip_state_labels(self.cluster.nodes())
        plan = self.emit("plan.yaml", "plan", "--from",
                         self.path("today.yaml"))
        files = sorted(os.listdir(plan))
        self.assertIn("rollback.sh", files)
        self.assertIn("gpu-operator-values.yaml", files)

        self.cluster.reset_log()
        self.sh(plan, "node-setup.sh", "--dry-run")
        state = self.cluster.state()
        self.assertEqual(state["mutations"], [])
        self.assertEqual(strip_state_labels(state["nodes"]), today)
        self.assertTrue(any("--dry-run=server" in c for c in state["calls"]))

        self.assertNotEqual(self.run_changes(plan, "node-setup.sh"), [])
        nodes = self.cluster.nodes()
        for name in (A100, L4):  # imported, now HAMi
            labels = nodes[name]["labels"]
            self.assertEqual(labels["gpu"], "on", name)
            self.assertEqual(labels["nvidia.com/gpu.deploy.device-plugin"],
                             "false", name)
            self.assertNotIn("nvidia.com/device-plugin.config", labels)
            self.assertTrue(labels["gpushare.io/node-pool"].startswith("im-"))
        self.assertEqual(nodes[A100]["labels"]["nvidia.com/mig.config"],
                         "all-disabled")
        self.assertNotIn("nvidia.com/mig.config", nodes[L4]["labels"])
        for name, pool in WRITTEN.items():
            labels = nodes[name]["labels"]
            short = pool.split("-")[0]
            self.assertEqual(labels["gpushare.io/node-pool"], short)
            self.assertEqual(labels["nvidia.com/device-plugin.config"], short)
            self.assertEqual(labels["nvidia.com/gpu.deploy.device-plugin"],
                             "true")
            self.assertNotIn("gpu", labels)
            self.assertNotIn("team", labels)
        for name in ("gke-train-pool-5f2a", "gke-train-pool-9c1d"):
            self.assertEqual(nodes[name]["labels"]["nvidia.com/mig.config"],
                             "all-balanced")
            self.assertEqual(
                nodes[name]["labels"]["nvidia.com/mig.config.state"],
                "success")
        self.assertEqual(
            nodes["gke-infer-pool-3d6b"]["labels"]["nvidia.com/mig.config"],
            "all-disabled")
        for name in ("gke-dev-pool-a7e3", "gke-dev-pool-b04f"):
            self.assertEqual(nodes[name]["taints"],
                             [{"key": "dedicated", "value": "dev",
                               "effect": "NoSchedule"}])

        self.assertEqual(self.run_changes(plan, "node-setup.sh"), [])

        self.assertNotEqual(self.run_changes(plan, "rollback.sh"), [])
        self.assertEqual(strip_state_labels(self.cluster.nodes()), today)
        self.assertEqual(self.run_changes(plan, "rollback.sh"), [])

        with open(os.path.join(plan, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn("- Pool `dev`: provision 1 more node like its others",
                      readme)

    def test_missing_nodes_stop_before_any_change(self):
        plan = self.emit("plan.yaml", "plan", "--from",
                         self.path("today.yaml"))
        state = self.cluster.state()
        del state["nodes"]["gke-infer-pool-3d6b"]
        del state["nodes"][L4]
        with open(self.cluster.state_file, "w", encoding="utf-8") as f:
            json.dump(state, f)
        result = subprocess.run(
            ["sh", os.path.join(plan, "node-setup.sh")], cwd=self.tmp.name,
            env=self.cluster.env(), capture_output=True, text=True,
            timeout=60, check=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn("NotFound", result.stderr)
        self.assertEqual(self.cluster.state()["mutations"], [])

    def test_bad_argument_is_refused(self):
        plan = self.emit("plan.yaml", "plan")
        self.assertNotIn("node-rollback.sh", os.listdir(plan))
        result = subprocess.run(
            ["sh", os.path.join(plan, "node-setup.sh"), "--force"],
            cwd=self.tmp.name, env=self.cluster.env(), capture_output=True,
            text=True, timeout=60, check=False)
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage: sh node-setup.sh [--dry-run]", result.stderr)


class PlannedImportTest(TempDirTestCase):
    """`plan examples/kubectl-nodegroups.yaml --out DIR` (an imported EKS
    cluster whose node groups the plan resizes) applied to a fake cluster
    of that node list: the kept nodes are configured, the node the plan
    takes out is left alone and named in the README, a second run changes
    nothing, and rollback.sh gives every node its labels back."""

    def test_plan_of_an_imported_cluster_applies_and_rolls_back(self):
        example = os.path.join(ROOT, "examples", "kubectl-nodegroups.yaml")
        out = self.path("plan")
        code, _, err = run("plan", example, "--quiet", "--out", out)
        self.assertEqual(code, 0, err)
        nodes = kubectl_nodes(os.path.join(ROOT, "examples", "kubectl",
                                           "nodegroups-nodes.json"))
        cluster = FakeCluster(self.tmp.name, nodes)
        before = strip_state_labels(cluster.nodes())

        def sh(script):
            cluster.reset_log()
            result = subprocess.run(
                ["sh", os.path.join(out, script)], cwd=self.tmp.name,
                env=cluster.env(), capture_output=True, text=True,
                timeout=120, check=False)
            self.assertEqual(result.returncode, 0, result.stderr)
            state = cluster.state()
            self.assertEqual(state["violations"], [])
            return state["mutations"]

        self.assertNotEqual(sh("node-setup.sh"), [])
        after = cluster.nodes()
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        removed = "ip-10-0-31-77.ec2.internal"
        self.assertIn(f"take 1 node out: `{removed}`", readme)
        self.assertIn("provision 1 more node in its node group "
                      "(`eks.amazonaws.com/nodegroup=inference-l4`)", readme)
        self.assertEqual(after[removed], nodes[removed] | {"unschedulable":
                                                           False})
        for name, node in after.items():
            pool = node["labels"].get("gpushare.io/node-pool")
            if name == removed or pool is None:
                continue
            self.assertEqual(node["labels"]["nvidia.com/device-plugin.config"],
                             pool, name)
            self.assertEqual(
                node["labels"]["nvidia.com/gpu.deploy.device-plugin"], "true")
        self.assertEqual(sh("node-setup.sh"), [])
        self.assertNotEqual(sh("rollback.sh"), [])
        self.assertEqual(strip_state_labels(cluster.nodes()), before)
        self.assertEqual(sh("rollback.sh"), [])


if __name__ == "__main__":
    main()
