"""End-to-end tests of `gpushare-sim run SCENARIO`.

Run as: python3 tests/run_cli_test.py --binary /path/to/gpushare-sim
"""

import collections
import csv
import glob
import json
import os
import re

from cli_harness import TempDirTestCase, main, run, run_raw, table_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The example scenarios (examples/sweep-*.yaml are sweep grids).
EXAMPLES = sorted(p for p in glob.glob(os.path.join(ROOT, "examples", "*.yaml"))
                  if not os.path.basename(p).startswith("sweep-"))
OUTPUT_DOC = os.path.join(ROOT, "docs", "output.md")
TIME_SLICING_EXAMPLE = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")

CSV_FILES = ["pods.csv", "pools.csv", "devices.csv", "device_samples.csv",
             "pod_shares.csv", "alerts.csv", "queues.csv"]

# Outcomes counted by the JSON's summary counters (docs/output.md).
SUCCEEDED = {"Succeeded", "Deleted"}
FAILED = {"Failed", "AdmissionFailed"}

# A small valid scenario, one line per entry so that tests can break a known
# line (1-based numbers in the comments).
BASE_SCENARIO = [
    "name: small",           # 1
    "seed: 3",               # 2
    "cluster:",              # 3
    "  pools:",              # 4
    "    - name: p",         # 5
    "      gpu: L4",         # 6
    "      nodes: 1",        # 7
    "      gpus_per_node: 1",  # 8
    "workload:",             # 9
    "  classes:",            # 10
    "    - name: a",         # 11
    "      class: batch",    # 12
    "      count: 2",        # 13
    "      work_s: 60",      # 14
]

# One L4 (23034 MiB) time-sliced into 2 replicas; two pods of 15000 MiB each
# cannot both fit: time-slicing does not isolate memory, so they OOM.
OOM_SCENARIO = """\
name: oom
seed: 1
cluster:
  pools:
    - name: l4
      gpu: L4
      nodes: 1
      gpus_per_node: 1
      sharing:
        scheme: time-slicing
        replicas: 2
workload:
  classes:
    - name: big
      class: training
      count: 2
      gpus: 1
      gpu_memory_mib: 15000
      work_s: 600
"""

# Eight identical empty nodes: every pod's best score is a tie, so where it
# lands is the scheduler's seeded random tie-break.
TIE_BREAK_SCENARIO = """\
name: ties
seed: 1
cluster:
  pools:
    - name: p
      gpu: L4
      nodes: 8
      gpus_per_node: 1
workload:
  classes:
    - name: a
      class: batch
      count: 6
      work_s: 600
"""


def scenario_header(path):
    """The `name:` and `seed:` of an example scenario's top level."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = re.search(r"^name:\s*(\S+)", text, re.MULTILINE).group(1)
    seed = int(re.search(r"^seed:\s*(\d+)", text, re.MULTILINE).group(1))
    return name, seed




def documented_csv_headers():
    """The CSV header lines documented in docs/output.md, by file name."""
    with open(OUTPUT_DOC, encoding="utf-8") as f:
        lines = f.read().splitlines()

    def row(first_cell):
        return next(line for line in lines
                    if line.startswith("| " + first_cell + " "))

    headers = {}
    # pods.csv has the columns of pod_records[].
    pod_fields = re.findall(r"`([^`]+)`", row("`pod_records[]`"))[1:]
    headers["pods.csv"] = ",".join(pod_fields)
    for name in CSV_FILES[1:]:
        headers[name] = re.findall(r"`([^`]+)`", row("`%s`" % name))[1]
    return headers


def outcome_counts(doc):
    return collections.Counter(p["outcome"] for p in doc["pod_records"])


class RunTestCase(TempDirTestCase):

    def run_ok(self, *args):
        code, out, err = run("run", *args)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        return out

    def run_json(self, scenario, *args, name="out.json"):
        """Runs with --json; returns (summary, raw JSON bytes, parsed)."""
        json_path = self.path(name)
        out = self.run_ok(scenario, "--quiet", "--json", json_path, *args)
        with open(json_path, "rb") as f:
            raw = f.read()
        return out, raw, json.loads(raw.decode("utf-8"))


class ExamplesTest(RunTestCase):

    def test_every_example_runs(self):
        self.assertEqual(len(EXAMPLES), 20, EXAMPLES)
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                name, seed = scenario_header(example)
                out = self.run_ok(example)
                self.assertTrue(
                    out.startswith("scenario %s (seed %d)" % (name, seed)),
                    out)
                # Without --quiet the wall time is shown.
                self.assertRegex(out.splitlines()[0], r"\(\d+\.\d\ds wall\)$")
                pools = table_rows(out, "POOL ")
                self.assertTrue(pools, out)
                classes = table_rows(out, "CLASS ")
                self.assertTrue(classes, out)

    def test_summary_agrees_with_json(self):
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                out, _, doc = self.run_json(example)
                self.assertNotIn("wall", out)
                first = out.splitlines()[0]
                self.assertTrue(first.startswith(
                    "scenario %s (seed %d): %d pods over " %
                    (doc["scenario"], doc["seed"], doc["pods"])), first)
                self.assertEqual([row[0] for row in table_rows(out, "POOL ")],
                                 [p["name"] for p in doc["pools"]])
                classes = table_rows(out, "CLASS ")
                self.assertEqual(sum(int(row[1]) for row in classes),
                                 doc["pods"])
                self.assertEqual(
                    sorted(row[0] for row in classes),
                    sorted({p["class"] for p in doc["pod_records"]}))


class DeterminismTest(RunTestCase):

    def test_quiet_output_is_reproducible(self):
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                first = run_raw("run", "--quiet", example)
                second = run_raw("run", "--quiet", example)
                self.assertEqual(first.returncode, 0, first.stderr)
                self.assertEqual(second.returncode, 0, second.stderr)
                self.assertTrue(first.stdout)
                self.assertEqual(first.stdout, second.stdout)

    def test_json_is_reproducible(self):
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                _, first, _ = self.run_json(example, name="a.json")
                _, second, _ = self.run_json(example, name="b.json")
                self.assertEqual(first, second)


class JsonTest(RunTestCase):

    def test_json_contents(self):
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                name, seed = scenario_header(example)
                _, _, doc = self.run_json(example)
                self.assertEqual(doc["schema"], "gpushare-sim/run/v1")
                self.assertEqual(doc["scenario"], name)
                self.assertEqual(doc["seed"], seed)
                pods = doc["pods"]
                self.assertGreater(pods, 0)
                self.assertEqual(len(doc["pod_records"]), pods)
                counts = outcome_counts(doc)
                self.assertLessEqual(
                    set(counts), SUCCEEDED | FAILED |
                    {"Unschedulable", "Pending", "Running"})
                succeeded = sum(counts[o] for o in SUCCEEDED)
                failed = sum(counts[o] for o in FAILED)
                self.assertEqual(
                    succeeded + failed + counts["Unschedulable"] +
                    counts["Pending"] + counts["Running"], pods)
                self.assertEqual(doc["succeeded"], succeeded)
                self.assertEqual(doc["failed"], failed)
                self.assertEqual(doc["unschedulable"], counts["Unschedulable"])
                self.assertEqual(doc["oom_kills"],
                                 sum(p["oom_kills"]
                                     for p in doc["pod_records"]))
                self.assertEqual(doc["fault_kills"],
                                 sum(p["fault_kills"]
                                     for p in doc["pod_records"]))
                self.assertTrue(doc["pools"])
                for pool in doc["pools"]:
                    self.assertTrue(pool["samples"], pool["name"])
                    self.assertEqual(
                        set(pool["samples"][0]),
                        {"time_s", "gpu_util", "sm_active",
                         "fb_used_fraction", "allocation", "pending",
                         "idle_gpus"})
                self.assertGreater(sum(p["gpus"] for p in doc["pools"]), 0)
                self.assertEqual(list(doc), sorted(doc))

    def test_seed_override(self):
        _, default_raw, default = self.run_json(TIME_SLICING_EXAMPLE,
                                                name="a.json")
        _, seeded_raw, seeded = self.run_json(TIME_SLICING_EXAMPLE, "--seed",
                                              "5", name="b.json")
        self.assertEqual(default["seed"], 7)
        self.assertEqual(seeded["seed"], 5)
        self.assertNotEqual(default_raw, seeded_raw)
        self.assertNotEqual(default["pod_records"], seeded["pod_records"])
        out = self.run_ok(TIME_SLICING_EXAMPLE, "--quiet", "--seed", "5")
        self.assertTrue(out.startswith("scenario dev-time-slicing (seed 5)"),
                        out)
        # The same override gives the same result.
        _, again, _ = self.run_json(TIME_SLICING_EXAMPLE, "--seed", "5",
                                    name="c.json")
        self.assertEqual(seeded_raw, again)

    def test_seed_override_also_seeds_the_scheduler(self):
        # `--seed N` gives exactly what `seed: N` in the file gives, the
        # scheduler's random tie-break included (docs/scenario.md).
        os.mkdir(self.path("file"))
        os.mkdir(self.path("flag"))
        in_file = self.write(os.path.join("file", "ties.yaml"),
                             TIE_BREAK_SCENARIO.replace("seed: 1", "seed: 8"))
        by_flag = self.write(os.path.join("flag", "ties.yaml"),
                             TIE_BREAK_SCENARIO)
        _, file_raw, _ = self.run_json(in_file, name="file.json")
        _, flag_raw, _ = self.run_json(by_flag, "--seed", "8",
                                       name="flag.json")
        self.assertEqual(file_raw, flag_raw)


class CsvTest(RunTestCase):

    def test_csv_files(self):
        expected = documented_csv_headers()
        # As documented; guards against a change of docs/output.md's layout.
        self.assertEqual(
            expected["pods.csv"],
            "name,class,tenant_class,tenant,pod_group,cluster_queue,"
            "target_pool,pool,node,devices,"
            "requests,"
            "arrival_s,start_s,end_s,wait_s,admission_wait_s,work_s,run_s,alone_s,slowdown,"
            "gpu_share,gpu_hours,cost,wasted_gpu_hours,restarts,oom_kills,"
            "fault_kills,preemptions,lost_work_s,eviction_down_s,"
            "latency_samples,saturated_samples,p50_ms,p99_ms,"
            "slo_p99_ms,slo_attainment,neighbour_missed_samples,outcome,message")
        self.assertEqual(
            expected["device_samples.csv"],
            "time_s,device,DCGM_FI_DEV_GPU_UTIL,DCGM_FI_PROF_SM_ACTIVE,"
            "DCGM_FI_DEV_FB_USED,pods")
        self.assertEqual(expected["pod_shares.csv"],
                         "time_s,pod,device,gpu_time_ratio")
        self.assertEqual(
            expected["alerts.csv"],
            "alert,severity,node,gpu,device,pod,active_s,fired_s,resolved_s,"
            "value,description")
        for example in EXAMPLES:
            with self.subTest(example=os.path.basename(example)):
                csv_dir = self.path(os.path.basename(example) + "-csv/deep")
                _, _, doc = self.run_json(example, "--csv", csv_dir)
                self.assertEqual(sorted(os.listdir(csv_dir)),
                                 sorted(CSV_FILES))
                rows = {}
                for name in CSV_FILES:
                    with open(os.path.join(csv_dir, name), encoding="utf-8",
                              newline="") as f:
                        text = f.read()
                    self.assertEqual(text.split("\n", 1)[0], expected[name],
                                     name)
                    self.assertTrue(text.endswith("\n"), name)
                    rows[name] = list(csv.reader(text.splitlines(True)))[1:]
                    width = len(expected[name].split(","))
                    for row in rows[name]:
                        self.assertEqual(len(row), width, (name, row))
                pods = rows["pods.csv"]
                self.assertEqual(len(pods), doc["pods"])
                self.assertEqual([r[0] for r in pods],
                                 [p["name"] for p in doc["pod_records"]])
                outcome = expected["pods.csv"].split(",").index("outcome")
                self.assertEqual([r[outcome] for r in pods],
                                 [p["outcome"] for p in doc["pod_records"]])
                self.assertEqual(
                    len(rows["pools.csv"]),
                    sum(len(p["samples"]) for p in doc["pools"]))
                self.assertGreaterEqual(
                    len(rows["devices.csv"]),
                    sum(p["gpus"] for p in doc["pools"]))
                self.assertTrue(rows["device_samples.csv"])
                # Each pod's devices are rows of devices.csv on its node,
                # one per GPU it asked for (or per MIG instance).
                devices = {r[0]: r for r in rows["devices.csv"]}
                column = expected["pods.csv"].split(",").index("devices")
                for pod, record in zip(pods, doc["pod_records"]):
                    ids = [int(d) for d in pod[column].split(";") if d]
                    self.assertEqual(ids, record["devices"])
                    if record["start_s"] < 0:
                        self.assertEqual(ids, [])
                        continue
                    for d in ids:
                        self.assertEqual(devices[str(d)][2], record["node"])


class ModelTest(RunTestCase):

    def test_seed_model_differs_on_time_slicing(self):
        default = run_raw("run", "--quiet", TIME_SLICING_EXAMPLE)
        seed = run_raw("run", "--quiet", "--model", "seed",
                       TIME_SLICING_EXAMPLE)
        named_default = run_raw("run", "--quiet", "--model", "default",
                                TIME_SLICING_EXAMPLE)
        for result in (default, seed, named_default):
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stderr, b"")
        self.assertTrue(seed.stdout.startswith(
            b"scenario dev-time-slicing (seed 7)"), seed.stdout)
        self.assertNotEqual(seed.stdout, default.stdout)
        self.assertNotEqual(seed.stdout, named_default.stdout)
        again = run_raw("run", "--quiet", "--model", "seed",
                        TIME_SLICING_EXAMPLE)
        self.assertEqual(seed.stdout, again.stdout)

    def test_unknown_model_profile(self):
        code, out, err = run("run", TIME_SLICING_EXAMPLE, "--model", "toy")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)


class BadInputTest(RunTestCase):

    def assert_scenario_error(self, lines, line, col, message):
        """Running the scenario `lines` fails at `line` (and `col` unless
        None) with `message` (a regular expression) and writes nothing."""
        scenario = self.write("bad.yaml", "\n".join(lines) + "\n")
        json_path = self.path("out.json")
        csv_dir = self.path("csv")
        code, out, err = run("run", scenario, "--json", json_path, "--csv",
                             csv_dir)
        self.assertEqual(code, 2, err)
        self.assertEqual(out, "")
        self.assertRegex(err, r"^error: %s:%d:%s: %s" %
                         (re.escape(scenario), line,
                          r"\d+" if col is None else str(col), message))
        self.assertFalse(os.path.exists(json_path))
        self.assertFalse(os.path.exists(csv_dir))
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["bad.yaml"])

    def test_base_scenario_is_valid(self):
        scenario = self.write("good.yaml", "\n".join(BASE_SCENARIO) + "\n")
        out, _, doc = self.run_json(scenario)
        self.assertTrue(out.startswith("scenario small (seed 3)"), out)
        self.assertEqual(doc["pods"], 2)

    def test_unknown_key(self):
        lines = list(BASE_SCENARIO)
        lines.insert(2, "horizon: 60")  # line 3
        self.assert_scenario_error(
            lines, 3, 1,
            re.escape("scenario: unknown key 'horizon'; did you mean "
                      "horizon_s?"))

    def test_negative_nodes(self):
        lines = list(BASE_SCENARIO)
        lines[6] = "      nodes: -1"  # line 7, value at column 14
        self.assert_scenario_error(
            lines, 7, 14,
            re.escape("pool 'p' nodes: -1 is out of range (expected "
                      "1..1000000)"))

    def test_malformed_yaml(self):
        lines = list(BASE_SCENARIO)
        lines[12] = "      count: 2: 3"  # line 13
        self.assert_scenario_error(lines, 13, None, "invalid YAML: ")

    def test_unknown_gpu(self):
        lines = list(BASE_SCENARIO)
        lines[5] = "      gpu: H100-40GB"  # line 6, value at column 12
        self.assert_scenario_error(
            lines, 6, 12,
            re.escape("pool 'p' gpu: unknown GPU model 'H100-40GB'; closest "
                      "known: H100-80GB"))

    def test_missing_scenario(self):
        missing = self.path("missing.yaml")
        json_path = self.path("out.json")
        code, out, err = run("run", missing, "--json", json_path)
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)
        self.assertIn(missing, err)
        self.assertFalse(os.path.exists(json_path))


class OomTest(RunTestCase):

    def test_time_slicing_oom(self):
        scenario = self.write("oom.yaml", OOM_SCENARIO)
        out, _, doc = self.run_json(scenario)
        match = re.search(r"^  OOM kills (\d+) ", out, re.MULTILINE)
        self.assertIsNotNone(match, out)
        self.assertGreater(int(match.group(1)), 0)
        self.assertGreater(doc["oom_kills"], 0)
        self.assertEqual(int(match.group(1)), doc["oom_kills"])
        self.assertEqual(doc["pods"], 2)
        self.assertEqual(doc["pools"][0]["scheme"], "time-slicing")


class NothingRanTest(RunTestCase):
    """A run where no pod can start says so: no goodput of 100 %, no wait of
    0 s and no $0.00 per served pod for work that never ran."""

    def test_figures_of_nothing_are_dashes(self):
        with open(os.path.join(ROOT, "tests", "data", "compare",
                               "l4-unservable.yaml"), encoding="utf-8") as f:
            text = f.read()
        # Only `huge`: 40 GB pods on 24 GB L4s.
        text = text[:text.index("    - name: notebooks")] + \
            text[text.index("    - name: huge"):]
        scenario = self.write("nothing.yaml", text)
        html = self.path("nothing.html")
        out, _, doc = self.run_json(scenario, "--html", html)
        self.assertEqual(doc["succeeded"], 0)
        self.assertEqual(doc["goodput"], -1)
        self.assertIn("goodput -", out)
        self.assertIn("queue wait mean -, p99 -", out)
        self.assertEqual(doc["mean_wait_s"], -1)
        self.assertNotIn("100.0%", out)
        row = [line for line in out.splitlines()
               if line.startswith("training ")]
        self.assertEqual(len(row), 1, out)
        self.assertEqual(row[0].split()[6], "-", row[0])  # WAIT
        # No latency samples: no SLO MET legend.
        self.assertNotIn("latency samples", out)
        with open(html, encoding="utf-8") as f:
            page = f.read()
        self.assertNotIn("$0.00", page)
        self.assertNotIn(">0.00<", page)
        self.assertNotIn("100.0%", page)

    def test_slo_met_says_what_it_counts(self):
        out = self.run_ok(os.path.join(ROOT, "examples", "mig-inference.yaml"),
                          "--quiet")
        self.assertIn("SLO MET share of latency samples (one per pod per "
                      "sampling interval) whose p99 is within the pod's SLO",
                      " ".join(out.split()))


if __name__ == "__main__":
    main()
