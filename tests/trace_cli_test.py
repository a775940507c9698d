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


EXAMPLES_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


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
        # compare's full text (--details): the tests read its tables.
        details = ("--details",) if command == "compare" else ()
        code, out, err = run(command, scenario, "--quiet", *details, "--json",
                             out_path)
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


# Imported pods' classes (docs/scenario.md "kubectl pods"): a kube-system
# and a gpu-operator pod, a Job's pod, a Deployment's pod, a labelled bare
# pod and a Job's pod in a namespace given a class.
CLASSES_SCENARIO = """\
name: import-classes
seed: 3
horizon_s: 7200
cluster:
  pools:
    - {name: gpu, gpu: A100-80GB, nodes: 2, gpus_per_node: 4}
    - {name: cpu, nodes: 1, gpus_per_node: 0}
workload:
  trace:
    format: kubectl
    file: pods-classes.json
    workload_class_label: gpushare.io/workload-class
    workload_classes: {analytics: batch}
    defaults: {work_s: 1800, lifetime_s: 3600}
compare: {seeds: 1}
"""


class ImportedClassesTest(TraceTestCase):

    def setUp(self):
        super().setUp()
        shutil.copy(os.path.join(DATA_DIR, "kubectl", "pods-classes.json"),
                    self.tmp.name)

    def test_classes_by_label_namespace_and_controller(self):
        _, _, doc = self.run_json("run", self.write("s.yaml", CLASSES_SCENARIO))
        records = {p["name"]: p for p in doc["pod_records"]}
        classes = {name: (p["tenant_class"], p["class"])
                   for name, p in records.items()}
        self.assertEqual(classes, {
            # System namespaces: one tenant class; a ReplicaSet's and a
            # DaemonSet's pods are long-running.
            "kube-system/coredns-5d78c9869d-x2x4k": ("system", "inference"),
            "gpu-operator/nvidia-dcgm-exporter-7kq2m": ("system", "inference"),
            # A Job's pod holding a whole GPU trains.
            "ml/finetune-llama-0-k8w2p": ("ml", "training"),
            # A Deployment's (its ReplicaSet's) pod serves.
            "ml/embed-server-6b8f7c9d4-qr5tz": ("ml", "inference"),
            # The label comes first.
            "ml/scratch-alice": ("ml", "dev"),
            # Then the namespace's class, before the controller's.
            "analytics/report-28811520-5xq7v": ("analytics", "batch"),
        })
        self.assertEqual(records["kube-system/coredns-5d78c9869d-x2x4k"]
                         ["tenant"], "kube-system")
        # work_s makes the Job's pod a job; the Deployment's stays a service.
        job = records["ml/finetune-llama-0-k8w2p"]
        self.assertEqual((job["work_s"], job["outcome"]), (1800, "Succeeded"))
        service = records["ml/embed-server-6b8f7c9d4-qr5tz"]
        self.assertEqual((service["work_s"], service["outcome"]), (0, "Deleted"))

    def test_namespace_patterns(self):
        # 'anal*' covers analytics; '*-system' (quoted: YAML reads a bare
        # leading '*' as an alias) and 'gpu-*' cover the system pods.
        text = CLASSES_SCENARIO.replace(
            "{analytics: batch}", "{anal*: batch, '*': training}").replace(
            "    defaults:", "    system_namespaces: ['*-system', gpu-*]\n"
            "    defaults:")
        _, _, doc = self.run_json("run", self.write("p.yaml", text))
        classes = {p["name"]: (p["tenant_class"], p["class"])
                   for p in doc["pod_records"]}
        self.assertEqual(classes["analytics/report-28811520-5xq7v"],
                         ("analytics", "batch"))  # the more literal pattern
        self.assertEqual(classes["kube-system/coredns-5d78c9869d-x2x4k"][0],
                         "system")
        self.assertEqual(classes["gpu-operator/nvidia-dcgm-exporter-7kq2m"][0],
                         "system")
        # '*' covers ml: its pods without the label are training, even the
        # Deployment's (the namespace's class comes before the controller).
        self.assertEqual(classes["ml/embed-server-6b8f7c9d4-qr5tz"],
                         ("ml", "training"))
        self.assertEqual(classes["ml/scratch-alice"], ("ml", "dev"))
        bad = self.write("b.yaml", text.replace("anal*", "Anal*"))
        code, out, err = run("run", bad, "--quiet")
        self.assertEqual(code, 2, out + err)
        self.assertIn("workload trace workload_classes key: 'Anal*' is not a "
                      "namespace name or pattern", err)

    def test_compare_offers_the_system_class_no_scheme(self):
        out, _, doc = self.run_json("compare",
                                    self.write("s.yaml", CLASSES_SCENARIO))
        choices = {c["tenant_class"]: c for c in doc["selection"]}
        self.assertEqual(sorted(choices), ["analytics", "ml", "system"])
        system = choices["system"]
        self.assertEqual(system["ranking"], [])
        self.assertIsNone(system["winner"])
        self.assertIsNone(system["plan"])
        self.assertEqual(system["no_scheme"],
                         "its pods run in system namespaces")
        self.assertEqual(system["recommendation"], "no GPU (no scheme)")
        self.assertEqual(system["explanation"], "system: no scheme is ranked: "
                         "its pods run in system namespaces.")
        for name in ("ml", "analytics"):
            self.assertIsNone(choices[name]["no_scheme"])
            self.assertGreater(len(choices[name]["ranking"]), 1, name)
            self.assertIsNotNone(choices[name]["winner"], name)
        # The system pods still run under every scheme.
        for variant in doc["variants"]:
            self.assertEqual(variant["classes"]["system"]["pods"], 2)
        recommended = " ".join(out[out.index("Recommended:"):].split())
        self.assertIn("system -> no GPU (no scheme)", recommended)
        self.assertIn("system: no GPU scheme", out)

    def test_bad_class_settings_fail_at_their_line(self):
        bad = self.write("s.yaml", CLASSES_SCENARIO.replace(
            "{analytics: batch}", "{analytics: trainig}"))
        code, out, err = run("run", bad, "--quiet")
        self.assertEqual(code, 2, out + err)
        self.assertEqual(out, "")
        self.assertIn(
            "s.yaml:13:35: workload trace workload_classes.analytics: unknown "
            "workload class 'trainig'; did you mean training?", err)
        label = self.write("l.yaml", CLASSES_SCENARIO.replace(
            "workload_class_label: gpushare.io/workload-class",
            "workload_class_label: -class"))
        code, _, err = run("run", label, "--quiet")
        self.assertEqual(code, 2, err)
        self.assertIn("l.yaml:12:27: workload trace workload_class_label: "
                      "expected a label key, got '-class'", err)
        system = self.write("n.yaml", CLASSES_SCENARIO.replace(
            "    defaults:", "    system_namespaces: [kube-system, Ops]\n"
            "    defaults:"))
        code, _, err = run("run", system, "--quiet")
        self.assertEqual(code, 2, err)
        self.assertIn("n.yaml:14:38: workload trace system_namespaces: 'Ops' "
                      "is not a namespace name", err)

    def test_bad_workload_class_label_value_fails_at_its_json_path(self):
        path = self.path("pods-classes.json")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace('"gpushare.io/workload-class": "dev"',
                                 '"gpushare.io/workload-class": "notebook"'))
        line = next(i + 1 for i, l in enumerate(text.splitlines())
                    if '"gpushare.io/workload-class"' in l)
        out_path = self.path("never.json")
        code, out, err = run("compare", self.write("s.yaml", CLASSES_SCENARIO),
                             "--json", out_path)
        self.assertEqual(code, 2, out + err)
        self.assertEqual(out, "")
        self.assertFalse(os.path.exists(out_path))
        self.assertIn(
            f"pods-classes.json:{line}:51: items[4].metadata.labels"
            '["gpushare.io/workload-class"]: expected a workload class '
            "(training, inference, batch or dev), got 'notebook'", err)


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
        scenario = self.write("c.yaml", OPENB_SCENARIO.replace(
            "file: openb_pods.csv}",
            "file: openb_pods.csv, workload_classes: {openb: batch}}"))
        self.assert_fails("run", scenario,
                          "workload_classes: applies to kubectl traces only")

    def test_metrics_errors(self):
        scenario = self.write("s.yaml", OPENB_SCENARIO.replace(
            "file: openb_pods.csv}", "file: openb_pods.csv, metrics: [m.json]}"))
        self.assert_fails("run", scenario,
                          "metrics: applies to kubectl traces only")
        shutil.copy(os.path.join(EXAMPLES_DIR, "kubectl", "pods.json"),
                    self.path("pods.json"))
        kubectl = """\
horizon_s: 600
cluster:
  pools: [{name: a, gpu: A100-40GB, nodes: 1, gpus_per_node: 1}]
workload:
  trace: {format: kubectl, file: pods.json, %s}
"""
        scenario = self.write("t.yaml", kubectl % "metrics_busy_threshold: 0.1")
        self.assert_fails("run", scenario,
                          "metrics_busy_threshold: applies with metrics only")
        scenario = self.write("u.yaml", kubectl % "metrics: [none.json]")
        self.assert_fails("run", scenario, "metrics: no such file")
        self.write("m.json", '[{"metric": {"__name__": "DCGM_FI_DEV_FB_USED",'
                   ' "gpu": "0", "Hostname": "n", "modelName": "NVIDIA Z9",'
                   ' "namespace": "ml", "pod": "train-b"},\n'
                   ' "value": [1, "5"]}]\n')
        scenario = self.write("v.yaml", kubectl % "metrics: [m.json]")
        self.assert_fails("run", scenario,
                          "m.json:1:2: modelName 'NVIDIA Z9': no such GPU "
                          "model in the catalog")


if __name__ == "__main__":
    main()
