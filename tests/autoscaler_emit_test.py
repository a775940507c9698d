"""End-to-end tests of `gpushare-sim emit autoscaler` and of the autoscaler
files in `emit k8s`, from a scenario's `autoscaling:` pools: the values,
tags, annotations and NodePools as counted by hand; a scenario without an
autoscaled pool, a bad scenario and a bad option exit 2 and write nothing.
(Every field: src/gpushare/emit/*autoscaler*_test.cc and
karpenter_node_pools_test.cc.)

Run as: python3 tests/autoscaler_emit_test.py --binary /path/to/gpushare-sim
"""

import os
import subprocess
import tempfile
import unittest

import yaml

from cli_harness import main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, "examples", "default.yaml")

# A cluster-autoscaler pool of 4 x L4 time-sliced x4 (a ready node
# advertises 16 nvidia.com/gpu) and a Karpenter pool of the same shape.
SCENARIO = """\
name: elastic
cluster:
  pools:
    - name: l4-elastic
      gpu: L4
      gpus_per_node: 4
      nodes: 1
      labels: {team: a}
      sharing: {scheme: time-slicing, replicas: 4}
      autoscaling:
        provider: cluster-autoscaler
        min: 0
        max: 6
        cluster_autoscaler: {expander: least-waste,
                             scale_down_unneeded_time_s: 300}
    - name: kp
      gpu: L4
      gpus_per_node: 4
      nodes: 0
      sharing: {scheme: time-slicing, replicas: 4}
      autoscaling:
        provider: karpenter
        min: 0
        max: 3
        karpenter:
          consolidation_policy: WhenEmpty
          consolidate_after_s: 60
          limits: {nvidia.com/gpu: 12, memory: 100Gi}
          instance_types:
            - {name: g6.12xlarge, gpus: 4, price_per_hour: 4.6,
               spot_price_per_hour: 1.7}
          spot: true
workload:
  classes:
    - {name: notebooks, class: dev, count: 8, gpus: 1, work_s: 600}
"""


def part(scenario, name, *extra):
    status, out, err = run("emit", "autoscaler", "--scenario", scenario,
                           "--part", name, *extra)
    assert status == 0, err
    return out


def docs(text):
    return [d for d in yaml.safe_load_all(text) if d is not None]


class AutoscalerEmitTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.scenario = os.path.join(self.tmp.name, "elastic.yaml")
        with open(self.scenario, "w", encoding="utf-8") as f:
            f.write(SCENARIO)

    def tearDown(self):
        self.tmp.cleanup()

    def test_cluster_autoscaler_values_and_asg_tags(self):
        values = yaml.safe_load(part(self.scenario,
                                     "cluster-autoscaler-values.yaml",
                                     "--cloud", "aws"))
        self.assertEqual(values["extraArgs"]["scale-down-unneeded-time"], "5m")
        self.assertEqual(values["extraArgs"]["expander"], "least-waste")
        self.assertEqual(values["extraArgs"]["scan-interval"], "10s")
        self.assertEqual(values["cloudProvider"], "aws")
        self.assertEqual(values["autoscalingGroups"],
                         [{"name": "l4-elastic", "minSize": 0, "maxSize": 6}])
        tags = yaml.safe_load(part(self.scenario,
                                   "cluster-autoscaler-asg-tags.yaml"))["Tags"]
        by_key = {t["Key"]: t["Value"] for t in tags}
        prefix = "k8s.io/cluster-autoscaler/node-template/"
        # 4 GPUs x 4 replicas.
        self.assertEqual(by_key[prefix + "resources/nvidia.com/gpu"], "16")
        self.assertEqual(by_key[prefix + "label/team"], "a")
        self.assertEqual(
            by_key[prefix + "label/nvidia.com/device-plugin.config"],
            "l4-elastic")
        self.assertEqual({t["ResourceId"] for t in tags}, {"l4-elastic"})

    def test_cluster_api_script_is_valid_sh(self):
        script = os.path.join(self.tmp.name, "md.sh")
        status, _, err = run("emit", "autoscaler", "--scenario", self.scenario,
                             "--cloud", "clusterapi", "--part",
                             "cluster-autoscaler-machinedeployments.sh",
                             "--out", script)
        self.assertEqual(status, 0, err)
        self.assertEqual(subprocess.run(["sh", "-n", script]).returncode, 0)
        with open(script, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("capacity.cluster-autoscaler.kubernetes.io/"
                      "gpu-count=16 ", text)
        self.assertIn("cluster-api-autoscaler-node-group-max-size=6 ", text)

    def test_karpenter_nodepool_and_overlay(self):
        pools = docs(part(self.scenario, "karpenter-nodepools.yaml"))
        self.assertEqual(len(pools), 1)
        spec = pools[0]["spec"]
        self.assertEqual(pools[0]["metadata"]["name"], "kp")
        # 100Gi = 102400 MiB; max 3 nodes.
        self.assertEqual(spec["limits"], {"nodes": "3", "memory": "102400Mi",
                                          "nvidia.com/gpu": "12"})
        self.assertEqual(spec["disruption"],
                         {"consolidationPolicy": "WhenEmpty",
                          "consolidateAfter": "1m",
                          "budgets": [{"nodes": "10%"}]})
        requirements = {r["key"]: r["values"]
                        for r in spec["template"]["spec"]["requirements"]}
        self.assertEqual(requirements["node.kubernetes.io/instance-type"],
                         ["g6.12xlarge"])
        self.assertEqual(requirements["karpenter.sh/capacity-type"],
                         ["spot", "on-demand"])
        overlays = docs(part(self.scenario, "karpenter-node-overlays.yaml"))
        self.assertEqual([o["metadata"]["name"] for o in overlays],
                         ["kp-g6.12xlarge"])
        self.assertEqual(overlays[0]["spec"]["capacity"],
                         {"nvidia.com/gpu": "16"})

    def test_bundle_out_file_and_stdout_agree(self):
        status, out, err = run("emit", "autoscaler", "--scenario",
                               self.scenario)
        self.assertEqual(status, 0, err)
        names = [line.split()[3] for line in out.splitlines()
                 if line.startswith("# ==== file: ")]
        self.assertEqual(names, ["cluster-autoscaler-values.yaml",
                                 "cluster-autoscaler-asg-tags.yaml",
                                 "cluster-autoscaler-machinedeployments.sh",
                                 "karpenter-nodepools.yaml",
                                 "karpenter-node-overlays.yaml"])
        out_file = os.path.join(self.tmp.name, "all.txt")
        status, _, err = run("emit", "autoscaler", "--scenario",
                             self.scenario, "--out", out_file)
        self.assertEqual(status, 0, err)
        with open(out_file, encoding="utf-8") as f:
            self.assertEqual(f.read(), out)
        status, _, err = run("emit", "autoscaler", "--scenario",
                             self.scenario, "--part", "nope.yaml")
        self.assertEqual(status, 2)
        self.assertIn("karpenter-nodepools.yaml", err)

    def test_emit_k8s_writes_them_and_apply_sh_applies_the_nodepools(self):
        out = os.path.join(self.tmp.name, "k8s")
        status, _, err = run("emit", "k8s", "--scenario", self.scenario,
                             "--out", out)
        self.assertEqual(status, 0, err)
        files = set(os.listdir(out))
        for name in ["cluster-autoscaler-values.yaml",
                     "cluster-autoscaler-asg-tags.yaml",
                     "cluster-autoscaler-machinedeployments.sh",
                     "karpenter-nodepools.yaml",
                     "karpenter-node-overlays.yaml"]:
            self.assertIn(name, files)
        for name in files:
            if name.endswith(".sh"):
                self.assertEqual(subprocess.run(
                    ["sh", "-n", os.path.join(out, name)]).returncode, 0, name)
        with open(os.path.join(out, "apply.sh"), encoding="utf-8") as f:
            apply = f.read()
        self.assertIn("karpenter-nodepools.yaml", apply)
        self.assertNotIn("karpenter-node-overlays.yaml", apply)
        self.assertNotIn("cluster-autoscaler-values.yaml", apply)


class AutoscalerEmitErrorsTest(unittest.TestCase):

    def test_no_autoscaled_pool_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out_file = os.path.join(tmp, "autoscaler.yaml")
            status, out, err = run("emit", "autoscaler", "--scenario",
                                   DEFAULT, "--out", out_file)
            self.assertEqual(status, 2, err)
            self.assertEqual(out, "")
            self.assertIn("has no autoscaled pool", err)
            self.assertFalse(os.path.exists(out_file))

    def test_bad_scenario_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            scenario = os.path.join(tmp, "bad.yaml")
            with open(scenario, "w", encoding="utf-8") as f:
                f.write("name: bad\ncluster:\n  pools: [{name: a, nodes: -1}]\n")
            out_file = os.path.join(tmp, "autoscaler.yaml")
            status, _, err = run("emit", "autoscaler", "--scenario", scenario,
                                 "--out", out_file)
            self.assertEqual(status, 2, err)
            self.assertIn("bad.yaml", err)
            self.assertFalse(os.path.exists(out_file))

    def test_unknown_cloud_is_refused(self):
        status, out, _ = run("emit", "autoscaler", "--scenario", DEFAULT,
                             "--cloud", "gcp")
        self.assertNotEqual(status, 0)
        self.assertEqual(out, "")


if __name__ == "__main__":
    main()
