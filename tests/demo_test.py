"""End-to-end tests of `gpushare-sim demo` (the seed document's toy demo).

Run as: python3 tests/demo_test.py --binary /path/to/gpushare-sim
"""

import os
import unittest

from cli_harness import DATA_DIR, main, run_raw



def run_demo(*args):
    return run_raw("demo", *args)


class DemoTest(unittest.TestCase):

    def setUp(self):
        with open(os.path.join(DATA_DIR, "seed_demo.out"), "rb") as f:
            self.expected = f.read()

    def test_seed_compat_matches_python_byte_for_byte(self):
        result = run_demo("--seed-compat")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.expected)
        self.assertEqual(result.stderr, b"")

    def test_plain_demo_is_seed_compat(self):
        result = run_demo()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.expected)

    def test_explicit_defaults_match(self):
        result = run_demo("--seed-compat", "--lang", "zh", "--seed", "42",
                          "--tasks", "24")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.expected)

    def test_english_labels_same_numbers(self):
        result = run_demo("--seed-compat", "--lang", "en")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(
            result.stdout.decode("utf-8"),
            "Simulated tasks: 24\n"
            " time-slice | total time:  96.55s | utilization: 90.4%\n"
            "        mig | total time:  53.80s | utilization: 40.6%\n"
            "       vgpu | total time:  92.87s | utilization: 94.0%\n")

    def test_unknown_language_is_usage_error(self):
        result = run_demo("--seed-compat", "--lang", "fr")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, b"")
        self.assertIn(b"error:", result.stderr)

    def test_task_count_out_of_range(self):
        for count in ("0", "-3", "1000001", "many"):
            with self.subTest(count=count):
                result = run_demo("--tasks", count)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, b"")
                self.assertIn(b"error:", result.stderr)

    def test_negative_seed_acts_like_python(self):
        # Python's random.seed(-42) seeds like random.seed(42).
        result = run_demo("--seed=-42")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.expected)




if __name__ == "__main__":
    main()
