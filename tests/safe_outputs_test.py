"""Outputs as an administrator running gpushare-sim as root needs them
(docs/reliability.md, "Outputs"): devices and FIFOs written in place and
never replaced, no link followed to a planted temporary, all outputs or none,
a set folder that holds exactly the new set, and write errors on standard
output reported.
"""

import os
import stat
import subprocess
import threading

import cli_harness
from cli_harness import TempDirTestCase, binary, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")
DEFAULT = os.path.join(ROOT, "examples", "default.yaml")
THREE_POOLS = os.path.join(ROOT, "examples", "three-pools.yaml")


def run_to(stdout_path, *args):
    """Runs gpushare-sim with standard output sent to `stdout_path`."""
    with open(stdout_path, "wb") as out:
        return subprocess.run([binary(), *args], stdout=out,
                              stderr=subprocess.PIPE, check=False,
                              timeout=cli_harness._TIMEOUT_S)


class DevicesAndStreamsTest(TempDirTestCase):

    def test_a_character_device_is_written_in_place(self):
        # A private copy of /dev/null (1, 3), so that a regression cannot
        # replace the machine's own.
        null = self.path("null")
        try:
            os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except PermissionError:
            self.skipTest("mknod needs root")
        status, _, err = run("run", SCENARIO, "--quiet", "--json", null)
        self.assertEqual(status, 0, err)
        self.assertTrue(stat.S_ISCHR(os.lstat(null).st_mode))
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["null"])

    def test_a_full_device_is_an_error_and_nothing_else_is_written(self):
        if not os.access("/dev/full", os.W_OK):
            self.skipTest("no /dev/full")
        csv = self.path("csv")
        status, out, err = run("run", SCENARIO, "--quiet", "--csv", csv,
                               "--json", "/dev/full")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("/dev/full: cannot write output: No space left", err)
        self.assertFalse(os.path.exists(csv))

    def test_dev_stdout_prints_the_output(self):
        status, out, err = run("run", SCENARIO, "--quiet", "--json",
                               "/dev/stdout")
        self.assertEqual(status, 0, err)
        self.assertTrue(out.startswith("{"), out[:80])
        self.assertIn('"schema": "gpushare-sim/run/v1"', out)

    def test_dev_stdout_redirected_to_a_file_keeps_both(self):
        path = self.path("both.txt")
        result = run_to(path, "run", SCENARIO, "--quiet", "--json",
                        "/dev/stdout")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertTrue(text.startswith("{"))
        self.assertIn("gpushare-sim/run/v1", text)
        self.assertIn("scenario dev-time-slicing", text[text.rindex("}"):])

    def test_a_fifo_is_written_in_place(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        received = []

        def read():
            with open(fifo, "rb") as f:
                received.append(f.read())

        reader = threading.Thread(target=read)
        reader.start()
        status, _, err = run("run", SCENARIO, "--quiet", "--json", fifo)
        reader.join(timeout=60)
        self.assertEqual(status, 0, err)
        self.assertTrue(received and received[0].startswith(b"{"))
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))

    def test_stdout_write_errors_exit_non_zero(self):
        if not os.access("/dev/full", os.W_OK):
            self.skipTest("no /dev/full")
        for args in (["run", SCENARIO, "--quiet"],
                     ["emit", "device-plugin", "--scenario", THREE_POOLS],
                     ["catalog"]):
            with self.subTest(args[0]):
                result = run_to("/dev/full", *args)
                self.assertEqual(result.returncode, 2)
                self.assertIn(b"error: cannot write standard output",
                              result.stderr)


class AllOrNothingTest(TempDirTestCase):

    def test_two_outputs_on_one_path_are_refused(self):
        x = self.path("x")
        status, out, err = run("run", SCENARIO, "--quiet", "--json", x,
                               "--html", x)
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("two outputs name this file", err)
        self.assertFalse(os.path.exists(x))

    def test_one_bad_output_leaves_the_others_unwritten(self):
        csv = self.path("csv")
        os.makedirs(os.path.join(csv, "pods.csv"))
        json_path = self.path("r.json")
        status, out, err = run("run", SCENARIO, "--quiet", "--json",
                               json_path, "--csv", csv)
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("pods.csv: is a folder; expected a file path", err)
        self.assertFalse(os.path.exists(json_path))
        self.assertEqual(os.listdir(csv), ["pods.csv"])

    def test_empty_output_paths_are_refused(self):
        for flag in ("--json", "--csv", "--html", "--openmetrics"):
            with self.subTest(flag):
                status, out, err = run("run", SCENARIO, "--quiet", flag, "")
                self.assertEqual(status, 2)
                self.assertEqual(out, "")
                self.assertIn(f"{flag}: expected a path, got nothing", err)
        status, _, err = run("emit", "k8s", "--scenario", THREE_POOLS,
                             "--out", "")
        self.assertEqual(status, 2)
        self.assertIn("--out: expected a path, got nothing", err)

    def test_a_planted_temporary_link_is_not_followed(self):
        victim = self.path("victim")
        with open(victim, "w", encoding="utf-8") as f:
            f.write("precious")
        os.symlink(victim, self.path("r.json.tmp"))
        status, _, err = run("run", SCENARIO, "--quiet", "--json",
                             self.path("r.json"))
        self.assertEqual(status, 0, err)
        with open(victim, encoding="utf-8") as f:
            self.assertEqual(f.read(), "precious")
        self.assertEqual(sorted(os.listdir(self.tmp.name)),
                         ["r.json", "r.json.tmp", "victim"])


class SetFolderTest(TempDirTestCase):
    """`emit k8s --out DIR` and `plan --out DIR` leave exactly the new set."""

    def listing(self, folder):
        return sorted(os.listdir(folder))

    def test_a_second_scenario_removes_the_first_ones_files(self):
        out_dir = self.path("k8s")
        status, _, err = run("emit", "k8s", "--scenario", DEFAULT, "--out",
                             out_dir)
        self.assertEqual(status, 0, err)
        first = self.listing(out_dir)
        self.assertIn("mig-parted-config.yaml", first)
        self.assertIn(".gpushare-sim-files", first)
        # dev-time-slicing has no MIG and no HAMi pool.
        status, out, err = run("emit", "k8s", "--scenario", SCENARIO,
                               "--out", out_dir)
        self.assertEqual(status, 0, err)
        second = self.listing(out_dir)
        self.assertNotIn("mig-parted-config.yaml", second)
        for gone in sorted(set(first) - set(second)):
            self.assertIn(f"removed {os.path.join(out_dir, gone)}", out)
        with open(os.path.join(out_dir, ".gpushare-sim-files"),
                  encoding="utf-8") as f:
            listed = [line for line in f.read().splitlines()
                      if line and not line.startswith("#")]
        self.assertEqual(listed, [n for n in second if not n.startswith(".")])

    def test_a_folder_with_files_not_ours_is_refused(self):
        out_dir = self.path("k8s")
        os.makedirs(out_dir)
        with open(os.path.join(out_dir, "team-quota.yaml"), "w",
                  encoding="utf-8") as f:
            f.write("kind: ResourceQuota\n")
        status, out, err = run("emit", "k8s", "--scenario", DEFAULT, "--out",
                               out_dir)
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("holds a file that gpushare-sim did not write there "
                      "(team-quota.yaml)", err)
        self.assertEqual(self.listing(out_dir), ["team-quota.yaml"])

    def test_plan_out_replaces_the_folder_contents(self):
        out_dir = self.path("plan")
        status, _, err = run("emit", "k8s", "--scenario", DEFAULT, "--out",
                             out_dir)
        self.assertEqual(status, 0, err)
        status, out, err = run("plan", SCENARIO, "--quiet", "--seeds", "1",
                               "--out", out_dir)
        self.assertIn(status, (0, 3), err)
        self.assertIn("scenario.yaml", self.listing(out_dir))
        self.assertNotIn("mig-parted-config.yaml", self.listing(out_dir))
        self.assertIn("removed " + os.path.join(out_dir,
                                                "mig-parted-config.yaml"), out)


if __name__ == "__main__":
    main()
