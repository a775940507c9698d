"""End-to-end test: the patrol alerts the simulator evaluates itself during
`gpushare-sim run` (alerts[] of the JSON) are exactly the alerts Prometheus
computes with the rules of `gpushare-sim emit prometheus-rules` on the run's
own OpenMetrics series.

examples/patrol.yaml provokes all three alerts. The test converts the
OpenMetrics series the rules read into `input_series` of a `promtool test
rules` file (interval = the sample interval), and at every sample time, for
each alert, expects exactly the alerts the JSON says are firing then
(fired_s <= t < resolved_s) with the labels and annotations the rules give
them. promtool compares annotations too (leaving them out expects none), so
the test expands the rules' templates; GpuNoisyNeighbour's $value is the
device's largest gpushare_pod_gpu_time_ratio at that sample. Two variants of
the example add series that end while an alert fires, and other thresholds.

Staleness: a series gets a `stale` marker at the first sample it no longer
has (as a Prometheus scrape would write when the exporter stops reporting
it), so Prometheus' 5-minute lookback does not keep it alive; the simulator
evaluates each sample on that sample's values only (docs/output.md "Patrol
alerts").

Run as: python3 tests/patrol_promtool_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import re
import shutil
import subprocess

from cli_harness import TempDirTestCase, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "patrol.yaml")
DEFAULT_START = 1704067200  # --start-time default, docs/output.md
ALERTS = ("GpuNoisyNeighbour", "MigConfigDrift", "DevicePluginStalled")
# The families the three rules read.
FAMILIES = ("gpushare_pod_gpu_time_ratio", "gpushare_pod_slo_met",
            "gpushare_mig_config_drift", "kube_node_status_allocatable",
            "gpushare_device_healthy", "gpushare_pending_pods")

SAMPLE_RE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+) (\S+)$")
LABEL_RE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def unescape(value):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n"
                  else m.group(1), value)


def parse_labels(text):
    """{name: value} of an OpenMetrics label set `{a="x",b="y"}`."""
    if not text:
        return {}
    body = text[1:-1]
    labels = {}
    pos = 0
    while pos < len(body):
        m = LABEL_RE.match(body, pos)
        if m is None:
            raise AssertionError("bad label set: " + text)
        labels[m.group(1)] = unescape(m.group(2))
        pos = m.end()
    return labels


def parse_openmetrics(text, start, interval):
    """The series of FAMILIES: {(family, raw label text): {sample index:
    (value text, value)}}, in file order, plus their parsed labels."""
    series = {}
    labels = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE_RE.match(line)
        assert m is not None, line
        family, raw, value, ts = m.groups()
        if family not in FAMILIES:
            continue
        offset = float(ts) - start
        index = round(offset / interval)
        assert abs(index * interval - offset) < 1e-3, line  # on the grid
        key = (family, raw or "")
        points = series.setdefault(key, {})
        assert index not in points, "duplicate point: " + line
        points[index] = (value, float(value))
        labels[key] = parse_labels(raw)
    return series, labels


def series_values(points, count):
    """promtool's expanding notation of a series over sample indexes 0 …
    count-1: `_` where it has no sample, `stale` at the first index after
    each run of samples."""
    tokens = []
    for i in range(count):
        if i in points:
            tokens.append(points[i][0])
        elif i - 1 in points:
            tokens.append("stale")
        else:
            tokens.append("_")
    out = []
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and tokens[j + 1] == tokens[i]:
            j += 1
        n = j - i + 1
        tok = tokens[i]
        if n == 1 or tok == "stale":
            out.extend([tok] * n)
        elif tok == "_":
            out.append("_x%d" % n)  # n blanks
        else:
            out.append("%sx%d" % (tok, n - 1))  # n values: v, then n-1 more
        i = j + 1
    return " ".join(out)


def rule_annotations(rules_text):
    """{alert: {annotation: template}} of the emitted rules."""
    result = {}
    for block in re.split(r"^\s*- alert: ", rules_text, flags=re.M)[1:]:
        name = block.split("\n", 1)[0].strip()
        result[name] = {
            key: json.loads(value) for key, value in re.findall(
                r'^\s+(summary|description): (".*")$', block, flags=re.M)}
    return result


def humanize_percentage(value):
    # Prometheus' template function: fmt.Sprintf("%.4g%%", v*100).
    return "%.4g%%" % (value * 100)


def expand(template, labels, value):
    """The annotation Prometheus expands from `template` (only the
    constructs the patrol rules use)."""
    def sub(m):
        expr = m.group(1).strip()
        if expr.startswith("$labels."):
            return labels[expr[len("$labels."):]]
        if expr == "$value | humanizePercentage":
            return humanize_percentage(value)
        if expr == "$value":
            return "%g" % value
        raise AssertionError("template construct not modelled: " + expr)
    return re.sub(r"\{\{(.*?)\}\}", sub, template)


def yaml_str(text):
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def promtool(*args):
    path = shutil.which("promtool")
    if path is None:
        raise AssertionError("promtool not found: run scripts/install-deps "
                             "(Debian package prometheus)")
    return subprocess.run([path, *args], capture_output=True, text=True,
                          timeout=120, check=False)


class PatrolPromtoolTest(TempDirTestCase):

    def compare(self, scenario, stale=True):
        """Runs `scenario`, writes its promtool rule test and runs it.
        Returns (promtool's CompletedProcess, the number of sample times,
        {alert: the number of (sample time, firing alert) pairs expected}).
        stale=False writes `_` where a series ends, no staleness marker."""
        status, _, err = run(
            "run", scenario, "--quiet", "--json", self.path("r.json"),
            "--openmetrics", self.path("r.om"), "--csv", self.path("csv"))
        self.assertEqual(status, 0, err)
        rules = self.path("rules.yml")
        status, _, err = run("emit", "prometheus-rules", "--scenario",
                             scenario, "--out", rules)
        self.assertEqual(status, 0, err)
        with open(self.path("r.json"), encoding="utf-8") as f:
            result = json.load(f)
        with open(self.path("r.om"), encoding="utf-8") as f:
            om_text = f.read()
        with open(rules, encoding="utf-8") as f:
            rules_text = f.read()
        with open(self.path("csv/devices.csv"), encoding="utf-8") as f:
            devices = {int(r["device"]): r for r in csv.DictReader(f)}
        with open(scenario, encoding="utf-8") as f:
            interval = int(re.search(r"^sample_interval_s: (\d+)$", f.read(),
                                     flags=re.M).group(1))

        series, labels = parse_openmetrics(om_text, DEFAULT_START, interval)
        self.assertEqual({family for family, _ in series}, set(FAMILIES))
        # Samples at 0, interval, … end_s.
        count = max(i for points in series.values() for i in points) + 1
        self.assertEqual((count - 1) * interval, result["end_s"])
        annotations = rule_annotations(rules_text)
        self.assertEqual(set(annotations), set(ALERTS))
        for name in ALERTS:
            self.assertEqual(set(annotations[name]),
                             {"summary", "description"}, name)

        def find(family, **want):
            return [k for k in series if k[0] == family and
                    all(labels[k].get(n) == v for n, v in want.items())]

        # Per JSON alert: the labels Prometheus gives it, and its value at a
        # sample index (the annotations' $value).
        expected = []  # (alert, labels, value_at)
        for a in result["alerts"]:
            name = a["alert"]
            lab = {"severity": a["severity"]}
            value_at = None
            if name == "GpuNoisyNeighbour":
                # The device's series: by node and GPU, and for a MIG
                # instance its GPU_I_ID (devices.csv's mig_instance).
                dev = devices[a["device"]]
                self.assertEqual((dev["node"], int(dev["gpu"])),
                                 (a["node"], a["gpu"]))
                want = {"Hostname": a["node"], "gpu": str(a["gpu"])}
                if int(dev["mig_instance"]) >= 0:
                    want["GPU_I_ID"] = dev["mig_instance"]
                keys = find("gpushare_pod_gpu_time_ratio", **want)
                if "GPU_I_ID" not in want:
                    keys = [k for k in keys if "GPU_I_ID" not in labels[k]]
                self.assertTrue(keys, a)
                uuids = {labels[k]["UUID"] for k in keys}
                self.assertEqual(len(uuids), 1, a)
                lab.update(want, UUID=uuids.pop())

                def value_at(i, keys=keys):  # max by device, as the rule
                    return max(series[k][i][1] for k in keys
                               if i in series[k])
                # The JSON's value: the largest share while firing.
                end = count if a["resolved_s"] == -1 else round(
                    a["resolved_s"] / interval)
                self.assertAlmostEqual(
                    a["value"], max(value_at(i) for i in range(
                        round(a["fired_s"] / interval), end)), places=12)
            elif name == "MigConfigDrift":
                keys = find("gpushare_mig_config_drift", Hostname=a["node"],
                            gpu=str(a["gpu"]))
                self.assertEqual(len(keys), 1, a)
                lab.update(labels[keys[0]])
            else:
                self.assertEqual(name, "DevicePluginStalled")
                lab["node"] = a["node"]
            expected.append((a, lab, value_at))

        # The promtool test: at every sample time, for every alert, the
        # alerts the JSON says are firing then.
        lines = ["rule_files:", "  - " + yaml_str(rules),
                 "evaluation_interval: %ds" % interval, "tests:",
                 "  - interval: %ds" % interval, "    input_series:"]
        for (family, raw), points in series.items():
            values = series_values(points, count)
            if not stale:
                values = values.replace("stale", "_")
            lines.append("      - series: '%s'" %
                         (family + raw).replace("'", "''"))
            lines.append("        values: '%s'" % values)
        lines.append("    alert_rule_test:")
        firing_pairs = {name: 0 for name in ALERTS}
        for i in range(count):
            t = i * interval
            for name in ALERTS:
                lines.append("      - eval_time: %ds" % t)
                lines.append("        alertname: " + name)
                firing = [(lab, value_at(i) if value_at else None)
                          for a, lab, value_at in expected
                          if a["alert"] == name and a["fired_s"] <= t and
                          (a["resolved_s"] == -1 or t < a["resolved_s"])]
                firing_pairs[name] += len(firing)
                if not firing:
                    lines.append("        exp_alerts: []")
                    continue
                lines.append("        exp_alerts:")
                for lab, value in firing:
                    lines.append("          - exp_labels:")
                    for k in sorted(lab):
                        lines.append("              %s: %s" %
                                     (k, yaml_str(lab[k])))
                    lines.append("            exp_annotations:")
                    for k, template in sorted(annotations[name].items()):
                        lines.append("              %s: %s" % (k, yaml_str(
                            expand(template, lab, value))))
        test_file = self.write("patrol_test.yml", "\n".join(lines) + "\n")
        check = promtool("check", "rules", rules)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        return promtool("test", "rules", test_file), count, firing_pairs

    def assert_agree(self, test, count, firing_pairs):
        self.assertEqual(
            test.returncode, 0,
            "promtool disagrees with the simulator's alerts[] (%d sample "
            "times x %d alerts):\n%s%s" % (count, len(ALERTS), test.stdout,
                                          test.stderr))
        self.assertIn("SUCCESS", test.stdout)

    def test_patrol_example_alerts_match_prometheus(self):
        test, count, firing_pairs = self.compare(SCENARIO)
        self.assert_agree(test, count, firing_pairs)
        self.assertEqual(count, 121)  # 0 … 7200 s
        # Not vacuous: each alert fires at many sample times.
        for name in ALERTS:
            self.assertGreater(firing_pairs[name], 10, name)

    def variant(self, old="", new="", patrol=""):
        """examples/patrol.yaml with `old` replaced by `new` and `patrol`
        appended."""
        with open(SCENARIO, encoding="utf-8") as f:
            text = f.read()
        if old:
            self.assertEqual(text.count(old), 1, old)
            text = text.replace(old, new)
        return self.write("variant.yaml", text + patrol)

    def test_series_that_end_while_an_alert_fires(self):
        # The model servers end after 50 minutes, while trainers still
        # crowd their GPUs: some noisy-neighbour alerts resolve because the
        # victim's series end. The simulator resolves them at once, as
        # Prometheus does with the staleness markers a scrape writes.
        scenario = self.variant("      lifetime_s: 5400\n",
                                "      lifetime_s: 3000\n")
        test, count, firing_pairs = self.compare(scenario)
        self.assert_agree(test, count, firing_pairs)
        self.assertGreater(firing_pairs["GpuNoisyNeighbour"], 10)
        # Without the markers (as after `promtool tsdb
        # create-blocks-from openmetrics`) the 5-minute lookback keeps the
        # ended series, and those alerts, alive a few samples longer
        # (docs/output.md "Patrol alerts"); this also shows the variant
        # does exercise ended series.
        test, _, _ = self.compare(scenario, stale=False)
        self.assertNotEqual(test.returncode, 0, test.stdout)
        failed = re.findall(r"^\s+alertname: (\w+), time:", test.stderr,
                            flags=re.M)
        self.assertTrue(failed, test.stderr)
        self.assertEqual(set(failed), {"GpuNoisyNeighbour"})

    def test_other_thresholds(self):
        # A hold that is not a multiple of the sample interval (90 s: fires
        # at the second sample after the first true one) and a lower share
        # (trainers sharing a GPU two ways count too; one alert is still
        # firing at the end of the run).
        scenario = self.variant(
            patrol="\npatrol: {for_s: 90, noisy_neighbour_share: 0.3}\n")
        test, count, firing_pairs = self.compare(scenario)
        self.assert_agree(test, count, firing_pairs)
        for name in ALERTS:
            self.assertGreater(firing_pairs[name], 10, name)


if __name__ == "__main__":
    main()
