"""End-to-end tests of autoscaled pools (`autoscaling:`, docs/model.md §12):
a hand-computed scale-up through `run` (the scan, the node's boot and GPU
stack), the results in the JSON and the text, and examples/autoscaling.yaml —
a daily cycle on elastic pools — with the pathologies it is there to show.

Run as: python3 tests/autoscaling_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import TempDirTestCase, main, run_raw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "autoscaling.yaml")

# One pod asking one GPU arrives at 95 s on a group with no node: the
# cluster-autoscaler scan at 100 (every 10 s from 0) launches one; kubelet is
# Ready at 160 (node_boot_s 60), the GPUs at 460 (gpu_stack_ready_s 300),
# where the pod binds; it runs 600 s to 1060.
ONE_POD = """\
name: one-pod
horizon_s: 0
sample_interval_s: 10
model: {node_boot_s: 60, gpu_stack_ready_s: 300}
cluster:
  pools:
    - name: g
      gpu: A100-80GB
      gpus_per_node: 1
      nodes: 0
      autoscaling: {provider: cluster-autoscaler, min: 0, max: 3}
workload:
  horizon_s: 2000
  classes:
    - {name: a, class: batch, count: 1, arrival_start_s: 95,
       arrival_rate_per_s: 1000000, gpus: 1, gpu_memory_mib: 1000,
       work_s: 600, duty: 1}
"""

# Eight pods asking one time-sliced replica each (nvidia.com/gpu: 1) on
# Karpenter's L4 nodes of 4 GPUs x 4 replicas: one node holds 16 such pods,
# but Karpenter sizes by physical GPUs (one a pod) and launches 8 / 4 = 2.
KARPENTER = """\
name: karpenter-ts
horizon_s: 0
sample_interval_s: 10
cluster:
  pools:
    - name: k
      gpu: L4
      gpus_per_node: 4
      nodes: 0
      sharing: {scheme: time-slicing, replicas: 4}
      autoscaling:
        provider: karpenter
        min: 0
        max: 8
        karpenter:
          instance_types:
            - {name: g6.12xlarge, gpus: 4, price_per_hour: 4.6}
workload:
  horizon_s: 100
  classes:
    - {name: a, class: dev, count: 8, arrival_rate_per_s: 1000000,
       gpus: 1, gpu_memory_mib: 1000, work_s: 600, duty: 0.2}
"""

# Ten HAMi pods of 30,000 MiB on one A100-80GB node (two fit): the other
# eight wait; cluster-autoscaler's template drops HAMi's extender-managed
# nvidia.com/gpumem, so none fits it and no node is ever launched.
HAMI = """\
name: hami-ca
horizon_s: 0
sample_interval_s: 30
cluster:
  pools:
    - name: h
      gpu: A100-80GB
      gpus_per_node: 1
      nodes: 1
      sharing: {scheme: hami}
      autoscaling: {provider: cluster-autoscaler, min: 1, max: 4}
workload:
  horizon_s: 100
  classes:
    - {name: v, class: dev, count: 10, arrival_rate_per_s: 1000000,
       gpus: 0.2, gpu_memory_mib: 30000, request_percentile: 100,
       work_s: 600, duty: 0.2}
"""


class AutoscalingCliTest(TempDirTestCase):

    def json_of(self, path):
        out = self.path("out.json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, "rb") as f:
            raw = f.read()
        return raw, json.loads(raw.decode("utf-8")), result.stdout.decode("utf-8")

    def test_scale_up_waits_for_the_scan_and_the_bring_up(self):
        _, doc, text = self.json_of(self.write("one.yaml", ONE_POD))
        pod = doc["pod_records"][0]
        self.assertEqual(pod["outcome"], "Succeeded")
        self.assertAlmostEqual(pod["start_s"], 460, places=6)
        self.assertAlmostEqual(pod["end_s"], 1060, places=6)
        pool = doc["pools"][0]
        a = pool["autoscaling"]
        self.assertEqual(a["provider"], "cluster-autoscaler")
        self.assertEqual(a["nodes_launched"], 1)
        self.assertEqual(a["scale_up_waits"]["pods"], 1)
        self.assertAlmostEqual(a["scale_up_waits"]["mean_s"], 365, places=3)
        # Billed from the launch at 100 to the end at 1060.
        self.assertAlmostEqual(a["node_hours"], 960 / 3600, places=9)
        self.assertAlmostEqual(pool["gpu_hours"], 960 / 3600, places=9)
        self.assertAlmostEqual(pool["cost"], 960 / 3600 * 4.00, places=9)
        self.assertAlmostEqual(doc["cost"], pool["cost"], places=9)
        by_time = {s["time_s"]: s for s in a["samples"]}
        self.assertEqual(by_time[90]["nodes"], 0)
        self.assertEqual(by_time[100]["nodes"], 1)
        self.assertEqual(by_time[450]["ready"], 0)
        self.assertEqual(by_time[460]["ready"], 1)
        # No GPU before the launch: nothing idle, nothing sampled.
        self.assertEqual(pool["samples"][0]["idle_gpus"], 0)
        self.assertIn("autoscaling g (cluster-autoscaler 0..3)", text)
        self.assertIn("1 pods waited for a scale-up: mean 6.1m", text)

    def test_example_is_deterministic_and_accounts_its_nodes(self):
        raw, doc, text = self.json_of(EXAMPLE)
        again, _, _ = self.json_of(EXAMPLE)
        self.assertEqual(raw, again)
        pools = {p["name"]: p for p in doc["pools"]}
        self.assertEqual(set(pools), {"ts-ca", "mig-ca", "hami-ca", "ts-karp"})
        for name, pool in pools.items():
            a = pool["autoscaling"]
            for s in a["samples"]:
                self.assertLessEqual(s["ready"], s["nodes"], name)
                self.assertLessEqual(s["nodes"], a["max"], name)
            self.assertAlmostEqual(pool["cost"], a["cost"], places=9)
            self.assertIn("autoscaling " + name, text)
        self.assertAlmostEqual(doc["cost"],
                               sum(p["cost"] for p in doc["pools"]), places=6)
        # The day peak grows the time-sliced group past its start.
        ts = pools["ts-ca"]["autoscaling"]
        self.assertGreater(ts["peak_nodes"], ts["start_nodes"])
        self.assertGreater(ts["nodes_launched"], 0)
        self.assertGreater(ts["scale_up_waits"]["pods"], 0)

    def test_karpenter_over_provisions_the_example_morning(self):
        # 24 pods of one replica need 2 nodes of 16 replicas; Karpenter,
        # counting a physical GPU a pod, grows the group past that (to its
        # max, 4, where it would want 6).
        _, doc, _ = self.json_of(EXAMPLE)
        karp = next(p for p in doc["pools"] if p["name"] == "ts-karp")
        pods = [p for p in doc["pod_records"] if p["target_pool"] == "ts-karp"]
        self.assertEqual(len(pods), 24)
        self.assertGreaterEqual(karp["autoscaling"]["peak_nodes"], 3)

    def test_hami_pods_never_trigger_a_cluster_autoscaler_scale_up(self):
        _, doc, _ = self.json_of(EXAMPLE)
        hami = next(p for p in doc["pools"] if p["name"] == "hami-ca")
        a = hami["autoscaling"]
        self.assertEqual(a["nodes_launched"], 0)
        self.assertEqual(a["peak_nodes"], 1)
        notes = [n for n in a["no_scale_up"]
                 if n["upstream"] == "Project-HAMi/HAMi#1099"]
        self.assertTrue(notes, a["no_scale_up"])
        self.assertGreater(notes[0]["pods"], 0)

    def test_karpenter_over_provisions_for_time_sliced_requests(self):
        _, doc, _ = self.json_of(self.write("k.yaml", KARPENTER))
        a = doc["pools"][0]["autoscaling"]
        self.assertEqual(a["nodes_launched"], 2)
        self.assertEqual(a["peak_nodes"], 2)
        self.assertEqual(doc["succeeded"], 8)

    def test_hami_gpumem_pods_never_trigger_a_scale_up(self):
        _, doc, _ = self.json_of(self.write("h.yaml", HAMI))
        a = doc["pools"][0]["autoscaling"]
        self.assertEqual(a["nodes_launched"], 0)
        self.assertEqual(a["peak_nodes"], 1)
        notes = {n["upstream"]: n["pods"] for n in a["no_scale_up"]}
        self.assertEqual(notes.get("Project-HAMi/HAMi#1099"), 8,
                         a["no_scale_up"])
        # They ran two at a time on the one node instead.
        self.assertEqual(doc["succeeded"], 10)


if __name__ == "__main__":
    main()
