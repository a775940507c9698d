"""End-to-end tests of `gpushare-sim sweep`, `merge` and `emit sweep-job`:
shards joined by merge, and the emitted Indexed Job played locally, give
the bytes of one unsharded sweep; a sweep resumes; bad grids and folders of
another sweep exit 2 and leave nothing.

Run as: python3 tests/sweep_cli_test.py --binary /path/to/gpushare-sim
"""

import filecmp
import os
import shutil
import subprocess
import unittest

import yaml

from cli_harness import TempDirTestCase, binary, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRID = os.path.join(ROOT, "examples", "sweep-time-slicing.yaml")
SCENARIO = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")


def read(path):
    with open(path, "rb") as f:
        return f.read()


class SweepTest(TempDirTestCase):

    def sweep(self, out, *extra):
        code, stdout, stderr = run("sweep", "--grid", GRID, "--out", out,
                                   "--quiet", *extra)
        self.assertEqual(code, 0, stderr)
        return stdout

    def assertSameSweep(self, a, b):
        for name in ("summary.csv", "classes.csv", "pools.csv"):
            self.assertEqual(os.path.exists(os.path.join(a, name)),
                             os.path.exists(os.path.join(b, name)), name)
            if not os.path.exists(os.path.join(a, name)):
                continue
            self.assertEqual(read(os.path.join(a, name)),
                             read(os.path.join(b, name)), name)
        cmp = filecmp.dircmp(os.path.join(a, "points"),
                             os.path.join(b, "points"))
        self.assertEqual(cmp.left_only + cmp.right_only + cmp.diff_files, [])

    def test_shards_and_merge_give_the_bytes_of_one_sweep(self):
        whole = self.path("whole")
        stdout = self.sweep(whole, "--threads", "2")
        self.assertIn("63 points; 63 run now", stdout)
        summary = read(os.path.join(whole, "summary.csv")).decode()
        lines = summary.splitlines()
        self.assertEqual(len(lines), 64)
        self.assertTrue(lines[0].startswith(
            "point,cluster.pools[l4].sharing.replicas,"
            "workload.classes[notebooks].arrival_rate_per_s,seed,variant,"
            "scheme,pods,"))
        self.assertTrue(lines[1].startswith("0,2,0.02,1,scenario,"))
        self.assertTrue(lines[63].startswith("62,8,0.08,3,scenario,"))
        # Four processes at once, one shard each.
        procs = [subprocess.Popen(
            [binary(), "sweep", "--grid", GRID, "--shard", f"{i}/4",
             "--out", self.path(f"s{i}"), "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for i in range(4)]
        for p in procs:
            _, err = p.communicate(timeout=60)
            self.assertEqual(p.returncode, 0, err)
        self.assertEqual(len(os.listdir(self.path("s1") + "/points")), 16)
        self.assertFalse(os.path.exists(self.path("s1") + "/summary.csv"))
        code, stdout, stderr = run("merge", *[self.path(f"s{i}")
                                              for i in range(4)],
                                   "--out", self.path("merged"))
        self.assertEqual(code, 0, stderr)
        self.assertIn("merged 63 points", stdout)
        self.assertSameSweep(whole, self.path("merged"))

    def test_merge_names_missing_and_duplicated_points(self):
        for i in range(3):
            self.sweep(self.path(f"s{i}"), "--shard", f"{i}/3")
        out = self.path("merged")
        code, _, stderr = run("merge", self.path("s0"), self.path("s2"),
                              "--out", out)
        self.assertEqual(code, 2)
        self.assertIn("the sweep has 63 points, 42 are here; missing points "
                      "1, 4, 7", stderr)
        shutil.copy(os.path.join(self.path("s0"), "points",
                                 "point-000003.json"),
                    os.path.join(self.path("s1"), "points"))
        code, _, stderr = run("merge", self.path("s0"), self.path("s1"),
                              self.path("s2"), "--out", out)
        self.assertEqual(code, 2)
        self.assertIn("point 3 is there twice", stderr)
        self.assertFalse(os.path.exists(out))

    def test_resume_runs_only_missing_points(self):
        out = self.path("out")
        self.sweep(out)
        before = read(os.path.join(out, "summary.csv"))
        for p in (0, 10, 62):
            os.remove(os.path.join(out, "points", f"point-{p:06d}.json"))
        stdout = self.sweep(out)
        self.assertIn("3 run now, 60 already in", stdout)
        self.assertEqual(read(os.path.join(out, "summary.csv")), before)

    def test_a_folder_of_another_sweep_is_refused(self):
        out = self.path("out")
        self.sweep(out)
        other = self.write("other.yaml", (
            f"scenario: {SCENARIO}\ncross:\n  seed: [1, 4]\n"))
        code, stdout, stderr = run("sweep", "--grid", other, "--out", out,
                                   "--quiet")
        self.assertEqual(code, 2)
        self.assertEqual(stdout, "")
        self.assertIn("point-000000.json belongs to another sweep", stderr)

    def test_bad_grids_exit_2_and_write_nothing(self):
        cases = [
            ("cross:\n  cluster.pools[l4].sharing.replicas: [2, 1]\n",
             "g.yaml:2:43: cross 'cluster.pools[l4].sharing.replicas' = 1:",
             "replicas must be at least 2"),
            ("cross:\n  cluster.pools[v100].nodes: [1]\n", "g.yaml:2:3:",
             "no item named 'v100' in 'cluster.pools' (names: l4, a10)"),
            ("cross:\n  seed: 3\n", "g.yaml:2:9:",
             "expected a list of values or a range"),
            ("command: plan\ncross: {seed: [1]}\n", "g.yaml:1:10:",
             "expected run or compare"),
        ]
        for text, where, phrase in cases:
            grid = self.write("g.yaml", text)
            out = self.path("never")
            code, stdout, stderr = run("sweep", SCENARIO, "--grid", grid,
                                       "--out", out)
            self.assertEqual(code, 2, text)
            self.assertEqual(stdout, "")
            self.assertIn(where, stderr)
            self.assertIn(phrase, stderr)
            self.assertFalse(os.path.exists(out), text)
        code, _, stderr = run("sweep", "--grid", GRID, "--shard", "4/4",
                              "--out", self.path("never"))
        self.assertEqual(code, 2)
        self.assertIn("--shard '4/4': expected I/N", stderr)

    def test_points_run_as_they_are_read(self):
        # 10^6 points; point 1000 (the second horizon, the first seed) is
        # bad. Points are read in order as they run, so the 1000 before it
        # run (their files are then removed) and no later one is read: the
        # error says how far the sweep got, on any thread count. A sweep
        # that read every point before running any would run none.
        horizons = ", ".join(["600", "-1"] + ["600"] * 998)
        grid = self.write("g.yaml", (
            f"set:\n  workload.horizon_s: 60\ncross:\n"
            f"  horizon_s: [{horizons}]\n  seed: {{from: 1, to: 1000}}\n"))
        out = self.path("never")
        code, stdout, stderr = run("sweep", SCENARIO, "--grid", grid,
                                   "--out", out, "--threads", "2",
                                   "--quiet")
        self.assertEqual(code, 2, stderr)
        self.assertEqual(stdout, "")
        self.assertIn("g.yaml:4:20: cross 'horizon_s' = -1: scenario "
                      "horizon_s: -1 is out of range", stderr)
        self.assertIn("the sweep stopped there: 1000 points had run; the "
                      "point files this run wrote are removed", stderr)
        self.assertFalse(os.path.exists(out))

    def test_compare_sweep_names_each_class_winner(self):
        grid = self.write("g.yaml", (
            "command: compare\nset:\n  workload.horizon_s: 600\n"
            "  compare.schemes: [exclusive, time-slicing, mps]\n"
            "cross:\n  cluster.pools[l4].nodes: [1, 3]\n"))
        out = self.path("out")
        code, stdout, stderr = run("sweep", SCENARIO, "--grid", grid,
                                   "--out", out, "--quiet")
        self.assertEqual(code, 0, stderr)
        self.assertIn("(compare): 2 points", stdout)
        self.assertIn("pools.csv", stdout)
        lines = read(os.path.join(out, "summary.csv")).decode().splitlines()
        variants = {}
        for line in lines[1:]:
            variants.setdefault(line.split(",")[0], []).append(
                line.split(",")[2])
        wins = [line.rsplit(",", 1)[1] for line in lines[1:4]]
        self.assertTrue(any(wins), lines)
        # The winners settled per pool: one row per point and pool; where
        # the pools then mix schemes, the mix is run as "pool-plan".
        pools = read(os.path.join(out, "pools.csv")).decode().splitlines()
        self.assertEqual(pools[0], "point,cluster.pools[l4].nodes,pool,"
                         "written,scheme,conflict,pods,pods_ok,score")
        self.assertEqual(len(pools), 1 + 2 * 2)
        schemes = {}
        for line in pools[1:]:
            cells = line.split(",")
            self.assertIn(cells[2], ("l4", "a10"))
            self.assertEqual(cells[3], "time-slicing")
            self.assertIn(cells[4], ("exclusive", "time-slicing", "mps"))
            schemes.setdefault(cells[0], set()).add(cells[4])
        mixed = [p for p, s in schemes.items() if len(s) > 1]
        self.assertTrue(mixed, pools)  # this grid has a mixed point
        for point, names in variants.items():
            self.assertEqual(names[:3], ["exclusive", "time-slicing", "mps"])
            self.assertEqual(names[3:],
                             ["pool-plan"] if point in mixed else [], point)
        # Two shards and their merge give the same tables.
        shards = [self.path(f"s{i}") for i in range(2)]
        for i, shard in enumerate(shards):
            code, _, stderr = run("sweep", SCENARIO, "--grid", grid, "--out",
                                  shard, "--quiet", "--shard", f"{i}/2")
            self.assertEqual(code, 0, stderr)
        merged = self.path("merged")
        code, stdout, stderr = run("merge", *shards, "--out", merged)
        self.assertEqual(code, 0, stderr)
        self.assertIn("pools.csv", stdout)
        self.assertSameSweep(out, merged)


class SweepJobTest(TempDirTestCase):

    def emit(self, *args):
        code, stdout, stderr = run("emit", "sweep-job", "--grid", GRID,
                                   "--image", "registry.example.com/gs:1",
                                   *args)
        self.assertEqual(code, 0, stderr)
        return list(yaml.safe_load_all(stdout))

    def play(self, pod_spec, index, input_dir, results_dir):
        """Runs the Job's container as the kubelet would, index `index`,
        with the volumes at local folders."""
        container = pod_spec["containers"][0]
        args = [a.replace("$(JOB_COMPLETION_INDEX)", str(index))
                .replace("/input", input_dir).replace("/results", results_dir)
                for a in container["args"]]
        if container["command"] == ["gpushare-sim"]:
            result = subprocess.run([binary(), *args], capture_output=True,
                                    check=False, timeout=60)
        else:
            self.assertEqual(container["command"], ["sh", "-c"])
            script = args[0].replace("gpushare-sim", binary())
            result = subprocess.run(["sh", "-c", script], capture_output=True,
                                    check=False, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_the_job_played_locally_gives_the_bytes_of_one_sweep(self):
        docs = self.emit("--shards", "3", "--parallelism", "2")
        kinds = [d["kind"] for d in docs]
        self.assertEqual(kinds, ["ConfigMap", "PersistentVolumeClaim", "Job"])
        config_map, claim, job = docs
        self.assertEqual(config_map["data"]["scenario.yaml"].encode(),
                         read(SCENARIO))
        self.assertEqual(config_map["data"]["grid.yaml"].encode(), read(GRID))
        self.assertEqual(claim["spec"]["accessModes"], ["ReadWriteMany"])
        spec = job["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        self.assertEqual(spec["completions"], 3)
        self.assertEqual(spec["parallelism"], 2)
        pod = spec["template"]["spec"]
        self.assertEqual(pod["restartPolicy"], "Never")
        self.assertIn("$(JOB_COMPLETION_INDEX)/3", pod["containers"][0]["args"])
        volumes = {v["name"]: v for v in pod["volumes"]}
        self.assertEqual(volumes["input"]["configMap"]["name"],
                         config_map["metadata"]["name"])
        self.assertEqual(volumes["results"]["persistentVolumeClaim"]
                         ["claimName"], claim["metadata"]["name"])
        # The ConfigMap mounted, each index run, then the merge Job.
        input_dir = self.path("input")
        os.mkdir(input_dir)
        for key, text in config_map["data"].items():
            with open(os.path.join(input_dir, key), "w") as f:
                f.write(text)
        results = self.path("results")
        os.mkdir(results)
        for i in range(3):
            self.play(pod, i, input_dir, results)
        merge_docs = self.emit("--shards", "3", "--merge")
        self.assertEqual([d["kind"] for d in merge_docs], ["Job"])
        self.play(merge_docs[0]["spec"]["template"]["spec"], 0, input_dir,
                  results)
        whole = self.path("whole")
        code, _, stderr = run("sweep", "--grid", GRID, "--out", whole,
                              "--quiet")
        self.assertEqual(code, 0, stderr)
        for name in ("summary.csv", "classes.csv"):
            self.assertEqual(read(os.path.join(results, "merged", name)),
                             read(os.path.join(whole, name)))

    def test_an_existing_claim_and_bad_flags(self):
        docs = self.emit("--shards", "2", "--results-claim", "shared-rwx",
                         "--namespace", "sim", "--name", "ts-sweep")
        self.assertEqual([d["kind"] for d in docs], ["ConfigMap", "Job"])
        self.assertEqual(docs[1]["metadata"]["namespace"], "sim")
        self.assertEqual(docs[1]["spec"]["template"]["spec"]["volumes"][1]
                         ["persistentVolumeClaim"]["claimName"], "shared-rwx")
        for flags, phrase in [
                (["--shards", "0"], "--shards 0: expected 1..100000"),
                (["--shards", "2", "--name", "Sweep"], "--name 'Sweep'"),
                (["--shards", "2", "--memory", "lots"], "--memory 'lots'"),
                (["--shards", "2", "--parallelism", "3"],
                 "--parallelism 3: expected 1..2")]:
            code, stdout, stderr = run("emit", "sweep-job", "--grid", GRID,
                                       "--image", "x", *flags)
            self.assertEqual(code, 2, flags)
            self.assertEqual(stdout, "")
            self.assertIn(phrase, stderr)
        trace_grid = self.write("g.yaml", (
            "scenario: " + os.path.join(ROOT, "examples",
                                        "kubectl-import.yaml") +
            "\ncross: {seed: [1, 2]}\n"))
        code, _, stderr = run("emit", "sweep-job", "--grid", trace_grid,
                              "--image", "x", "--shards", "2")
        self.assertEqual(code, 2)
        self.assertIn("the sweep reads other files (cluster.import)", stderr)


if __name__ == "__main__":
    main()
