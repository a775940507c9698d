"""End-to-end: how node-setup.sh and rollback.sh of `emit k8s --from TODAY`
change MIG layouts on a fake cluster (tests/fake_cluster.py, whose kubectl
models the MIG manager and kubectl drain), docs/emit.md "The MIG sequence"
and "Draining":

- a node whose reconfiguration fails stops the script at once (not after
  MIG_TIMEOUT), cordoned, with a message naming it; a second run retries by
  restarting the node's MIG manager pod and succeeds; a third changes
  nothing;
- a node whose layout today is the planned one under another name
  (all-1g.10gb, planned as explicit layouts `infer-custom`) is relabelled,
  never cordoned or drained, and rollback.sh relabels it back the same way;
- a pod without a controller stops the drain (dry run included) with its
  name; DRAIN_FORCE=1 lets kubectl drain --force delete it;
- a config name today's pool gives another layout is renamed (infer-custom
  becomes infer-custom-2), so the node is drained and reconfigured;
- a MIG manager that never finishes stops the script after MIG_TIMEOUT.

Run as: python3 tests/mig_retry_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import subprocess
import time

from cli_harness import TempDirTestCase, main, run
from fake_cluster import FakeCluster

NODEPOOL = "cloud.google.com/gke-nodepool"
STATE = "nvidia.com/mig.config.state"
CONFIG = "nvidia.com/mig.config"
TRAIN = ["gke-train-5f2a", "gke-train-9c1d"]
INFER = "gke-infer-3d6b"

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
      match_labels: {cloud.google.com/gke-nodepool: train}
    - name: infer
      gpu: A100-80GB
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer}
      sharing: {scheme: mig, mig_config: all-1g.10gb, mig_strategy: mixed}
""" + CLASSES

PLAN = """\
name: plan
cluster:
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      match_labels: {cloud.google.com/gke-nodepool: train}
      sharing: {scheme: mig, mig_config: all-balanced, mig_strategy: mixed}
    - name: infer
      gpu: A100-80GB
      nodes: 1
      match_labels: {cloud.google.com/gke-nodepool: infer}
      sharing: {scheme: mig, mig_layouts: ["1g.10gb:7"],
                mig_strategy: mixed}
""" + CLASSES

# What each config does to an A100-80GB (the fake MIG manager's asserts).
LAYOUTS = {"all-1g.10gb": "7 x 1g.10gb", "infer-custom": "7 x 1g.10gb"}


def node(pool, config, pods):
    return {"labels": {NODEPOOL: pool, "nvidia.com/mig.capable": "true",
                       CONFIG: config, STATE: "success"},
            "pods": pods}


class MigChangeTest(TempDirTestCase):

    def setUp(self):
        super().setUp()
        self.write("today.yaml", TODAY)
        self.write("plan.yaml", PLAN)
        code, _, err = run("emit", "k8s", "--scenario", self.path("plan.yaml"),
                           "--from", self.path("today.yaml"), "--out",
                           self.path("plan"))
        self.assertEqual(code, 0, err)
        self.pods = {"train": [{"name": "ml/trainer-0", "controller": True}],
                     # bare: a drain would refuse it
                     "infer": [{"name": "ml/server-0", "controller": True},
                               {"name": "ml/notebook", "controller": False}]}

    def cluster(self, bare_on_train=False):
        train_pods = list(self.pods["train"])
        if bare_on_train:
            train_pods.append({"name": "default/debug-shell",
                               "controller": False})
        nodes = {name: node("train", "all-disabled", train_pods)
                 for name in TRAIN}
        nodes[INFER] = node("infer", "all-1g.10gb", self.pods["infer"])
        return FakeCluster(self.tmp.name, nodes, mig_layouts=LAYOUTS)

    def sh(self, cluster, script, *args, env=None, folder="plan"):
        """Runs `script` of `folder`; returns (exit status, stderr, seconds,
        mutations)."""
        cluster.reset_log()
        start = time.monotonic()
        result = subprocess.run(
            ["sh", os.path.join(self.path(folder), script), *args],
            cwd=self.tmp.name, env=dict(cluster.env(), **(env or {})),
            capture_output=True, text=True, timeout=120, check=False)
        return (result.returncode, result.stderr, time.monotonic() - start,
                cluster.state()["mutations"])

    def ok(self, cluster, script, *args, env=None, folder="plan"):
        code, err, _, mutations = self.sh(cluster, script, *args, env=env,
                                          folder=folder)
        self.assertEqual(code, 0, err + json.dumps(cluster.state()))
        self.assertEqual(cluster.state()["violations"], [])
        return mutations

    def touched(self, mutations, name, verbs=("cordon", "drain")):
        return [m for m in mutations if m[0] in verbs and m[1] == name]

    def test_failure_stops_at_once_and_a_rerun_retries(self):
        cluster = self.cluster()
        cluster.fail_next_mig(TRAIN[0])
        # A 20-minute timeout polled every 30 s: stopping at once is the
        # first poll.
        slow = {"MIG_TIMEOUT": "20m", "MIG_POLL": "30"}
        code, err, seconds, _ = self.sh(cluster, "node-setup.sh", env=slow)
        self.assertEqual(code, 1, err)
        self.assertLess(seconds, 25)
        self.assertIn(f"node-setup.sh: {TRAIN[0]}: the MIG manager failed to "
                      "apply MIG config all-balanced "
                      "(nvidia.com/mig.config.state=failed); it stays "
                      "cordoned.", err)
        self.assertIn("--field-selector spec.nodeName=" + TRAIN[0], err)
        self.assertIn("run node-setup.sh again", err)
        nodes = cluster.nodes()
        self.assertTrue(nodes[TRAIN[0]]["unschedulable"])
        self.assertEqual(nodes[TRAIN[0]]["labels"][STATE], "failed")
        self.assertEqual(nodes[TRAIN[0]]["labels"][CONFIG], "all-balanced")
        # The script stopped there: the other nodes are as they were.
        self.assertEqual(nodes[TRAIN[1]]["labels"][CONFIG], "all-disabled")
        self.assertFalse(nodes[TRAIN[1]]["unschedulable"])
        self.assertEqual(cluster.state()["violations"], [])

        # The retry: the label already names the config, so only a restart
        # of the node's MIG manager makes it act.
        mutations = self.ok(cluster, "node-setup.sh", env=slow)
        self.assertIn(["restart-mig-manager", TRAIN[0]], mutations)
        self.assertNotIn(["restart-mig-manager", TRAIN[1]], mutations)
        for name in TRAIN:
            labels = cluster.nodes()[name]["labels"]
            self.assertEqual((labels[CONFIG], labels[STATE]),
                             ("all-balanced", "success"), name)
            self.assertFalse(cluster.nodes()[name]["unschedulable"], name)
            self.assertEqual(cluster.nodes()[name]["mig_applied"],
                             "all-balanced")
        self.assertEqual(self.ok(cluster, "node-setup.sh"), [])

    def test_same_layout_under_another_name_is_not_drained(self):
        # The plan's ConfigMap keeps today's all-1g.10gb: a MIG manager that
        # restarts on the new ConfigMap finds the node's config there.
        with open(self.path("plan/mig-parted-config.yaml"),
                  encoding="utf-8") as f:
            configmap = f.read()
        self.assertIn("\n      all-1g.10gb:\n", configmap)
        cluster = self.cluster()
        self.assertEqual(self.ok(cluster, "node-setup.sh", "--dry-run"), [])
        mutations = self.ok(cluster, "node-setup.sh")
        self.assertEqual(self.touched(mutations, INFER, ("cordon", "drain",
                                                         "restart-mig-manager")),
                         [])
        infer = cluster.nodes()[INFER]
        self.assertEqual((infer["labels"][CONFIG], infer["labels"][STATE]),
                         ("infer-custom", "success"))
        self.assertEqual(infer["pods"], self.pods["infer"])
        self.assertFalse(infer["unschedulable"])
        # The train nodes change layout: drained.
        for name in TRAIN:
            self.assertTrue(self.touched(mutations, name), name)
        self.assertEqual(self.ok(cluster, "node-setup.sh"), [])

        mutations = self.ok(cluster, "rollback.sh")
        self.assertEqual(self.touched(mutations, INFER), [])
        self.assertEqual(cluster.nodes()[INFER]["labels"][CONFIG],
                         "all-1g.10gb")
        self.assertEqual(cluster.nodes()[INFER]["pods"], self.pods["infer"])
        self.assertEqual(self.ok(cluster, "rollback.sh"), [])

    def test_a_name_today_gives_another_layout_is_renamed(self):
        # Today infer-custom is 2 x 3g.40gb; the plan's 7 x 1g.10gb may not
        # take that name: the node carries it, the MIG manager would not act.
        self.write("today2.yaml", TODAY.replace(
            "mig_config: all-1g.10gb", 'mig_layouts: ["3g.40gb:2"]'))
        code, _, err = run("emit", "k8s", "--scenario", self.path("plan.yaml"),
                           "--from", self.path("today2.yaml"), "--out",
                           self.path("plan2"))
        self.assertEqual(code, 0, err)
        with open(self.path("plan2/mig-parted-config.yaml"),
                  encoding="utf-8") as f:
            self.assertIn("\n      infer-custom-2:\n", f.read())
        nodes = {name: node("train", "all-disabled", self.pods["train"])
                 for name in TRAIN}
        nodes[INFER] = node("infer", "infer-custom", self.pods["infer"][:1])
        cluster = FakeCluster(self.tmp.name, nodes, mig_layouts={
            "infer-custom": "2 x 3g.40gb", "infer-custom-2": "7 x 1g.10gb"})
        mutations = self.ok(cluster, "node-setup.sh", folder="plan2")
        self.assertTrue(self.touched(mutations, INFER))
        infer = cluster.nodes()[INFER]
        self.assertEqual(infer["labels"][CONFIG], "infer-custom-2")
        self.assertEqual(infer["mig_applied"], "7 x 1g.10gb")
        self.assertEqual(self.ok(cluster, "node-setup.sh", folder="plan2"), [])
        mutations = self.ok(cluster, "rollback.sh", folder="plan2")
        self.assertTrue(self.touched(mutations, INFER))
        infer = cluster.nodes()[INFER]
        self.assertEqual(infer["labels"][CONFIG], "infer-custom")
        self.assertEqual(infer["mig_applied"], "2 x 3g.40gb")

    def test_unmanaged_pod_stops_the_drain_until_forced(self):
        cluster = self.cluster(bare_on_train=True)
        for args in (("--dry-run",), ()):
            code, err, _, mutations = self.sh(cluster, "node-setup.sh", *args)
            self.assertEqual(code, 1, err)
            self.assertIn(f"node-setup.sh: {TRAIN[0]} not drained: these pods "
                          "have no controller, so nothing would recreate them "
                          "once deleted: default/debug-shell.", err)
            self.assertIn("DRAIN_FORCE=1", err)
            self.assertIn("nothing changed (dry run)" if args
                          else "it stays cordoned", err)
            if args:
                self.assertEqual(mutations, [])
        train = cluster.nodes()[TRAIN[0]]
        self.assertTrue(train["unschedulable"])
        self.assertEqual(train["labels"][CONFIG], "all-disabled")
        self.assertIn({"name": "default/debug-shell", "controller": False},
                      train["pods"])

        mutations = self.ok(cluster, "node-setup.sh",
                            env={"DRAIN_FORCE": "1"})
        self.assertIn(["drain", TRAIN[0], "--force"], mutations)
        train = cluster.nodes()[TRAIN[0]]
        self.assertEqual(train.get("pods", []), [])
        self.assertEqual(train["labels"][CONFIG], "all-balanced")
        self.assertFalse(train["unschedulable"])

    def test_a_manager_that_never_finishes_times_out(self):
        cluster = self.cluster()
        cluster.fail_next_mig(TRAIN[0], hang=True)
        code, err, seconds, _ = self.sh(
            cluster, "node-setup.sh", env={"MIG_TIMEOUT": "2s",
                                           "MIG_POLL": "1"})
        self.assertEqual(code, 1, err)
        self.assertGreaterEqual(seconds, 2)
        self.assertIn(f"{TRAIN[0]}: MIG config all-balanced not applied after "
                      "MIG_TIMEOUT=2s (nvidia.com/mig.config.state=pending); "
                      "it stays cordoned.", err)
        self.assertTrue(cluster.nodes()[TRAIN[0]]["unschedulable"])

    def test_bad_timeout_is_refused(self):
        cluster = self.cluster()
        code, err, _, mutations = self.sh(cluster, "node-setup.sh",
                                          env={"MIG_TIMEOUT": "soon"})
        self.assertEqual(code, 2, err)
        self.assertIn("MIG_TIMEOUT (soon)", err)
        self.assertEqual(mutations, [])


if __name__ == "__main__":
    main()
