"""End-to-end tests of `gpushare-sim emit autoscaler`: a scenario without an
autoscaled pool, a bad scenario and a bad option exit 2 and write nothing.
(The files' fields: src/gpushare/emit/*autoscaler*_test.cc and
karpenter_node_pools_test.cc.)

Run as: python3 tests/autoscaler_emit_test.py --binary /path/to/gpushare-sim
"""

import os
import tempfile
import unittest

from cli_harness import main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, "examples", "default.yaml")


class AutoscalerEmitErrorsTest(unittest.TestCase):

    def test_no_autoscaled_pool_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out_file = os.path.join(tmp, "autoscaler.yaml")
            status, out, err = run("emit", "autoscaler", "--scenario",
                                   DEFAULT, "--out", out_file)
            self.assertEqual(status, 2, err)
            self.assertEqual(out, "")
            self.assertIn("has no autoscaled pool", err)
            self.assertFalse(os.path.exists(out_file))

    def test_bad_scenario_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            scenario = os.path.join(tmp, "bad.yaml")
            with open(scenario, "w", encoding="utf-8") as f:
                f.write("name: bad\ncluster:\n  pools: [{name: a, nodes: -1}]\n")
            out_file = os.path.join(tmp, "autoscaler.yaml")
            status, _, err = run("emit", "autoscaler", "--scenario", scenario,
                                 "--out", out_file)
            self.assertEqual(status, 2, err)
            self.assertIn("bad.yaml", err)
            self.assertFalse(os.path.exists(out_file))

    def test_unknown_cloud_is_refused(self):
        status, out, _ = run("emit", "autoscaler", "--scenario", DEFAULT,
                             "--cloud", "gcp")
        self.assertNotEqual(status, 0)
        self.assertEqual(out, "")


if __name__ == "__main__":
    main()
