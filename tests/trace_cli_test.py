"""End-to-end tests of trace replay and kubectl import through `run` and
`compare` (docs/scenario.md "cluster.import", "workload.trace").

Run as: python3 tests/trace_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import shutil
import tempfile
import unittest

from cli_harness import DATA_DIR, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KUBECTL_EXAMPLE = os.path.join(ROOT, "examples", "kubectl-import.yaml")

# An openb slice replayed on its own nodes; paths relative to the scenario.
OPENB_SCENARIO = """\
name: openb-slice
seed: 5
sample_interval_s: 600
cluster:
  import: {format: openb, file: openb_nodes.csv, sharing: {scheme: hami}}
workload:
  trace: {format: openb, file: openb_pods.csv}
"""


class TraceTestCase(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        for name in ("openb_nodes.csv", "openb_pods.csv", "jobs.csv"):
            shutil.copy(os.path.join(DATA_DIR, "replay", name), self.tmp.name)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return self.path(name)

    def run_json(self, command, scenario, name="out.json"):
        out_path = self.path(name)
        code, out, err = run(command, scenario, "--quiet", "--json", out_path)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        with open(out_path, "rb") as f:
            raw = f.read()
        return out, raw, json.loads(raw.decode("utf-8"))


class RunReplayTest(TraceTestCase):

    def test_openb_replay_runs_and_is_reproducible(self):
        scenario = self.write("s.yaml", OPENB_SCENARIO)
        out, first, doc = self.run_json("run", scenario, "a.json")
        _, second, _ = self.run_json("run", scenario, "b.json")
        self.assertEqual(first, second)
        self.assertEqual(doc["pods"], 12)
        records = {p["name"]: p for p in doc["pod_records"]}
        self.assertEqual(records["openb-pod-0003"]["arrival_s"], 180)
        self.assertEqual(records["openb-pod-0003"]["tenant_class"], "gpu-share")
        self.assertIn("nvidia.com/gpumem", records["openb-pod-0003"]["requests"])
        self.assertEqual(records["openb-pod-0000"]["end_s"], 3600)
        self.assertEqual(sorted(p["name"] for p in doc["pools"]),
                         ["a100-40gb-x2-hami", "cpu", "t4-x1-hami"])
        self.assertIn("scenario openb-slice", out)

    def test_kubectl_import_runs_pods_on_their_nodes(self):
        _, _, doc = self.run_json("run", KUBECTL_EXAMPLE)
        records = {p["name"]: p for p in doc["pod_records"]}
        self.assertEqual(records["ml/infer-a-5d9c7"]["node"], "gpu-a100-0")
        self.assertEqual(records["ml/infer-a-5d9c7"]["start_s"], 0)
        self.assertEqual(records["ml/infer-a-5d9c7"]["tenant_class"],
                         "prod-inference")
        self.assertEqual(records["ml/pending-d"]["node"], "gpu-a100-0")
        self.assertEqual(records["research/pending-e"]["node"], "gpu-l4-1")
        notebooks = [p for p in doc["pod_records"]
                     if p["tenant_class"] == "new-notebooks"]
        self.assertEqual(len(notebooks), 120)
        self.assertTrue(all(p["pool"] in ("", "l4-x4-time-slicing")
                            for p in notebooks))

    def test_job_list_replays(self):
        scenario = self.write("jobs.yaml", """\
name: jobs
cluster:
  pools:
    - {name: gpu, gpu: L40S, nodes: 1, gpus_per_node: 2,
       labels: {team: research}, sharing: {scheme: time-slicing, replicas: 4}}
    - {name: cpu, nodes: 1, gpus_per_node: 0}
workload:
  trace: {format: jobs, file: jobs.csv}
""")
        _, _, doc = self.run_json("run", scenario)
        records = {p["name"]: p for p in doc["pod_records"]}
        self.assertEqual(records["serve-1"]["arrival_s"], 10.5)
        self.assertEqual(records["serve-1"]["outcome"], "Deleted")
        self.assertEqual(records["train-1"]["outcome"], "Succeeded")
        self.assertEqual(records["etl-1"]["pool"], "cpu")


class CompareReplayTest(TraceTestCase):

    def test_compare_openb_replay_across_schemes(self):
        scenario = self.write("s.yaml", OPENB_SCENARIO)
        out, first, doc = self.run_json("compare", scenario, "a.json")
        _, second, _ = self.run_json("compare", scenario, "b.json")
        self.assertEqual(first, second)
        names = [v["name"] for v in doc["variants"]]
        for scheme in ("exclusive", "time-slicing", "mig", "hami"):
            self.assertIn(scheme, names)
        for variant in doc["variants"]:
            self.assertEqual(
                sorted(variant["classes"]),
                ["cpu-only", "gpu-1", "gpu-multi", "gpu-share"])
        self.assertIn("Tenant class gpu-share", out)

    def test_compare_kubectl_import_translates_written_requests(self):
        out, _, doc = self.run_json("compare", KUBECTL_EXAMPLE)
        notes = [n for v in doc["variants"] for n in v.get("notes", [])]
        self.assertTrue(any("trace pods: requests written" in n
                            for n in notes), notes)
        for variant in doc["variants"]:
            self.assertIn("prod-inference", variant["classes"])
            self.assertIn("new-notebooks", variant["classes"])

    def test_selection_names_a_trace_tenant_class(self):
        scenario = self.write(
            "s.yaml",
            OPENB_SCENARIO + "selection: {classes: {gpu-share: research-dev}}\n")
        self.run_json("compare", scenario)
        bad = self.write(
            "bad.yaml",
            OPENB_SCENARIO + "selection: {classes: {gpu-shared: research-dev}}\n")
        code, _, err = run("compare", bad, "--quiet")
        self.assertEqual(code, 2)
        self.assertIn("unknown tenant class 'gpu-shared'", err)


class TraceErrorTest(TraceTestCase):

    def assert_fails(self, command, scenario, expected):
        out_path = self.path("never.json")
        code, out, err = run(command, scenario, "--json", out_path)
        self.assertEqual(code, 2, out + err)
        self.assertEqual(out, "")
        self.assertIn(expected, err)
        self.assertTrue(err.startswith("error: "), err)
        self.assertFalse(os.path.exists(out_path))

    def test_malformed_openb_row(self):
        with open(self.path("openb_pods.csv"), "a", encoding="utf-8") as f:
            f.write("openb-pod-0012,1000,1024,2,500,,LS,Running,700,800,700\n")
        scenario = self.write("s.yaml", OPENB_SCENARIO)
        for command in ("run", "compare"):
            self.assert_fails(command, scenario,
                              "openb_pods.csv:14:28: column 'gpu_milli'")

    def test_malformed_kubectl_json(self):
        self.write("nodes.json", '{"kind": "List", "items": [{"kind": "Node",\n'
                   ' "metadata": {"name": "n"},\n'
                   ' "status": {"allocatable": {"cpu": "8x", "memory": "1Gi"}}}]}\n')
        scenario = self.write("k.yaml", """\
cluster:
  import: {format: kubectl, file: nodes.json}
workload:
  classes: [{name: a, class: batch, count: 1}]
""")
        self.assert_fails(
            "run", scenario,
            "nodes.json:3:36: items[0].status.allocatable.cpu: '8x' is not a "
            "Kubernetes quantity")

    def test_missing_trace_file(self):
        scenario = self.write("s.yaml", OPENB_SCENARIO.replace(
            "openb_pods.csv", "nowhere.csv"))
        self.assert_fails("run", scenario, "nowhere.csv")

    def test_setting_of_another_format(self):
        scenario = self.write("s.yaml", OPENB_SCENARIO.replace(
            "file: openb_pods.csv}", "file: openb_pods.csv, gpu_pods_only: true}"))
        self.assert_fails("run", scenario,
                          "gpu_pods_only: applies to kubectl traces only")


if __name__ == "__main__":
    main()
