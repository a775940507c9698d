"""Tests of calibrate/run_calibration.sh's orchestration without a GPU: a
fake worker (a bash stub with the modes of calibrate/worker.cu) prints
plausible numbers, logs how it was called, and makes the probe's latency
100 + 1000 x (co-runners alive), so the files tell whether the script ran
the processes it should, together, with the arguments it should.

Checked: the three files' exact headers and row counts (throughput: 2 block
sizes x (1 + ... + 8) = 72 rows; latency: 5 co-runner counts x CAL_SAMPLES),
device.yaml's keys, common start times, co-runners alive during the probe
and gone after, fractional CAL_* seconds, and the failures (a worker that
fails or prints nonsense, bad arguments).

Run as: python3 tests/calibrate_script_test.py --binary /path/to/gpushare-sim
(the binary is not used).
"""

import csv
import os
import stat
import subprocess
import unittest

from cli_harness import TempDirTestCase, main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "calibrate", "run_calibration.sh")
ITERATIONS = 123456

FAKE_WORKER = r'''#!/usr/bin/env bash
# A stand-in for gs-calibrate-worker (bash: it starts in milliseconds).
set -euo pipefail
echo "$*" >>"$FAKE_STATE/calls"
mode=$1
shift
declare -A arg
while (($#)); do arg[$1]=$2; shift 2; done

wait_for_start() {
  local ns=$((${arg[--start-at-ns]} - $(date +%s%N)))
  ((ns <= 0)) || sleep "$((ns / 1000000000)).$(printf %09d $((ns % 1000000000)))"
}

case $mode in
  info)
    printf '%s\n' 'gpu: "NVIDIA H100 80GB HBM3"' 'driver: "12.8"' 'cuda: "12.8"' \
      "sms: ${FAKE_SMS:-132}" 'compute_capability: "9.0"' ;;
  iterations) echo ITERATIONS ;;
  throughput)
    if [[ ${FAKE_THROUGHPUT:-} == fail ]]; then
      echo "error: cudaSetDevice(0): fake failure" >&2
      exit 1
    fi
    wait_for_start
    begin=$(date +%s%N)
    sleep "${arg[--seconds]}"
    ns=$(($(date +%s%N) - begin))
    if [[ ${FAKE_THROUGHPUT:-} == garbage ]]; then
      echo "lots of kernels"
    else
      echo "$(awk -v s="${arg[--seconds]}" 'BEGIN { print s * 500 }')" \
        "$((ns / 1000000000)).$(printf %06d $((ns % 1000000000 / 1000)))"
    fi ;;
  spin)
    marker=$FAKE_STATE/spin.$$
    touch "$marker"
    sleep "${arg[--seconds]}" &
    sleeper=$!
    trap 'kill $sleeper; rm -f "$marker"; exit 0' TERM
    echo ready
    wait "$sleeper" || true
    rm -f "$marker" ;;
  probe)
    wait_for_start
    shopt -s nullglob
    for ((i = 0; i < ${arg[--samples]}; i++)); do
      alive=("$FAKE_STATE"/spin.*)
      echo "$((100 + 1000 * ${#alive[@]})).000"
      sleep "$(awk -v ms="${arg[--interval-ms]}" 'BEGIN { print ms / 1000 }')"
    done ;;
esac
'''.replace("ITERATIONS", str(ITERATIONS))


class CalibrateScriptTest(TempDirTestCase):

    def setUp(self):
        super().setUp()
        self.state = self.path("state")
        os.mkdir(self.state)
        self.worker = self.write("fake-worker", FAKE_WORKER)
        os.chmod(self.worker, os.stat(self.worker).st_mode | stat.S_IXUSR)
        self.out = self.path("out")

    def calibrate(self, *args, **env):
        """Runs the script on the fake worker; returns the CompletedProcess."""
        full_env = dict(os.environ, FAKE_STATE=self.state, CAL_SECONDS="0.1",
                        CAL_SAMPLES="5", CAL_START_DELAY="0.2")
        full_env.update(env)
        if not args:
            args = (self.out, self.worker)
        return subprocess.run(["bash", SCRIPT, *args], capture_output=True,
                              text=True, env=full_env, timeout=120,
                              check=False)

    def read_csv(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            text = f.read()
        lines = text.splitlines()
        return lines[0], list(csv.DictReader(lines))

    def calls(self, mode):
        """The flags of each call of the fake worker in `mode`, in order."""
        with open(os.path.join(self.state, "calls")) as f:
            calls = [line.split() for line in f]
        return [dict(zip(call[1::2], call[2::2])) for call in calls
                if call[0] == mode]

    def test_writes_the_three_files(self):
        result = self.calibrate()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(
            result.stdout.splitlines()[-1],
            "gpushare-sim calibrate fit %s --out calibration.yaml" % self.out)

        with open(os.path.join(self.out, "device.yaml")) as f:
            self.assertEqual(
                f.read(),
                'gpu: "NVIDIA H100 80GB HBM3"\ndriver: "12.8"\ncuda: "12.8"\n'
                'sms: 132\ncompute_capability: "9.0"\nkernel_us: 2000\n')

        header, rows = self.read_csv("throughput.csv")
        self.assertEqual(header, "blocks,processes,process,kernels,seconds")
        self.assertEqual(len(rows), 72)
        expected = [(blocks, n, p) for blocks in (132, 33)
                    for n in range(1, 9) for p in range(n)]
        self.assertEqual([(int(r["blocks"]), int(r["processes"]),
                           int(r["process"])) for r in rows], expected)
        for row in rows:
            self.assertEqual(row["kernels"], "50")
            self.assertGreaterEqual(float(row["seconds"]), 0.1)

        header, rows = self.read_csv("latency.csv")
        self.assertEqual(header, "corunners,corunner_blocks,sample,latency_us")
        self.assertEqual(len(rows), 25)
        self.assertEqual(
            [(r["corunners"], r["corunner_blocks"], r["sample"],
              r["latency_us"]) for r in rows],
            [(str(k), "132", str(s), "%d.000" % (100 + 1000 * k))
             for k in range(5) for s in range(5)])
        self.assertEqual(
            [name for name in os.listdir(self.state)
             if name.startswith("spin.")], [], "co-runners left running")

        throughput = self.calls("throughput")
        self.assertEqual(len(throughput), 72)
        self.assertEqual(self.calls("iterations"),
                         [{"--blocks": "132", "--kernel-us": "2000"}])
        first = 0
        for blocks in ("132", "33"):
            for n in range(1, 9):
                run = throughput[first:first + n]
                first += n
                self.assertEqual(
                    {(a["--blocks"], a["--seconds"], a["--kernel-us"],
                      a["--iterations"]) for a in run},
                    {(blocks, "0.1", "2000", str(ITERATIONS))})
                self.assertEqual(len({a["--start-at-ns"] for a in run}), 1)
        spins = self.calls("spin")
        self.assertEqual(len(spins), 0 + 1 + 2 + 3 + 4)
        for spin in spins:
            self.assertEqual(spin["--blocks"], "132")
            self.assertEqual(spin["--iterations"], str(ITERATIONS))
        self.assertEqual(
            [(p["--samples"], p["--interval-ms"]) for p in self.calls("probe")],
            [("5", "5")] * 5)

    def test_quarter_gpu_is_at_least_one_block(self):
        result = self.calibrate(FAKE_SMS="3", CAL_SAMPLES="1",
                                CAL_KERNEL_US="500.5")
        self.assertEqual(result.returncode, 0, result.stderr)
        _, rows = self.read_csv("throughput.csv")
        self.assertEqual(sorted({r["blocks"] for r in rows}), ["1", "3"])
        _, rows = self.read_csv("latency.csv")
        self.assertEqual(len(rows), 5)
        with open(os.path.join(self.out, "device.yaml")) as f:
            self.assertIn("kernel_us: 500.5\n", f.read())

    def test_failing_worker_fails_the_script(self):
        result = self.calibrate(FAKE_THROUGHPUT="fail")
        self.assertEqual(result.returncode, 1)
        self.assertIn("fake failure", result.stderr)
        self.assertIn("throughput worker 0 of 1 failed", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out,
                                                     "throughput.csv")))

    def test_unexpected_output_fails_the_script(self):
        result = self.calibrate(FAKE_THROUGHPUT="garbage")
        self.assertEqual(result.returncode, 1)
        self.assertIn("printed 'lots of kernels'", result.stderr)

    def test_usage_errors(self):
        self.assertEqual(self.calibrate(self.out, self.worker, "x").returncode, 2)
        result = self.calibrate(CAL_SECONDS="five")
        self.assertEqual(result.returncode, 2)
        self.assertIn("CAL_SECONDS=five", result.stderr)
        result = self.calibrate(self.out, self.path("no-such-worker"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("no worker at", result.stderr)


if __name__ == "__main__":
    main()
