"""End-to-end tests of `gpushare-sim run --openmetrics FILE`: the file loads
into Prometheus' TSDB with Debian's promtool and the values read back equal
the JSON and CSV outputs of the same run.

Run as: python3 tests/openmetrics_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from cli_harness import main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# MIG (prod), HAMi vGPU (platform) and time-slicing (dev), inference with SLOs.
SCENARIO = os.path.join(ROOT, "examples", "three-pools.yaml")
DEFAULT_START_MS = 1704067200 * 1000  # 2024-01-01T00:00:00Z

# A line of `promtool tsdb dump`: {__name__="x", a="b"} value timestamp_ms
DUMP_LINE = re.compile(r'^\{(.*)\} (\S+) (-?\d+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def promtool(*args):
    """Runs promtool; returns the CompletedProcess (text)."""
    path = shutil.which("promtool")
    if path is None:
        raise AssertionError("promtool not found: run scripts/install-deps "
                             "(Debian package prometheus)")
    return subprocess.run([path, *args], capture_output=True, text=True,
                          timeout=300, check=False)


def parse_dump(text):
    """{(name, frozenset(labels)): {timestamp_ms: value}} of a tsdb dump."""
    series = {}
    for line in text.splitlines():
        m = DUMP_LINE.match(line)
        assert m, line
        labels = dict(LABEL.findall(m.group(1)))
        name = labels.pop("__name__")
        key = (name, frozenset(labels.items()))
        series.setdefault(key, {})[int(m.group(3))] = float(m.group(2))
    return series


def select(series, name, **labels):
    """The series of `name` whose labels include `labels`."""
    return {k: v for k, v in series.items()
            if k[0] == name and set(labels.items()) <= k[1]}


class OpenMetricsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.om = os.path.join(d, "metrics.om")
        cls.json_file = os.path.join(d, "result.json")
        cls.csv_dir = os.path.join(d, "csv")
        cls.status, cls.out, cls.err = run(
            "run", SCENARIO, "--openmetrics", cls.om, "--json", cls.json_file,
            "--csv", cls.csv_dir, "--quiet")
        with open(cls.om, encoding="utf-8") as f:
            cls.text = f.read()
        with open(cls.json_file, encoding="utf-8") as f:
            cls.result = json.load(f)
        blocks = os.path.join(d, "blocks")
        cls.create = promtool("tsdb", "create-blocks-from", "openmetrics",
                              cls.om, blocks)
        # promtool's dump opens the directory as a TSDB, which needs a WAL.
        os.makedirs(os.path.join(blocks, "wal"), exist_ok=True)
        cls.dump = promtool("tsdb", "dump", blocks)
        cls.series = parse_dump(cls.dump.stdout)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_run_succeeds_silently_on_a_pipe(self):
        self.assertEqual(self.status, 0, self.err)
        self.assertEqual(self.err, "")  # no progress bar without a terminal

    def test_promtool_imports_every_sample(self):
        self.assertEqual(self.create.returncode, 0, self.create.stderr)
        self.assertEqual(self.dump.returncode, 0, self.dump.stderr)
        samples = [l for l in self.text.splitlines() if not l.startswith("#")]
        imported = sum(len(points) for points in self.series.values())
        self.assertEqual(imported, len(samples))
        names = {k[0] for k in self.series}
        for name in ["DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_SM_ACTIVE",
                     "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
                     "kube_node_status_allocatable", "gpushare_pending_pods",
                     "gpushare_pod_wait_seconds", "gpushare_pods_succeeded_total",
                     "gpushare_pod_slo_met", "gpushare_mig_config_drift"]:
            self.assertIn(name, names)

    def test_promtool_check_metrics_accepts_the_families(self):
        # promtool check metrics reads the Prometheus text format: timestamps
        # there are integer milliseconds and a counter's HELP and TYPE name
        # its _total samples. Convert, then lint.
        counters = set(re.findall(r"^# TYPE (\S+) counter$", self.text,
                                  flags=re.M))
        lines = []
        for line in self.text.splitlines():
            if line.startswith("# HELP ") or line.startswith("# TYPE "):
                name = line.split(" ")[2]
                if name in counters:
                    line = line.replace(" " + name + " ",
                                        " " + name + "_total ", 1)
                lines.append(line)
            elif not line.startswith("#"):
                lines.append(line.rsplit(" ", 1)[0])
        check = promtool_stdin(["check", "metrics"], "\n".join(lines) + "\n")
        # 0: clean; 3: lint problems. The only ones allowed are
        # dcgm-exporter's own camelCase label names (modelName, Hostname).
        self.assertIn(check.returncode, (0, 3), check.stderr[:2000])
        problems = set(l.split(" ", 1)[1] for l in
                       (check.stdout + check.stderr).splitlines() if l)
        self.assertLessEqual(problems, {
            "label names should be written in 'snake_case' not 'camelCase'"})

    def test_pool_series_equal_the_json(self):
        for pool in self.result["pools"]:
            got = select(self.series, "gpushare_pool_gpu_util_ratio",
                         pool=pool["name"])
            self.assertEqual(len(got), 1, pool["name"])
            points = next(iter(got.values()))
            self.assertEqual(len(points), len(pool["samples"]))
            for s in pool["samples"]:
                ts = DEFAULT_START_MS + round(s["time_s"] * 1000)
                self.assertEqual(points[ts], s["gpu_util"])
            sm = next(iter(select(self.series, "gpushare_pool_sm_active_ratio",
                                  pool=pool["name"]).values()))
            for s in pool["samples"]:
                ts = DEFAULT_START_MS + round(s["time_s"] * 1000)
                self.assertEqual(sm[ts], s["sm_active"])
        pending = self.series[("gpushare_pending_pods", frozenset())]
        for s in self.result["pools"][0]["samples"]:
            ts = DEFAULT_START_MS + round(s["time_s"] * 1000)
            self.assertEqual(pending[ts], s["pending"])

    def test_pod_wait_equals_the_json(self):
        started = [p for p in self.result["pod_records"] if p["start_s"] >= 0]
        self.assertGreater(len(started), 100)
        for p in started:
            got = select(self.series, "gpushare_pod_wait_seconds", pod=p["name"])
            self.assertEqual(len(got), 1, p["name"])
            points = next(iter(got.values()))
            ts = DEFAULT_START_MS + round(p["start_s"] * 1000)
            self.assertEqual(points, {ts: p["wait_s"]}, p["name"])

    def test_slo_series_match_the_json_attainment(self):
        met = total = 0
        for points in select(self.series, "gpushare_pod_slo_met").values():
            met += sum(points.values())
            total += len(points)
        self.assertGreater(total, 0)
        self.assertAlmostEqual(met / total, self.result["slo_attainment"],
                               places=12)

    def test_dcgm_series_equal_the_csv(self):
        with open(os.path.join(self.csv_dir, "devices.csv"),
                  encoding="utf-8") as f:
            devices = list(csv.DictReader(f))
        with open(os.path.join(self.csv_dir, "device_samples.csv"),
                  encoding="utf-8") as f:
            samples = list(csv.DictReader(f))
        # Per device (Hostname, gpu, GPU_I_ID) and time: dcgm-exporter repeats
        # a shared device's value once per pod; every copy must be equal.
        fb, util, pods_seen = {}, {}, set()
        for (name, labels), points in self.series.items():
            if name not in ("DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_GPU_UTIL"):
                continue
            ld = dict(labels)
            key = (ld["Hostname"], ld["gpu"], ld.get("GPU_I_ID", "-1"))
            if "pod" in ld:
                pods_seen.add(ld["pod"])
            target = fb if name == "DCGM_FI_DEV_FB_USED" else util
            for ts, v in points.items():
                self.assertEqual(target.setdefault((key, ts), v), v)
        self.assertGreater(len(pods_seen), 50)
        for s in samples:
            d = devices[int(s["device"])]
            key = (d["node"], d["gpu"], d["mig_instance"])
            ts = DEFAULT_START_MS + round(float(s["time_s"]) * 1000)
            self.assertEqual(fb[(key, ts)], float(s["DCGM_FI_DEV_FB_USED"]))
            self.assertEqual(util[(key, ts)],
                             float(s["DCGM_FI_DEV_GPU_UTIL"]))

    def test_dcgm_labels(self):
        mig = select(self.series, "DCGM_FI_DEV_FB_USED", GPU_I_PROFILE="3g.40gb")
        self.assertTrue(mig)
        for name, labels in list(mig)[:5]:
            ld = dict(labels)
            self.assertRegex(ld["UUID"], r"^GPU-[0-9a-f]{8}-[0-9a-f]{4}-"
                             r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
            self.assertEqual(ld["modelName"], "H100-80GB")
            self.assertEqual(ld["pool"], "prod")
            self.assertEqual(ld["device"], "nvidia" + ld["gpu"])
            self.assertIn("GPU_I_ID", ld)
        shared = select(self.series, "DCGM_FI_DEV_GPU_UTIL", pool="dev")
        self.assertTrue(any("vgpu" in dict(k[1]) for k in shared))
        for _, labels in shared:
            ld = dict(labels)
            if "pod" in ld:
                self.assertEqual(ld["container"], ld["pod"])
                self.assertTrue(ld["namespace"])

    def test_metadata(self):
        self.assertTrue(self.text.endswith("\n# EOF\n"))
        self.assertEqual(self.text.count("# EOF"), 1)
        self.assertIn("# TYPE gpushare_pods_succeeded counter\n", self.text)
        self.assertIn("# UNIT gpushare_pod_wait_seconds seconds\n", self.text)
        types = re.findall(r"^# TYPE (\S+) ", self.text, flags=re.M)
        helps = re.findall(r"^# HELP (\S+) ", self.text, flags=re.M)
        self.assertEqual(types, helps)
        self.assertEqual(len(types), len(set(types)))

    def test_deterministic(self):
        with tempfile.TemporaryDirectory() as d:
            again = os.path.join(d, "again.om")
            status, _, err = run("run", SCENARIO, "--openmetrics", again,
                                 "--quiet")
            self.assertEqual(status, 0, err)
            with open(again, encoding="utf-8") as f:
                self.assertEqual(f.read(), self.text)

    def test_start_time_moves_the_samples(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.om")
            status, _, err = run("run", SCENARIO, "--openmetrics", path,
                                 "--start-time", "2025-06-01T00:00:00Z")
            self.assertEqual(status, 0, err)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("gpushare_pending_pods 0 1748736000\n", text)
            status, _, err = run("run", SCENARIO, "--openmetrics", path,
                                 "--start-time", "1748736000")
            self.assertEqual(status, 0, err)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), text)

    def test_bad_start_time_is_an_error(self):
        for bad in ["yesterday", "2025-02-30T00:00:00Z", "2025-06-01",
                    "2025-06-01T25:00:00Z", "-5"]:
            status, out, err = run("run", SCENARIO, "--openmetrics",
                                   os.devnull, "--start-time", bad)
            self.assertEqual(status, 2, bad)
            self.assertTrue(err.startswith("error: "), err)
            self.assertEqual(out, "")

    def test_unwritable_path_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            json_file = os.path.join(d, "r.json")
            status, out, err = run(
                "run", SCENARIO, "--json", json_file, "--openmetrics",
                os.path.join(d, "missing", "m.om"))
            self.assertEqual(status, 2)
            self.assertTrue(err.startswith("error: "), err)
            self.assertEqual(out, "")
            self.assertEqual(os.listdir(d), [])


def promtool_stdin(args, text):
    """Runs promtool with `text` on stdin."""
    path = shutil.which("promtool")
    if path is None:
        raise AssertionError("promtool not found: run scripts/install-deps")
    return subprocess.run([path, *args], input=text, capture_output=True,
                          text=True, timeout=120, check=False)


if __name__ == "__main__":
    main()
