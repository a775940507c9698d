"""End-to-end tests of the HTML reports (`--html FILE` on `run`, `compare`,
`plan` and `experiment fgd`), opened in a real browser: headless Chromium.

Each report is generated, loaded by Chromium (--dump-dom gives the DOM after
the page ran, --enable-logging=stderr shows every console message), checked
for console messages, for external references and for the chart series, and
screenshotted into <build>/test-artifacts/ next to the binary.

Chromium is a dependency (scripts/install-deps installs Debian's chromium):
without it these tests fail, they do not skip.

Run as: python3 tests/html_report_test.py --binary /path/to/gpushare-sim
"""

import html.parser
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import cli_harness
from cli_harness import TempDirTestCase, DATA_DIR, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREE_POOLS = os.path.join(ROOT, "examples", "three-pools.yaml")
DEV = os.path.join(DATA_DIR, "compare", "dev-notebooks.yaml")
SCHEMES = ["exclusive", "time-slicing", "mps", "mig", "hami"]
POOL_SERIES = ["SM active", "GPU util", "memory used", "allocation"]
# Class charts drawn over every class (the p99 chart is one per class:
# class-p99-CLASS); each is either drawn or a note says why not.
CLASS_CHARTS = ["class-slowdown", "class-oom", "class-wait", "class-cost"]
L4 = os.path.join(DATA_DIR, "compare", "l4-unservable.yaml")
EXAMPLES = os.path.join(ROOT, "examples")
LLM = os.path.join(EXAMPLES, "llm-serving.yaml")
# Evictions: DefaultPreemption evicts batch-sweeps and notebooks pods under
# exclusive, MIG and HAMi vGPU.
MULTI_TENANT = os.path.join(EXAMPLES, "multi-tenant.yaml")
# Today's cluster with a dcgm-exporter recording, and without one.
METRICS = os.path.join(EXAMPLES, "kubectl-metrics.yaml")
IMPORT = os.path.join(EXAMPLES, "kubectl-import.yaml")
EVICTIONS = "evictions (preempted by the scheduler or Kueue)"
TTFT = "p99 TTFT / SLO ms (time to first token)"
TPOT = "p99 TPOT / SLO ms (time per output token)"


def chromium():
    """The Chromium binary; fails the test with how to get it if missing."""
    for name in (os.environ.get("GS_CHROMIUM", ""), "chromium",
                 "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise AssertionError(
        "chromium not found: the HTML report tests need Debian's chromium; "
        "install it with scripts/install-deps (or apt-get install chromium)")


def artifacts_dir():
    path = os.path.join(os.path.dirname(cli_harness.binary()),
                        "test-artifacts")
    os.makedirs(path, exist_ok=True)
    return path


def browse(page, *flags):
    """Opens `page` in headless Chromium with `flags`; returns (stdout,
    console messages). A fresh profile each time; --no-sandbox because
    tests may run as root in a container (the page is our own file)."""
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--user-data-dir=" + profile,
             "--enable-logging=stderr", "--v=0", *flags,
             "file://" + os.path.abspath(page)],
            capture_output=True, timeout=120, check=False)
    stderr = result.stderr.decode("utf-8", "replace")
    if result.returncode != 0:
        raise AssertionError("chromium failed (%d): %s" %
                             (result.returncode, stderr[-2000:]))
    console = [line for line in stderr.splitlines() if ":CONSOLE" in line]
    return result.stdout.decode("utf-8"), console


class ChartParser(html.parser.HTMLParser):
    """Collects each <svg data-chart>'s <g data-series> names, in order;
    per chart the tallest bar (`bars`: the largest <rect> height in a
    series, -1 without any) and the x tick labels (`x_ticks`: centred texts
    before the axis label "simulated time"); and the ids of the notes that
    stand for charts not drawn (`notes`: data-no-chart -> text)."""

    def __init__(self):
        super().__init__()
        self.charts = {}
        self.bars = {}
        self.x_ticks = {}
        self.notes = {}
        self.current = None
        self.in_series = False
        self.text = None   # collecting a centred <text> of the chart
        self.note = None   # collecting a note's text
        self.ticks_done = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            self.current = attrs.get("data-chart")
            if self.current is not None:
                self.charts[self.current] = []
                self.bars[self.current] = -1
                self.x_ticks[self.current] = []
                self.ticks_done = False
        elif tag == "g" and self.current and "data-series" in attrs:
            self.charts[self.current].append(attrs["data-series"])
            self.in_series = True
        elif tag == "rect" and self.current and self.in_series:
            self.bars[self.current] = max(self.bars[self.current],
                                          float(attrs.get("height", 0)))
        elif (tag == "text" and self.current and not self.ticks_done and
              attrs.get("text-anchor") == "middle" and
              "transform" not in attrs):
            self.text = ""
        elif tag == "p" and "data-no-chart" in attrs:
            self.note = attrs["data-no-chart"]
            self.notes[self.note] = ""

    def handle_data(self, data):
        if self.text is not None:
            self.text += data
        if self.note is not None:
            self.notes[self.note] += data

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None
        elif tag == "g":
            self.in_series = False
        elif tag == "text" and self.text is not None:
            if self.text == "simulated time":
                self.ticks_done = True
            else:
                self.x_ticks[self.current].append(self.text)
            self.text = None
        elif tag == "p":
            self.note = None


class ClassTableParser(html.parser.HTMLParser):
    """Collects each <div data-class-table=NAME>'s table as a list of rows
    of cell texts, the header first (`tables`), and the fidelity summary:
    its lead paragraph (`summary`, None without one) and each pool item's
    verdict and text (`pools`: name -> (verdict, text))."""

    def __init__(self):
        super().__init__()
        self.tables = {}
        self.summary = None
        self.pools = {}
        self.table = None
        self.cell = None
        self.item = None
        self.in_summary = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and "data-class-table" in attrs:
            self.table = attrs["data-class-table"]
            self.tables[self.table] = []
        elif tag == "tr" and self.table is not None:
            self.tables[self.table].append([])
        elif tag in ("th", "td") and self.table is not None:
            self.cell = ""
        elif tag == "p" and "data-fidelity-summary" in attrs:
            self.summary = ""
            self.in_summary = True
        elif tag == "li" and "data-fidelity-pool" in attrs:
            self.item = attrs["data-fidelity-pool"]
            self.pools[self.item] = (attrs["data-verdict"], "")

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_summary:
            self.summary += data
        if self.item is not None:
            verdict, text = self.pools[self.item]
            self.pools[self.item] = (verdict, text + data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            self.tables[self.table][-1].append(self.cell)
            self.cell = None
        elif tag == "div":
            self.table = None
        elif tag == "p":
            self.in_summary = False
        elif tag == "li":
            self.item = None


def class_tables(dom):
    parser = ClassTableParser()
    parser.feed(dom)
    return parser


def vs_objective(cell):
    """"114.1 / 500" -> (114.1, 500.0); "93.0" -> (93.0, None); "-" -> None."""
    if cell == "-":
        return None
    parts = [float(x) for x in cell.split(" / ")]
    return parts[0], (parts[1] if len(parts) > 1 else None)


def charts_in(dom):
    parser = ChartParser()
    parser.feed(dom)
    return parser.charts


def parse_charts(dom):
    parser = ChartParser()
    parser.feed(dom)
    return parser


class HtmlReportTestCase(TempDirTestCase):

    def check_page(self, path, artifact):
        """Loads the page in Chromium: no console message, nothing external,
        saves a screenshot; returns {chart id: [series]} from the DOM."""
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for external in ("http://", "https://", "<link", "<script", "src=",
                         "@import", "url("):
            self.assertNotIn(external, text)
        dom, console = browse(path, "--dump-dom")
        self.assertEqual(console, [], "console messages while loading")
        self.assertIn("</svg>", dom)
        shot = os.path.join(artifacts_dir(), artifact)
        if os.path.exists(shot):
            os.remove(shot)
        _, console = browse(path, "--screenshot=" + shot,
                            "--window-size=1280,2400",
                            "--hide-scrollbars")
        self.assertEqual(console, [])
        self.assertTrue(os.path.getsize(shot) > 10000, shot)
        self.parsed = parse_charts(dom)
        self.tables = class_tables(dom)
        return charts_in(dom), text

    def check_class_charts(self, series):
        """Each class chart is drawn with `series` and a bar above 0, or a
        note stands for it; returns the per-class p99 chart ids."""
        p = self.parsed
        for chart in CLASS_CHARTS:
            if chart in p.charts:
                self.assertEqual(p.charts[chart], series)
                self.assertGreater(p.bars[chart], 0, chart)
                self.assertNotIn(chart, p.notes)
            else:
                self.assertTrue(p.notes.get(chart), chart)
        p99 = [c for c in p.charts if c.startswith("class-p99-")]
        for chart in p99:
            self.assertEqual(p.charts[chart], series)
            self.assertGreater(p.bars[chart], 0, chart)
        self.assertNotIn("class-p99", p.charts)
        return p99

    def check_shared_time_axis(self):
        """Every chart of pools and pending pods has the same x ticks."""
        p = self.parsed
        over_time = [c for c in p.charts
                     if c.startswith("pool-") or c == "pending"]
        self.assertTrue(over_time)
        for chart in over_time:
            self.assertEqual(p.x_ticks[chart], p.x_ticks[over_time[0]],
                             chart)
        self.assertGreater(len(p.x_ticks[over_time[0]]), 2)

    def generate(self, *args, name="report.html"):
        path = self.path(name)
        code, _, err = run(*args, "--html", path)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        return path


class BrowserCheckTest(HtmlReportTestCase):

    def test_console_errors_are_seen(self):
        # The check above is only worth something if it sees errors.
        page = self.write("bad.html", "<!DOCTYPE html><p>x</p><script>"
                          "console.error('boom'); missing();</script>")
        _, console = browse(page, "--dump-dom")
        self.assertEqual(len(console), 2, console)
        self.assertIn("boom", console[0])
        self.assertIn("missing is not defined", console[1])


class RunReportTest(HtmlReportTestCase):

    def test_run_report(self):
        path = self.generate("run", THREE_POOLS, "--quiet")
        charts, text = self.check_page(path, "run-three-pools.png")
        for pool in ["prod", "platform", "dev"]:
            self.assertEqual(charts["pool-" + pool], POOL_SERIES)
        self.assertEqual(charts["pending"], ["pending"])
        self.check_shared_time_axis()
        # p99 on its own axis for the one class with latency samples; the
        # others are named in a note.
        p99 = self.check_class_charts(["three-pools"])
        self.assertEqual(p99, ["class-p99-prod-inference"])
        self.assertEqual(
            self.parsed.notes["class-p99"],
            "No latency samples in the run for platform-jobs, research-dev: "
            "no p99 chart for them.")
        # The timeline: a group per GPU (6 nodes x 2..4 GPUs: all shown);
        # MIG GPUs with a lane per instance, shared GPUs stacked.
        gpus = charts["timeline"]
        self.assertTrue(gpus)
        self.assertTrue(any(g.endswith(" MIG") for g in gpus), gpus)
        self.assertTrue(any(not g.endswith(" MIG") for g in gpus), gpus)
        self.assertIn("All %d GPUs." % len(gpus), text)
        self.assertRegex(text, r"\dg\.\d+gb #\d")  # a MIG instance lane
        self.assertIn("shared</text>", text)   # a stacked shared GPU
        # Deterministic: the same run gives the same bytes.
        again = self.generate("run", THREE_POOLS, "--quiet", name="2.html")
        with open(again, encoding="utf-8") as f:
            self.assertEqual(f.read(), text)


class CompareReportTest(HtmlReportTestCase):

    def test_compare_report(self):
        path = self.generate("compare", DEV, "--quiet", "--threads", "2")
        charts, text = self.check_page(path, "compare-dev-notebooks.png")
        self.assertEqual(self.check_class_charts(SCHEMES), [])
        # Notebooks have no latency SLO and no scheme OOM-kills them: notes,
        # not empty charts.
        self.assertEqual(self.parsed.notes["class-p99"],
                         "No latency samples in any run: no p99 to show.")
        self.assertEqual(self.parsed.notes["class-oom"],
                         "No OOM kills in any run.")
        self.assertEqual(charts["pending"], SCHEMES)
        pool_charts = [c for c in charts if c.startswith("pool-")]
        self.assertEqual(len(pool_charts), len(SCHEMES))
        for scheme in SCHEMES:
            self.assertEqual(charts["pool-%s-dev" % scheme], POOL_SERIES)
        self.check_shared_time_axis()
        # The answer first: under the title, before what ran.
        headings = re.findall(r">([^<>]+)</h2>", text)
        self.assertEqual(headings, ["Answer", "Runs", "Cluster-wide",
                                    "Per tenant class", "Selection",
                                    "Over time"])
        answer = text[text.index(">Answer</h2>"):text.index(">Runs</h2>")]
        self.assertIn("<b>Recommended:</b> notebooks → time-slicing", answer)
        self.assertIn("How sure: each score (0 to 10) is the mean of 3 runs "
                      "with different random draws (seeds 11-13)", answer)
        self.assertEqual(text.count("<b>Recommended:</b>"), 1)

    def test_compare_report_unservable_class(self):
        # MIG is not ranked on L4s; no scheme serves `huge`: the answer says
        # so as the terminal report does.
        path = self.generate("compare", L4, "--quiet", "--threads", "2")
        _, text = self.check_page(path, "compare-l4-unservable.png")
        answer = text[text.index(">Answer</h2>"):text.index(">Runs</h2>")]
        code, out, err = run("compare", L4, "--quiet", "--details",
                             "--threads", "2")
        self.assertEqual(code, 0, err)
        said = re.search(r"Recommended: (.*)", out.replace("\n  ", " "))
        self.assertIsNotNone(said, out)
        self.assertIn("<b>Recommended:</b> " +
                      said.group(1).replace("->", "→").strip(), answer)
        self.assertIn("huge → no scheme serves it", answer)
        self.check_class_charts(SCHEMES)
        self.check_shared_time_axis()


class ClassColumnsTestCase(HtmlReportTestCase):
    """The per-class tables' evictions and LLM-engine columns and the
    fidelity summary, checked against the JSON of the same command."""

    def generate_both(self, *args, codes=(0,)):
        """Runs `args` with --html and --json; returns the page's path and
        the JSON."""
        page = self.path("report.html")
        json_path = self.path("report.json")
        code, _, err = run(*args, "--quiet", "--threads", "2", "--html",
                           page, "--json", json_path)
        self.assertIn(code, codes, err)
        with open(json_path, encoding="utf-8") as f:
            return page, json.load(f)

    def check_class_table(self, name, table, rows):
        """`table` (header first) has one row per (label, JSON metrics) of
        `rows`: the evictions are the JSON's `preemptions`; the TTFT and TPOT
        columns are there exactly when some row has `mean_ttft_p99_ms`, with
        its value and objective (one decimal), "-" where a row has none.
        Returns the evictions shown."""
        header, body = table[0], table[1:]
        self.assertEqual([r[0] for r in body], [label for label, _ in rows],
                         name)
        engine = any("mean_ttft_p99_ms" in m for _, m in rows)
        self.assertEqual(TTFT in header, engine, name)
        self.assertEqual(TPOT in header, engine, name)
        shown = []
        for row, (label, m) in zip(body, rows):
            where = "%s %s" % (name, label)
            cell = row[header.index(EVICTIONS)]
            self.assertEqual(int(cell), m["preemptions"], where)
            shown.append(int(cell))
            if not engine:
                continue
            for column, key in ((TTFT, "ttft"), (TPOT, "tpot")):
                value = vs_objective(row[header.index(column)])
                if "mean_%s_p99_ms" % key not in m:
                    self.assertIsNone(value, where)
                    continue
                self.assertAlmostEqual(value[0], m["mean_%s_p99_ms" % key],
                                       delta=0.05, msg=where)
                # No objective (0): the p99 alone.
                self.assertEqual(value[1],
                                 m["mean_slo_%s_p99_ms" % key] or None, where)
        return shown

    def check_compare_tables(self, data):
        """Every class table of the compare page against the JSON's
        variants; returns the evictions shown."""
        tables = self.tables.tables
        classes = sorted(data["variants"][0]["classes"])
        self.assertEqual(sorted(tables), classes)
        shown = []
        for name in classes:
            rows = [(r[0], v["classes"][name])
                    for r, v in zip(tables[name][1:], data["variants"])]
            self.assertEqual(len(rows), len(data["variants"]), name)
            shown += self.check_class_table(name, tables[name], rows)
        return shown

    def check_plan_tables(self, data):
        """Every class table of the plan page: the recommended plan's row
        and today's against the JSON's `chosen` and `today` reference."""
        today = [r for r in data["references"] if r["name"] == "today"]
        self.assertEqual(len(today), 1)
        tables = self.tables.tables
        self.assertEqual(sorted(tables), sorted(data["tenant_classes"]))
        shown = []
        for name in data["tenant_classes"]:
            rows = [("recommended plan", data["chosen"]["classes"][name]),
                    ("today", today[0]["classes"][name])]
            shown += self.check_class_table(name, tables[name], rows)
        return shown

    def check_fidelity(self, data):
        """The fidelity summary: one item per pool compared, its numbers
        those of the JSON's metrics_fidelity pools, "off" exactly for the
        pools the JSON warns about."""
        summary = self.tables.summary
        self.assertIsNotNone(summary)
        pools = data["metrics_fidelity"]["pools"]
        warned = [w.split(":")[0][len("pool "):]
                  for w in data["metrics_fidelity"]["warnings"]]
        self.assertEqual(sorted(self.tables.pools),
                         sorted(p["pool"] for p in pools))
        for p in pools:
            verdict, text = self.tables.pools[p["pool"]]
            self.assertEqual(verdict,
                             "off" if p["pool"] in warned else "close")
            numbers = [float(x) for x in re.findall(
                r"(\d+(?:\.\d+)?)(?:%| MiB)", text)]
            u, sm, fb = (p["gpu_util_percent"], p["sm_active"],
                         p["fb_used_mib"])
            self.assertEqual(numbers, [
                round(u["simulated_mean"], 1), round(u["recorded_mean"], 1),
                round(100 * sm["simulated_mean"], 1),
                round(100 * sm["recorded_mean"], 1),
                round(fb["simulated_mean"]), round(fb["recorded_mean"])],
                text)
        off = [p["pool"] for p in pools if p["pool"] in warned]
        if off:
            self.assertIn("on %d of the %d pools compared (%s)" % (
                len(off), len(pools), ", ".join(off)), summary)
        self.assertIn("within %g points of GPU busy time" % 20, summary)


class CompareColumnsTest(ClassColumnsTestCase):

    def test_llm_classes_get_ttft_and_tpot(self):
        page, data = self.generate_both("compare", LLM)
        self.check_page(page, "compare-llm-serving.png")
        self.check_compare_tables(data)
        # Every class runs an engine: each table has the columns, and the
        # HAMi run of `chat` is over its 500 ms TTFT objective.
        for name, table in self.tables.tables.items():
            self.assertIn(TTFT, table[0], name)
        chat = self.tables.tables["chat"]
        hami = 1 + [v["name"] for v in data["variants"]].index("hami")
        ttft = vs_objective(chat[hami][chat[0].index(TTFT)])
        self.assertGreater(ttft[0], ttft[1])
        # No recording: no fidelity section.
        self.assertIsNone(self.tables.summary)
        with open(page, encoding="utf-8") as f:
            self.assertNotIn('id="fidelity"', f.read())

    def test_evictions_column(self):
        page, data = self.generate_both("compare", MULTI_TENANT)
        self.check_page(page, "compare-multi-tenant.png")
        shown = self.check_compare_tables(data)
        self.assertGreater(sum(shown), 0)   # some scheme evicted pods
        self.assertIn(0, shown)
        # No engine in this scenario: no TTFT/TPOT column anywhere.
        for name, table in self.tables.tables.items():
            self.assertNotIn(TTFT, table[0], name)

    def test_fidelity_with_metrics_only(self):
        page, data = self.generate_both("compare", METRICS)
        _, text = self.check_page(page, "compare-kubectl-metrics.png")
        self.check_fidelity(data)
        self.check_compare_tables(data)
        fidelity = text.index('id="fidelity"')
        self.assertLess(text.index('id="answer"'), fidelity)
        self.assertLess(fidelity, text.index('id="runs"'))
        # Running pods but no recording: the replay check, no summary.
        page, data = self.generate_both("compare", IMPORT)
        self.check_page(page, "compare-kubectl-import.png")
        self.assertNotIn("metrics_fidelity", data)
        self.assertIsNone(self.tables.summary)
        self.assertEqual(self.tables.pools, {})


class PlanColumnsTest(ClassColumnsTestCase):

    def test_llm_plan(self):
        # No plan meets every constraint here (exit 3), the page says so.
        page, data = self.generate_both("plan", LLM, codes=(3,))
        _, text = self.check_page(page, "plan-llm-serving.png")
        self.check_plan_tables(data)
        for name in data["tenant_classes"]:
            self.assertIn(TTFT, self.tables.tables[name][0], name)
        self.assertIsNone(self.tables.summary)
        self.assertNotIn('id="fidelity"', text)

    def test_evictions_and_fidelity(self):
        page, data = self.generate_both("plan", MULTI_TENANT)
        self.check_page(page, "plan-multi-tenant.png")
        shown = self.check_plan_tables(data)
        self.assertGreater(sum(shown), 0)
        for name, table in self.tables.tables.items():
            self.assertNotIn(TTFT, table[0], name)
        page, data = self.generate_both("plan", METRICS)
        _, text = self.check_page(page, "plan-kubectl-metrics.png")
        self.check_fidelity(data)
        self.check_plan_tables(data)
        self.assertLess(text.index('id="plan"'), text.index('id="fidelity"'))


class FgdReportTest(HtmlReportTestCase):

    def test_fgd_report(self):
        path = self.generate("experiment", "fgd", "--policy", "fgd,random",
                             "--seeds", "42-43")
        charts, text = self.check_page(path, "experiment-fgd.png")
        self.assertEqual(charts["fgd-alloc"], ["FGD", "Random"])
        self.assertEqual(charts["fgd-frag"], ["FGD", "Random"])
        # A mean line and a min-max band per policy.
        self.assertEqual(text.count('fill-opacity="0.18"'), 4)
        # Against the arrived workload, in % of the cluster's GPUs.
        self.assertIn("arrived workload, % of cluster GPU capacity", text)
        self.assertIn(">120%</text>", text)


class OutputErrorTest(TempDirTestCase):

    def test_unwritable_html_writes_nothing(self):
        json_path = self.path("out.json")
        bad = self.path("missing-dir/sub/report.html")
        open(self.path("missing-dir"), "w").close()  # a file, not a dir
        code, out, err = run("run", THREE_POOLS, "--json", json_path,
                             "--html", bad)
        self.assertEqual(code, 2)
        self.assertTrue(err.startswith("error: "), err)
        self.assertEqual(out, "")
        self.assertFalse(os.path.exists(json_path))


if __name__ == "__main__":
    main()
