"""Shared harness of the end-to-end CLI tests (tests/*_test.py).

CTest runs each test as: python3 tests/X_test.py --binary /path/to/gpushare-sim
"""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
_binary = None
# Seconds one command may take; `make sanitize` raises it (ASan and UBSan
# slow the binary several times).
_TIMEOUT_S = float(os.environ.get("GS_TEST_TIMEOUT_S", "60"))


def binary():
    """The gpushare-sim binary under test."""
    return _binary


def run_raw(*args):
    """Runs gpushare-sim with `args`; returns the CompletedProcess (bytes)."""
    return subprocess.run([_binary, *args], capture_output=True, timeout=_TIMEOUT_S,
                          check=False)


def run(*args):
    """Runs gpushare-sim; returns (exit status, stdout, stderr) as text."""
    result = run_raw(*args)
    return (result.returncode, result.stdout.decode("utf-8"),
            result.stderr.decode("utf-8"))


def table_rows(text, header_prefix):
    """The rows (split on whitespace) of the table whose header line starts
    with `header_prefix`, up to the first blank line or warning."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith(header_prefix))
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or line.startswith("warning:"):
            break
        rows.append(line.split())
    return rows


class TempDirTestCase(unittest.TestCase):
    """A test case with a fresh temporary directory for its files."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, text):
        path = self.path(name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


def kubectl_dump_scenario(name, path):
    """A scenario replaying one kubectl List (`path`) as both its cluster
    import and its pod trace, for an hour."""
    return f"""name: {name}
seed: 1
horizon_s: 3600
cluster:
  import: {{format: kubectl, file: {path}}}
workload:
  trace:
    format: kubectl
    file: {path}
    defaults: {{lifetime_s: 1800}}
"""


def check_bad_scenarios(test, cases):
    """Runs `run s.yaml --json out` on each (text, where, phrase) of
    `cases`: exit 2, `where` and `phrase` in stderr, no output left."""
    with tempfile.TemporaryDirectory() as tmp:
        for text, where, phrase in cases:
            scenario = os.path.join(tmp, "s.yaml")
            with open(scenario, "w") as f:
                f.write(text)
            out = os.path.join(tmp, "r.json")
            code, _, stderr = run("run", scenario, "--json", out)
            test.assertEqual(code, 2, stderr)
            test.assertIn(where, stderr)
            test.assertIn(phrase, stderr)
            test.assertFalse(os.path.exists(out))


def main():
    """Reads --binary, then runs the calling module's unittest cases."""
    global _binary
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--binary", required=True)
    args, rest = parser.parse_known_args()
    _binary = os.path.abspath(args.binary)
    unittest.main(module="__main__", argv=[sys.argv[0]] + rest)
