"""End-to-end tests of `gpushare-sim calibrate fit` and `--calibration`.

The timings in tests/data/calibrate/synthetic are generated from a GPU whose
time-slicing follows the model with 2.0 ms slices and 250 us switches
(tests/data/calibrate/make_synthetic.py); they are not a measurement.

Run as: python3 tests/calibrate_cli_test.py --binary /path/to/gpushare-sim
"""

import os
import shutil

from cli_harness import DATA_DIR, TempDirTestCase, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYNTHETIC = os.path.join(DATA_DIR, "calibrate", "synthetic")
DEV = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")


class FitTest(TempDirTestCase):

    def test_fit_writes_the_file_and_reports_every_check(self):
        out_file = self.path("cal.yaml")
        code, out, err = run("calibrate", "fit", SYNTHETIC, "--out", out_file)
        self.assertEqual(code, 0, err)
        self.assertIn("time_slice_ms        1.024   1.996", out)
        self.assertIn("context_switch_us    200.0   249.0", out)
        self.assertIn("8 procs, 33 blocks (d 0.25)", out)
        self.assertIn("probe p99, 4 co-runners", out)
        for line in out.splitlines():
            self.assertLessEqual(len(line), 80, line)
        with open(out_file, encoding="utf-8") as f:
            written = f.read()
        self.assertIn("model:\n  time_slice_ms: 1.996\n", written)
        self.assertEqual(written.count("  - case: "), 22)
        # Without --out, the file itself on stdout, byte for byte.
        code, yaml_out, err = run("calibrate", "fit", SYNTHETIC)
        self.assertEqual(code, 0, err)
        self.assertEqual(yaml_out, written)

    def test_incomplete_timings_are_errors_and_write_nothing(self):
        bad = self.path("bad")
        shutil.copytree(SYNTHETIC, bad)
        with open(os.path.join(bad, "latency.csv"), "a", encoding="utf-8") as f:
            f.write("1,132,999,-4\n")
        out_file = self.path("cal.yaml")
        code, out, err = run("calibrate", "fit", bad, "--out", out_file)
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertRegex(err, r"latency\.csv:1002:\d+: column 'latency_us': "
                              r"value -4 is out of range")
        self.assertFalse(os.path.exists(out_file))
        os.remove(os.path.join(bad, "throughput.csv"))
        code, _, err = run("calibrate", "fit", bad)
        self.assertEqual(code, 2)
        self.assertIn("throughput.csv", err)


class CalibrationOptionTest(TempDirTestCase):

    def calibration(self):
        path = self.path("cal.yaml")
        code, _, err = run("calibrate", "fit", SYNTHETIC, "--out", path)
        self.assertEqual(code, 0, err)
        return path

    def test_run_applies_the_fitted_model_over_the_scenario(self):
        cal = self.calibration()
        code, plain, err = run("run", DEV, "--quiet")
        self.assertEqual(code, 0, err)
        code, calibrated, err = run("run", DEV, "--quiet", "--calibration", cal)
        self.assertEqual(code, 0, err)
        self.assertNotEqual(plain, calibrated)
        # The same as the scenario with the fitted values written in it.
        with open(DEV, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("time_slice_ms: 2\n", "time_slice_ms: 1.996\n")
        text = text.replace("context_switch_us: 250\n",
                            "context_switch_us: 249.003\n")
        by_hand = self.write("dev.yaml", text.replace(
            "../", os.path.join(ROOT, "") ))
        code, written, err = run("run", by_hand, "--quiet")
        self.assertEqual(code, 0, err)
        self.assertEqual(written.splitlines()[1:],
                         calibrated.splitlines()[1:])

    def test_compare_and_plan_take_it_and_bad_files_are_errors(self):
        cal = self.calibration()
        code, _, err = run("compare", DEV, "--quiet", "--seeds", "1",
                           "--calibration", cal)
        self.assertEqual(code, 0, err)
        bad = self.write("bad.yaml", "calibration: {gpu: H100}\n"
                                     "model: {context_switch_us: -5}\n")
        for command in (["run", DEV], ["compare", DEV], ["plan", DEV]):
            code, out, err = run(*command, "--quiet", "--calibration", bad)
            self.assertEqual(code, 2, command)
            self.assertEqual(out, "")
            self.assertIn("bad.yaml:2:28: model parameter context_switch_us "
                          "must be in [0, 10000000], got -5", err)


if __name__ == "__main__":
    main()
