"""End-to-end tests of the HTML reports (`--html FILE` on `run`, `compare`
and `experiment fgd`), opened in a real browser: headless Chromium.

Each report is generated, loaded by Chromium (--dump-dom gives the DOM after
the page ran, --enable-logging=stderr shows every console message), checked
for console messages, for external references and for the chart series, and
screenshotted into <build>/test-artifacts/ next to the binary.

Chromium is a dependency (scripts/install-deps installs Debian's chromium):
without it these tests fail, they do not skip.

Run as: python3 tests/html_report_test.py --binary /path/to/gpushare-sim
"""

import html.parser
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
CLASS_CHARTS = ["class-slowdown", "class-p99", "class-oom", "class-wait",
                "class-cost"]


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
    """Collects each <svg data-chart>'s <g data-series> names, in order."""

    def __init__(self):
        super().__init__()
        self.charts = {}
        self.current = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            self.current = attrs.get("data-chart")
            if self.current is not None:
                self.charts[self.current] = []
        elif tag == "g" and self.current and "data-series" in attrs:
            self.charts[self.current].append(attrs["data-series"])

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None


def charts_in(dom):
    parser = ChartParser()
    parser.feed(dom)
    return parser.charts


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
        return charts_in(dom), text

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
        for chart in CLASS_CHARTS:
            self.assertEqual(charts[chart], ["three-pools"])
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
        for chart in CLASS_CHARTS:
            self.assertEqual(charts[chart], SCHEMES)
        self.assertEqual(charts["pending"], SCHEMES)
        pool_charts = [c for c in charts if c.startswith("pool-")]
        self.assertEqual(len(pool_charts), len(SCHEMES))
        for scheme in SCHEMES:
            self.assertEqual(charts["pool-%s-dev" % scheme], POOL_SERIES)
        self.assertIn("<b>Recommended:</b> notebooks → time-slicing", text)
        for heading in ["Runs", "Cluster-wide", "Per tenant class",
                        "Selection", "Over time"]:
            self.assertIn(">%s</h2>" % heading, text)


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
