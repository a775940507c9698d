"""End-to-end tests of the patrol alerts on `gpushare-sim run`:
examples/patrol.yaml provokes each alert (a stalled device plugin, a GPU
reset that loses a MIG layout, trainers crowding servers on time-sliced
GPUs); the alerts appear alike in the terminal, JSON, CSV and HTML, the
series behind them in the OpenMetrics output, and bad injections are input
errors with file:line and no output.

Run as: python3 tests/patrol_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import re

from cli_harness import TempDirTestCase, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "patrol.yaml")
ALERTS = {"GpuNoisyNeighbour", "MigConfigDrift", "DevicePluginStalled"}


class PatrolTest(TempDirTestCase):

    def run_all_outputs(self):
        status, out, err = run(
            "run", SCENARIO, "--quiet", "--json", self.path("r.json"),
            "--csv", self.path("csv"), "--html", self.path("r.html"),
            "--openmetrics", self.path("r.om"))
        self.assertEqual(status, 0, err)
        with open(self.path("r.json"), encoding="utf-8") as f:
            result = json.load(f)
        return out, result

    def test_each_alert_fires_and_every_output_agrees(self):
        out, result = self.run_all_outputs()
        alerts = result["alerts"]
        self.assertEqual({a["alert"] for a in alerts}, ALERTS)
        for a in alerts:
            # Held for the default 5 minutes, at sample times.
            self.assertGreaterEqual(a["fired_s"] - a["active_s"], 300 - 1e-6)
            self.assertTrue(a["resolved_s"] == -1 or
                            a["resolved_s"] > a["fired_s"], a)
            self.assertIn(a["node"], a["description"])
        stalled = [a for a in alerts if a["alert"] == "DevicePluginStalled"]
        self.assertEqual([(a["node"], a["severity"]) for a in stalled],
                         [("batch-0", "critical")])
        # The stall lasts 1800 … 3600 s: pending from then, resolved at its
        # end.
        self.assertGreaterEqual(stalled[0]["active_s"], 1800)
        self.assertEqual(stalled[0]["resolved_s"], 3600)
        drift = [a for a in alerts if a["alert"] == "MigConfigDrift"]
        # Reset at 2400 s, back at 2700 s; mig-manager starts 1200 s later
        # and takes 30 s: the layout is back at 3930 s, seen at 3960 s.
        self.assertEqual([(a["node"], a["gpu"], a["active_s"], a["fired_s"],
                           a["resolved_s"]) for a in drift],
                         [("prod-0", 3, 2700, 3000, 3960)])
        noisy = [a for a in alerts if a["alert"] == "GpuNoisyNeighbour"]
        self.assertTrue(noisy)
        for a in noisy:
            self.assertTrue(a["pod"].startswith("dev-training-"), a)
            self.assertGreater(a["value"], 0.5)
        # Terminal: the count line and one row per alert (fewer than ten).
        self.assertIn("patrol alerts: %d fired" % len(alerts), out)
        for line in out.splitlines():
            self.assertLessEqual(len(line), 80, line)
        # CSV: the same alerts in the same order.
        with open(self.path("csv/alerts.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["alert"], r["node"], float(r["fired_s"]))
                          for r in rows],
                         [(a["alert"], a["node"], a["fired_s"])
                          for a in alerts])
        with open(self.path("csv/pod_shares.csv"), encoding="utf-8") as f:
            shares = list(csv.DictReader(f))
        self.assertTrue(shares)
        self.assertTrue(all(r["pod"].startswith("dev-") for r in shares))
        # HTML: a table row per alert.
        with open(self.path("r.html"), encoding="utf-8") as f:
            html = f.read()
        self.assertIn('id="alerts"', html)
        for a in alerts:
            self.assertIn("<td>%s</td>" % a["alert"], html)

    def test_openmetrics_carries_the_series_behind_the_alerts(self):
        self.run_all_outputs()
        with open(self.path("r.om"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("# TYPE gpushare_pod_gpu_time_ratio gauge", text)
        ratios = re.findall(r"^gpushare_pod_gpu_time_ratio\{[^}]*\} (\S+) ",
                            text, flags=re.M)
        self.assertTrue(ratios)
        self.assertTrue(any(float(v) > 0.5 for v in ratios))
        drift = re.findall(
            r'^gpushare_mig_config_drift\{[^}]*Hostname="prod-0"[^}]*\} 1 ',
            text, flags=re.M)
        # 2700 … 3900 s at 60 s samples: 21 samples of drift on one GPU.
        self.assertEqual(len(drift), 21)
        stalled = re.findall(
            r'^kube_node_status_allocatable\{node="batch-0",'
            r'resource="nvidia_com_gpu"[^}]*\} 0 ', text, flags=re.M)
        self.assertEqual(len(stalled), 30)  # 1800 … 3540 s

    def test_compare_counts_each_runs_alerts(self):
        status, out, err = run("compare", SCENARIO, "--quiet", "--details",
                               "--json",
                               self.path("c.json"))
        self.assertEqual(status, 0, err)
        with open(self.path("c.json"), encoding="utf-8") as f:
            variants = {v["name"]: v for v in json.load(f)["variants"]}
        # The stalled plugin stalls every run; the reset loses a layout only
        # where prod runs MIG; trainers crowd servers only when time-sliced.
        for name, v in variants.items():
            self.assertEqual(v["alerts"].get("DevicePluginStalled"), 1, name)
        self.assertEqual(variants["mig"]["alerts"].get("MigConfigDrift"), 1)
        self.assertNotIn("MigConfigDrift", variants["time-slicing"]["alerts"])
        self.assertGreater(
            variants["time-slicing"]["alerts"].get("GpuNoisyNeighbour", 0), 0)
        self.assertNotIn("GpuNoisyNeighbour", variants["exclusive"]["alerts"])
        self.assertIn("Patrol alerts fired: exclusive: DevicePluginStalled 1",
                      out)

    def test_bad_injections_are_located_errors(self):
        with open(SCENARIO, encoding="utf-8") as f:
            text = f.read()
        cases = [
            ("{pool: batch, node: 1, at_s: 1800, duration_s: 1800}",
             r"node: 1 is out of range"),
            ("{pool: nope, node: 0, at_s: 1800}", r"unknown pool 'nope'"),
            ("{pool: batch, node: 0, at_s: 1800, duration_s: 0}",
             r"duration_s: must be > 0"),
            ("{pool: batch, node: 0, at_s: -5}", r"at_s"),
            ("{pool: batch, node: 0, at_s: 1, every_s: 5}", r"every_s"),
        ]
        for stall, message in cases:
            bad = text.replace(
                "{pool: batch, node: 0, at_s: 1800, duration_s: 1800}", stall)
            self.assertNotEqual(bad, text)
            self.check_error(bad, message)
        # mig_reapply_s without a reset, and on a pool without MIG.
        self.check_error(text.replace("reset: true,", ""),
                         r"mig_reapply_s: applies to a fault with reset: true")
        self.check_error(text.replace("{pool: prod, at_s: 2400",
                                      "{pool: batch, at_s: 2400"),
                         r"pool 'batch' does not use MIG")
        self.check_error(text + "\npatrol: {for_s: -1}\n", r"for_s")

    def check_error(self, scenario_text, message):
        path = self.write("bad.yaml", scenario_text)
        status, out, err = run("run", path, "--json", self.path("bad.json"))
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertRegex(err, r"bad\.yaml:\d+:\d+: .*" + message)
        self.assertFalse(os.path.exists(self.path("bad.json")))


if __name__ == "__main__":
    main()
