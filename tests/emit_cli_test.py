"""End-to-end tests of `gpushare-sim emit grafana-dashboard` and
`emit prometheus-rules`: promtool accepts the rules and its rule unit tests
fire each patrol alert; the dashboard is deterministic JSON that queries only
series `run --openmetrics` exports.

Run as: python3 tests/emit_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from cli_harness import main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "three-pools.yaml")

# Synthetic series for `promtool test rules`: each patrol alert fires once.
RULES_TEST = """\
rule_files:
  - {rules}
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'gpushare_pod_gpu_time_ratio{{Hostname="n1",gpu="0",UUID="GPU-a",namespace="t",pod="hog"}}'
        values: '0.8x10'
      - series: 'gpushare_pod_gpu_time_ratio{{Hostname="n1",gpu="0",UUID="GPU-a",namespace="t",pod="victim"}}'
        values: '0.2x10'
      - series: 'gpushare_pod_slo_met{{namespace="t",pod="victim",pool="p"}}'
        values: '0x10'
      - series: 'gpushare_pod_slo_met{{namespace="t",pod="hog",pool="p"}}'
        values: '1x10'
      - series: 'gpushare_pod_gpu_time_ratio{{Hostname="n1",gpu="1",UUID="GPU-d",namespace="t",pod="calm"}}'
        values: '0.6x10'
      - series: 'gpushare_pod_gpu_time_ratio{{Hostname="n1",gpu="1",UUID="GPU-d",namespace="t",pod="fine"}}'
        values: '0.4x10'
      - series: 'gpushare_pod_slo_met{{namespace="t",pod="fine",pool="p"}}'
        values: '1x10'
      - series: 'gpushare_mig_config_drift{{Hostname="n2",gpu="1",UUID="GPU-b"}}'
        values: '0 0 1x8'
      - series: 'kube_node_status_allocatable{{node="n3",resource="nvidia_com_gpu",unit="integer"}}'
        values: '0x10'
      - series: 'gpushare_device_healthy{{Hostname="n3",gpu="0",UUID="GPU-c"}}'
        values: '1x10'
      - series: 'kube_node_status_allocatable{{node="n4",resource="nvidia_com_gpu",unit="integer"}}'
        values: '0x10'
      - series: 'gpushare_device_healthy{{Hostname="n4",gpu="0",UUID="GPU-e"}}'
        values: '0x10'
      - series: 'kube_node_status_allocatable{{node="n5",resource="nvidia_com_mig_1g_10gb",unit="integer"}}'
        values: '0x10'
      - series: 'gpushare_device_healthy{{Hostname="n5",gpu="0",GPU_I_ID="0",UUID="GPU-f"}}'
        values: '1x10'
      - series: 'gpushare_mig_config_drift{{Hostname="n5",gpu="0",UUID="GPU-f"}}'
        values: '1x10'
      - series: 'gpushare_pending_pods'
        values: '3x10'
    alert_rule_test:
      - eval_time: 8m
        alertname: GpuNoisyNeighbour
        exp_alerts:
          - exp_labels: {{severity: warning, Hostname: n1, gpu: "0", UUID: GPU-a}}
            exp_annotations:
              summary: "Noisy neighbour on n1 GPU 0"
              description: "One pod holds 80% of GPU 0 (GPU-a) on n1 while a pod sharing it misses its p99 latency SLO."
      - eval_time: 8m
        alertname: MigConfigDrift
        exp_alerts:
          - exp_labels: {{severity: warning, Hostname: n2, gpu: "1", UUID: GPU-b}}
            exp_annotations:
              summary: "MIG layout drift on n2 GPU 1"
              description: "The MIG layout of GPU 1 (GPU-b) on n2 differs from the node's nvidia.com/mig.config."
          - exp_labels: {{severity: warning, Hostname: n5, gpu: "0", UUID: GPU-f}}
            exp_annotations:
              summary: "MIG layout drift on n5 GPU 0"
              description: "The MIG layout of GPU 0 (GPU-f) on n5 differs from the node's nvidia.com/mig.config."
      - eval_time: 5m
        alertname: MigConfigDrift
        exp_alerts:
          - exp_labels: {{severity: warning, Hostname: n5, gpu: "0", UUID: GPU-f}}
            exp_annotations:
              summary: "MIG layout drift on n5 GPU 0"
              description: "The MIG layout of GPU 0 (GPU-f) on n5 differs from the node's nvidia.com/mig.config."
      - eval_time: 8m
        alertname: DevicePluginStalled
        exp_alerts:
          - exp_labels: {{severity: critical, node: n3}}
            exp_annotations:
              summary: "Device plugin stalled on n3"
              description: "Node n3 advertises no GPUs although its GPUs are healthy, and pods are pending."
"""


def promtool(*args):
    path = shutil.which("promtool")
    if path is None:
        raise AssertionError("promtool not found: run scripts/install-deps "
                             "(Debian package prometheus)")
    return subprocess.run([path, *args], capture_output=True, text=True,
                          timeout=120, check=False)


class PrometheusRulesTest(unittest.TestCase):

    def test_stdout_and_out_file_are_the_same_bytes(self):
        status, out, err = run("emit", "prometheus-rules")
        self.assertEqual(status, 0, err)
        self.assertEqual(err, "")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "rules.yml")
            status, out2, err = run("emit", "prometheus-rules", "--out", path)
            self.assertEqual(status, 0, err)
            self.assertEqual(out2, "")
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), out)

    def test_promtool_checks_and_tests_the_rules(self):
        with tempfile.TemporaryDirectory() as d:
            rules = os.path.join(d, "rules.yml")
            status, _, err = run("emit", "prometheus-rules", "--out", rules)
            self.assertEqual(status, 0, err)
            check = promtool("check", "rules", rules)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
            self.assertIn("SUCCESS: 3 rules found", check.stdout)
            test_file = os.path.join(d, "rules_test.yml")
            with open(test_file, "w", encoding="utf-8") as f:
                f.write(RULES_TEST.format(rules=rules))
            test = promtool("test", "rules", test_file)
            self.assertEqual(test.returncode, 0, test.stdout + test.stderr)

    def test_thresholds_come_from_the_scenario(self):
        with tempfile.TemporaryDirectory() as d:
            scenario = os.path.join(d, "s.yaml")
            with open(SCENARIO, encoding="utf-8") as f:
                text = f.read()
            with open(scenario, "w", encoding="utf-8") as f:
                f.write(text + "\npatrol:\n  for_s: 90\n"
                        "  noisy_neighbour_share: 0.7\n")
            status, out, err = run("emit", "prometheus-rules", "--scenario",
                                   scenario)
            self.assertEqual(status, 0, err)
            self.assertEqual(out.count("for: 90s"), 3)
            self.assertIn("(gpushare_pod_gpu_time_ratio) > 0.7", out)
            self.assertIn("gpushare_pod_gpu_time_ratio <= 0.7", out)
            rules = os.path.join(d, "rules.yml")
            with open(rules, "w", encoding="utf-8") as f:
                f.write(out)
            check = promtool("check", "rules", rules)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
            # A bad patrol section is a located input error.
            with open(scenario, "w", encoding="utf-8") as f:
                f.write(text + "\npatrol:\n  noisy_neighbour_share: 1.5\n")
            status, out, err = run("emit", "prometheus-rules", "--scenario",
                                   scenario)
            self.assertEqual(status, 2)
            self.assertEqual(out, "")
            self.assertRegex(err, r"s\.yaml:\d+:\d+: .*noisy_neighbour_share")


class MigPartedTest(unittest.TestCase):
    """`emit mig-parted --scenario FILE`: the MIG manager's ConfigMap (its
    fields and round trip are unit-tested in emit/mig_parted_config_test)."""

    def test_default_scenario_configmap(self):
        default = os.path.join(ROOT, "examples", "default.yaml")
        status, out, err = run("emit", "mig-parted", "--scenario", default)
        self.assertEqual(status, 0, err)
        self.assertEqual(run("emit", "mig-parted", "--scenario", default)[1],
                         out)
        self.assertIn("kind: ConfigMap\n", out)
        self.assertIn("  name: custom-mig-config\n", out)
        self.assertIn("  config.yaml: |\n    version: v1\n    mig-configs:\n",
                      out)
        self.assertIn('            "3g.40gb": 1\n', out)
        # The prod nodes get the pool's config, found by the pool's label
        # (not by the simulator's node names); no other pool is MIG.
        labels = re.findall(r"kubectl label nodes -l (\S+) "
                            r"nvidia.com/mig.config=(\S+) --overwrite", out)
        self.assertEqual(labels, [("gpushare.io/node-pool=prod",
                                   "all-balanced")])
        self.assertNotIn("prod-0", out)
        self.assertIn("--set migManager.config.name=custom-mig-config", out)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "mig.yaml")
            status, _, err = run("emit", "mig-parted", "--scenario", default,
                                 "--out", path)
            self.assertEqual(status, 0, err)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), out)

    def test_bad_input_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            no_mig = os.path.join(tmp, "no-mig.yaml")
            with open(no_mig, "w", encoding="utf-8") as f:
                f.write("cluster:\n  pools:\n    - {name: p, gpu: L4, nodes: 1}\n"
                        "workload:\n  classes:\n"
                        "    - {name: a, class: batch, count: 1}\n")
            bad = os.path.join(tmp, "bad.yaml")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("cluster:\n  pools:\n    - {name: p, gpu: Z9}\n")
            out_file = os.path.join(tmp, "out.yaml")
            for scenario, message in [
                    (no_mig, "has no MIG pool"),
                    (bad, "bad.yaml:3:")]:
                status, out, err = run("emit", "mig-parted", "--scenario",
                                       scenario, "--out", out_file)
                self.assertEqual(status, 2, err)
                self.assertEqual(out, "")
                self.assertIn(message, err)
                self.assertFalse(os.path.exists(out_file))
            status, _, err = run("emit", "mig-parted")
            self.assertEqual(status, 2)
            self.assertIn("--scenario is required", err)


class DevicePluginTest(unittest.TestCase):
    """`emit device-plugin --scenario FILE` (fields and the round trip
    through the upstream load rules: emit/device_plugin_config_test)."""

    def test_default_scenario_configmap(self):
        default = os.path.join(ROOT, "examples", "default.yaml")
        status, out, err = run("emit", "device-plugin", "--scenario", default)
        self.assertEqual(status, 0, err)
        self.assertIn("kind: ConfigMap\n", out)
        self.assertIn("\ndata:\n  default: |\n", out)
        self.assertIn("  dev: |\n    version: v1\n", out)
        self.assertIn("      timeSlicing:\n", out)
        self.assertIn("rollout restart -n gpu-operator", out)
        # prod (MIG) and dev (time-slicing) nodes are labelled; the HAMi
        # pool runs HAMi's own device plugin.
        labels = re.findall(r"kubectl label nodes -l (\S+) "
                            r"nvidia.com/device-plugin.config=(\S+) ", out)
        self.assertEqual(labels, [("gpushare.io/node-pool=prod", "prod"),
                                  ("gpushare.io/node-pool=dev", "dev")])

    def test_bad_input_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            hami = os.path.join(tmp, "hami.yaml")
            with open(hami, "w", encoding="utf-8") as f:
                f.write("cluster:\n  pools:\n    - {name: p, gpu: A100-80GB, "
                        "nodes: 1, sharing: {scheme: hami}}\n"
                        "workload:\n  classes:\n"
                        "    - {name: a, class: batch, count: 1}\n")
            out_file = os.path.join(tmp, "out.yaml")
            status, out, err = run("emit", "device-plugin", "--scenario",
                                   hami, "--out", out_file)
            self.assertEqual(status, 2, err)
            self.assertIn("no pool served by NVIDIA's device plugin", err)
            self.assertFalse(os.path.exists(out_file))


class HamiValuesTest(unittest.TestCase):
    """`emit hami --scenario FILE` (fields: emit/hami_values_test)."""

    def test_default_scenario_values(self):
        default = os.path.join(ROOT, "examples", "default.yaml")
        status, out, err = run("emit", "hami", "--scenario", default)
        self.assertEqual(status, 0, err)
        self.assertIn("devicePlugin:\n  deviceSplitCount: 10\n", out)
        self.assertIn("    nodeSchedulerPolicy: binpack\n", out)
        labels = re.findall(r"kubectl label nodes -l (\S+) gpu=on", out)
        self.assertEqual(labels, ["gpushare.io/node-pool=platform"])
        self.assertIn("nvidia.com/gpu.deploy.device-plugin=false", out)

    def test_no_hami_pool_exits_2(self):
        scenario = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")
        status, out, err = run("emit", "hami", "--scenario", scenario)
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("has no HAMi pool", err)


class PodPatchesTest(unittest.TestCase):
    """`emit pod-patches --scenario FILE` (fields: emit/pod_template_patches
    _test)."""

    def test_default_scenario_patches(self):
        default = os.path.join(ROOT, "examples", "default.yaml")
        status, out, err = run("emit", "pod-patches", "--scenario", default)
        self.assertEqual(status, 0, err)
        self.assertEqual(run("emit", "pod-patches", "--scenario",
                             default)[1], out)
        # One request per class (issue 37): prod-inference's footprints
        # (6, 16 and 30 GB) ask its p95, 30 GB, the smallest profile holding
        # it, 3g.40gb, in one patch for all of its pods.
        prod = re.findall(r"# class prod-inference \(inference\) on pool prod "
                          r"\(MIG\): (\d+) of its 432 pods", out)
        self.assertEqual(prod, ["432"])
        self.assertIn("nvidia.com/mig-3g.40gb: 1\n", out)
        for profile in ["1g.10gb", "2g.20gb"]:
            self.assertNotIn(f"nvidia.com/mig-{profile}: 1\n", out)
        self.assertNotIn("more distinct requests", out)
        self.assertIn("schedulerName: hami-scheduler\n", out)
        self.assertIn("on pool dev (time-slicing)", out)

    def test_bad_scenario_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.yaml")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("cluster: [\n")
            status, out, err = run("emit", "pod-patches", "--scenario", bad)
            self.assertEqual(status, 2)
            self.assertEqual(out, "")
            self.assertIn("bad.yaml:", err)


class K8sBundleTest(unittest.TestCase):
    """`emit k8s --scenario FILE --out DIR`: every file, all or none."""

    def test_default_scenario_writes_every_file(self):
        default = os.path.join(ROOT, "examples", "default.yaml")
        with tempfile.TemporaryDirectory() as tmp:
            out_dir = os.path.join(tmp, "k8s")
            status, out, err = run("emit", "k8s", "--scenario", default,
                                   "--out", out_dir)
            self.assertEqual(status, 0, err)
            names = ["README.md", "device-plugin-config.yaml",
                     "mig-parted-config.yaml", "gpu-operator-values.yaml",
                     "hami-values.yaml", "node-setup.sh", "pod-patches.yaml",
                     "apply.sh", "rollback.sh"]
            self.assertEqual(sorted(os.listdir(out_dir)),
                             sorted(names + [".gpushare-sim-files"]))
            self.assertEqual(out.split(),
                             [os.path.join(out_dir, n) for n in names])
            # Each file is what its own emitter writes.
            for name, what in [("mig-parted-config.yaml", "mig-parted"),
                               ("device-plugin-config.yaml", "device-plugin"),
                               ("hami-values.yaml", "hami"),
                               ("pod-patches.yaml", "pod-patches")]:
                with open(os.path.join(out_dir, name), encoding="utf-8") as f:
                    self.assertEqual(
                        f.read(),
                        run("emit", what, "--scenario", default)[1], name)
            with open(os.path.join(out_dir, "README.md"),
                      encoding="utf-8") as f:
                readme = f.read()
            for name in names[1:]:
                self.assertIn(f"`{name}`", readme)
            self.assertIn("rollout restart -n gpu-operator", readme)
            check = subprocess.run(["sh", "-n",
                                    os.path.join(out_dir, "node-setup.sh")],
                                   capture_output=True, check=False)
            self.assertEqual(check.returncode, 0, check.stderr)

    def test_bad_input_writes_no_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.yaml")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("cluster:\n  pools:\n    - {name: p, gpu: Z9}\n")
            out_dir = os.path.join(tmp, "k8s")
            status, out, err = run("emit", "k8s", "--scenario", bad,
                                   "--out", out_dir)
            self.assertEqual(status, 2)
            self.assertEqual(out, "")
            self.assertIn("bad.yaml:3:", err)
            self.assertFalse(os.path.exists(out_dir))
            status, _, err = run("emit", "k8s", "--scenario", bad)
            self.assertEqual(status, 2)
            self.assertIn("--out is required", err)


class GrafanaDashboardTest(unittest.TestCase):

    def test_deterministic_json_with_the_prometheus_input(self):
        status, out, err = run("emit", "grafana-dashboard")
        self.assertEqual(status, 0, err)
        self.assertEqual(run("emit", "grafana-dashboard")[1], out)
        d = json.loads(out)
        self.assertEqual(d["uid"], "gpushare-sim")
        self.assertEqual(d["__inputs"][0]["name"], "DS_PROMETHEUS")
        self.assertIn("schemaVersion", d)

    def test_queries_only_exported_series(self):
        with tempfile.TemporaryDirectory() as d:
            om = os.path.join(d, "m.om")
            status, _, err = run("run", SCENARIO, "--openmetrics", om,
                                 "--quiet")
            self.assertEqual(status, 0, err)
            with open(om, encoding="utf-8") as f:
                text = f.read()
        exported = set()
        for name, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text,
                                     flags=re.M):
            exported.add(name + "_total" if kind == "counter" else name)
        dashboard = run("emit", "grafana-dashboard")[1]
        exprs = re.findall(r'"(?:expr|definition)": "((?:[^"\\]|\\.)*)"',
                           dashboard)
        self.assertGreater(len(exprs), 10)
        used = set()
        for expr in exprs:
            used |= set(re.findall(
                r"\b(DCGM_FI_\w+|gpushare_\w+|kube_\w+)", expr))
        self.assertTrue(used)
        self.assertEqual(used - exported, set())

    def test_unwritable_out_is_an_error(self):
        status, out, err = run("emit", "grafana-dashboard", "--out",
                               "/nonexistent-dir/d.json")
        self.assertEqual(status, 2)
        self.assertTrue(err.startswith("error: "), err)
        self.assertEqual(out, "")

    def test_unknown_or_missing_what_is_an_error(self):
        for args in (["emit"], ["emit", "kibana"]):
            status, out, err = run(*args)
            self.assertEqual(status, 2, args)
            self.assertTrue(err.startswith("error: "), err)


if __name__ == "__main__":
    main()
