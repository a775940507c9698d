"""The round trip of issue 42: `run --openmetrics` of a scenario → `promtool
tsdb create-blocks-from openmetrics` → a Prometheus server on localhost over
those blocks → its HTTP API (query_range, the query `emit
prometheus-queries` prints) → `workload.trace.metrics` of the same pods as a
kubectl list → the duty, SM demand and footprint recovered per pod are what
the scenario gave its classes.

Tolerance: 0.002 on duty and SM demand, the footprint exact. The simulated
series are the model's values at each sample, and Prometheus returns the
written points (the query's step is the sample interval, starting at a
sample); the only loss is the OpenMetrics text's printed digits and the
inversion of duty through the GPU's relative speed in floating point.
Skipped, with a message, where Debian's `prometheus` (promtool and the
server) is missing: scripts/install-deps installs it.

Run as: python3 tests/dcgm_roundtrip_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

from cli_harness import main, run

START = 1704067200  # --start-time default, 2024-01-01T00:00:00Z
HORIZON = 1200
STEP = 60

POOLS = """\
cluster:
  pools:
    - {name: a100, gpu: A100-40GB, nodes: 1, gpus_per_node: 2}
    - {name: h100, gpu: H100-80GB, nodes: 1, gpus_per_node: 1}
    - name: mig
      gpu: A100-40GB
      nodes: 1
      gpus_per_node: 1
      sharing: {scheme: mig, mig_strategy: mixed, mig_layouts: [["3g.20gb:2"]]}
    - name: ts
      gpu: A100-40GB
      nodes: 1
      gpus_per_node: 1
      sharing: {scheme: time-slicing, replicas: 2}
"""

# class: (pool, gpus, footprint MiB, SM demand, duty, kubectl request)
CLASSES = {
    "train": ("a100", 1, 20000, 0.6, 0.8, {"nvidia.com/gpu": "1"}),
    "fast": ("h100", 1, 30000, 0.5, 0.3, {"nvidia.com/gpu": "1"}),
    "slice": ("mig", 0.4, 9000, 0.5, 0.4, {"nvidia.com/mig-3g.20gb": "1"}),
    "shared": ("ts", 0.5, 5000, 0.3, 0.5, {"nvidia.com/gpu": "1"}),
}
COUNTS = {"train": 2, "fast": 1, "slice": 2, "shared": 2}


def scenario_a():
    lines = ["name: roundtrip", "seed: 5", f"horizon_s: {HORIZON}",
             f"sample_interval_s: {STEP}", POOLS, "workload:",
             "  horizon_s: 30", "  classes:"]
    for name, (pool, gpus, mib, sm, duty, _) in CLASSES.items():
        lines.append(
            f"    - {{name: {name}, class: inference, count: {COUNTS[name]}, "
            f"gpus: {gpus}, gpu_memory_mib: {mib}, sm_demand: {sm}, "
            f"duty: {duty}, work_s: 0, lifetime_s: {HORIZON}, "
            f"node_selector: {{gpushare.io/node-pool: {pool}}}}}")
    return "\n".join(lines) + "\n"


def pods_json(names):
    items = []
    for name in names:
        cls = name.rsplit("-", 1)[0]
        pool, _, _, _, _, request = CLASSES[cls]
        items.append({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"nodeSelector": {"gpushare.io/node-pool": pool},
                     "containers": [{"name": "c", "resources": {
                         "requests": request, "limits": request}}]},
            "status": {"phase": "Pending"}})
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipIf(shutil.which("prometheus") is None
                 or shutil.which("promtool") is None,
                 "prometheus/promtool not found: run scripts/install-deps "
                 "(Debian package prometheus)")
class DcgmRoundTripTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        a = os.path.join(d, "a.yaml")
        with open(a, "w", encoding="utf-8") as f:
            f.write(scenario_a())
        om = os.path.join(d, "a.om")
        a_json = os.path.join(d, "a.json")
        status, _, err = run("run", a, "--openmetrics", om, "--json", a_json,
                             "--quiet")
        assert status == 0, err
        with open(a_json, encoding="utf-8") as f:
            cls.names = [p["name"].split("/")[-1]
                         for p in json.load(f)["pod_records"]]
        blocks = os.path.join(d, "blocks")
        subprocess.run(["promtool", "tsdb", "create-blocks-from",
                        "openmetrics", om, blocks], check=True,
                       capture_output=True, timeout=60)
        # The queries as `emit prometheus-queries` prints them.
        status, out, err = run("emit", "prometheus-queries", "--start",
                               str(START), "--end", str(START + HORIZON),
                               "--step", f"{STEP}s")
        assert status == 0, err
        cls.emitted = out
        query = next(line.split("'")[1] for line in out.splitlines()
                     if line.startswith("query: "))
        port = free_port()
        cls.server = subprocess.Popen(
            ["prometheus", "--config.file=/dev/null",
             f"--storage.tsdb.path={blocks}",
             "--storage.tsdb.retention.time=100y",
             f"--web.listen-address=127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    with urllib.request.urlopen(base + "/-/ready",
                                                timeout=1) as r:
                        if r.status == 200:
                            break
                except OSError:
                    time.sleep(0.1)
            url = base + "/api/v1/query_range?" + urllib.parse.urlencode({
                "query": query, "start": START, "end": START + HORIZON,
                "step": f"{STEP}s"})
            with urllib.request.urlopen(url, timeout=10) as r:
                cls.answer = r.read()
        finally:
            cls.server.terminate()
            cls.server.wait(timeout=10)
        metrics = os.path.join(d, "range.json")
        with open(metrics, "wb") as f:
            f.write(cls.answer)
        with open(os.path.join(d, "pods.json"), "w", encoding="utf-8") as f:
            f.write(pods_json(cls.names))
        b = os.path.join(d, "b.yaml")
        with open(b, "w", encoding="utf-8") as f:
            f.write(f"name: replay\nseed: 5\nhorizon_s: {HORIZON}\n"
                    f"sample_interval_s: {STEP}\n{POOLS}workload:\n"
                    "  trace:\n    format: kubectl\n    file: pods.json\n"
                    "    metrics: [range.json]\n"
                    f"    defaults: {{lifetime_s: {HORIZON}}}\n")
        b_json = os.path.join(d, "b.json")
        b_html = os.path.join(d, "b.html")
        cls.status, cls.out, cls.err = run("run", b, "--json", b_json,
                                           "--html", b_html, "--quiet")
        with open(b_json, encoding="utf-8") as f:
            cls.fidelity = json.load(f)["metrics_fidelity"]
        with open(b_html, encoding="utf-8") as f:
            cls.html = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_pod_is_imported(self):
        self.assertEqual(self.status, 0, self.err)
        self.assertEqual(sorted(p["pod"] for p in self.fidelity["pods"]),
                         sorted("default/" + n for n in self.names))

    def test_recovered_needs_are_what_the_scenario_drew(self):
        for pod in self.fidelity["pods"]:
            cls = pod["pod"].split("/")[1].rsplit("-", 1)[0]
            _, _, mib, sm, duty, _ = CLASSES[cls]
            with self.subTest(pod=pod["pod"]):
                if cls == "shared":
                    # Both on one time-sliced GPU: the device's sums only.
                    self.assertEqual(pod["outcome"], "shared")
                    continue
                self.assertEqual(pod["outcome"], "derived")
                self.assertAlmostEqual(pod["duty"], duty, delta=0.002)
                self.assertAlmostEqual(pod["sm_demand"], sm, delta=0.002)
                self.assertEqual(pod["gpu_memory_mib"], mib)

    def test_fidelity_of_the_replay(self):
        pools = {p["pool"]: p for p in self.fidelity["pools"]}
        self.assertEqual(sorted(pools), ["a100", "h100", "mig", "ts"])
        self.assertEqual(self.fidelity["unmatched_devices"], [])
        # The exclusive pools replay their own recording: the footprints
        # and the GPU util agree wherever both sides have the pod.
        h100 = pools["h100"]
        self.assertEqual(h100["devices"], 1)
        self.assertGreater(h100["gpu_util_percent"]["points"], 15)
        self.assertLess(h100["fb_used_mib"]["mean_abs_error"], 30000 * 0.1)
        self.assertIn("Fidelity against recorded dcgm-exporter series",
                      self.out)
        self.assertIn('id="fidelity"', self.html)
        self.assertIn("h100 (1 device)", self.html)

    def test_emitted_commands(self):
        self.assertIn("/api/v1/query_range", self.emitted)
        self.assertIn("promtool query range", self.emitted)


if __name__ == "__main__":
    main()
