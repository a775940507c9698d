"""End-to-end tests of the progress bar of `run` and `compare`: drawn on
stderr only when it is a terminal, for work longer than about a second, and
never with --quiet.

Run as: python3 tests/progress_cli_test.py --binary /path/to/gpushare-sim
"""

import os
import pty
import re
import subprocess
import time
import unittest

from cli_harness import binary, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The largest example: about two seconds here (5,271 pods).
LONG_SCENARIO = os.path.join(ROOT, "examples", "default.yaml")
# A run that outlasts the bar's 200 ms redraw on any machine: the default
# scenario runs in about 0.1 s since its classes ask one size each (issue 37).
LONGER_SCENARIO = os.path.join(ROOT, "bench", "scenarios", "run-100k.yaml")


def run_on_terminal(*args):
    """Runs gpushare-sim with stderr on a pseudo-terminal; returns
    (status, stdout, what the terminal received, wall seconds)."""
    master, slave = pty.openpty()
    begin = time.monotonic()
    # No delay: the bar shows even when the run is fast on this machine.
    env = dict(os.environ, GPUSHARE_PROGRESS_DELAY_S="0")
    proc = subprocess.Popen([binary(), *args], stdout=subprocess.PIPE,
                            stderr=slave, env=env)
    os.close(slave)
    received = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    out = proc.stdout.read()
    status = proc.wait(timeout=120)
    os.close(master)
    return status, out.decode(), received.decode(), time.monotonic() - begin


class ProgressTest(unittest.TestCase):

    def test_no_progress_when_stderr_is_not_a_terminal(self):
        status, out, err = run("run", LONG_SCENARIO)
        self.assertEqual(status, 0, err)
        self.assertEqual(err, "")
        self.assertIn("pods", out)

    def test_quiet_silences_the_bar_on_a_terminal(self):
        status, out, seen, _ = run_on_terminal("run", LONG_SCENARIO, "--quiet")
        self.assertEqual(status, 0)
        self.assertEqual(seen, "")
        self.assertIn("pods", out)

    def test_bar_on_a_terminal_is_erased_at_the_end(self):
        status, out, seen, _ = run_on_terminal("run", LONGER_SCENARIO)
        self.assertEqual(status, 0)
        self.assertRegex(seen, r"\r\[[#.]{20}\] +\d+%  [\d,]+/100,000 pods  t=")
        self.assertTrue(seen.endswith("\r\x1b[K"), repr(seen[-40:]))
        for line in seen.split("\r"):
            self.assertLessEqual(len(line.replace("\x1b[K", "")), 79)
        self.assertNotIn("\r", out)  # stdout untouched

    def test_compare_draws_one_bar_over_all_its_runs(self):
        # Three seeds of twelve runs each (six MIG pilots, five schemes, the
        # plan), then three of the pool plan (its pools mix
        # schemes since each class asks one size), added to the bar once the
        # answers are known: one bar over 36, then 39 runs. (One seed alone
        # runs in under the bar's 200 ms redraw.)
        status, out, seen, _ = run_on_terminal("compare", "--threads", "2")
        self.assertEqual(status, 0)
        self.assertIn("Answer per tenant class", out)
        frames = re.findall(r"\r\[[#.]{20}\] +\d+%  [\d,]+/([\d,]+) pods  "
                            r"runs \d+/(36|39)", seen)
        self.assertTrue(frames, repr(seen))
        # One bar: its total only grows as runs start (each seed draws its
        # own 5,000-odd pods), never restarting for a new run.
        totals = [int(total.replace(",", "")) for total, _ in frames]
        self.assertEqual(totals, sorted(totals), totals)
        self.assertGreaterEqual(totals[-1], 5000)
        self.assertTrue(seen.endswith("\r\x1b[K"), repr(seen[-40:]))
        status, out, seen, _ = run_on_terminal("compare", "--quiet")
        self.assertEqual(seen, "")


if __name__ == "__main__":
    main()
