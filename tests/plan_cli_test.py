"""End-to-end tests of `gpushare-sim plan`: the plan it writes with --out
replays under `run` with the class results it reports and meets every
constraint it reports as met; it never costs more than a feasible
single-scheme `compare` variant in its space; same plan on 1 and N threads;
bad `plan:` input exits 2 at file:line:col with nothing written; a plan that
cannot meet its constraints exits 3 and says what it misses.

Run as: python3 tests/plan_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import re
import tempfile
import unittest

from cli_harness import DATA_DIR, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, "examples", "default.yaml")
SIZING = os.path.join(ROOT, "examples", "plan-sizing.yaml")
IMPORT = os.path.join(ROOT, "examples", "kubectl-import.yaml")

TWO_SERVICES = """\
name: two-services
seed: 7
horizon_s: 7200
cluster:
  pools:
    - {name: serve, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
workload:
  horizon_s: 10
  classes:
    - {name: svc, class: inference, count: 2, gpus: 1, gpu_memory_mib: 30000,
       sm_demand: 0.3, duty: 0.5, work_s: 0, lifetime_s: 7000,
       request_rate: 5, gpu_ms_per_request: 5, slo_p99_ms: 1000,
       cpu_milli: 4000, memory_mib: 8192}
plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: [exclusive]}
"""


# About 11 one-GPU batch jobs on exclusive nodes of one GPU, judged on their
# mean wait; measured with `run --seed S` on N nodes (mean wait, s):
#   nodes   seed 21   seed 22   seed 23   mean of 3
#     3      225.8      82.5     474.4     260.9
#     4       55.0       3.1      38.3      32.1
# Under 250 s, 3 nodes meet the limit on seed 21 (all --seeds 1 sees) but
# not on the mean of seeds 21-23: --seeds 3 must answer 4 nodes itself and
# name the 3-node plan with seed 23. Under 500 s, 3 nodes hold on all three.
SEEDS_EDGE = """\
name: seeds-edge
seed: 21
horizon_s: 14400
cluster:
  pools:
    - {name: train, gpu: A100-80GB, nodes: 4, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
workload:
  horizon_s: 7200
  classes:
    - {name: jobs, class: batch, arrival_rate_per_s: 0.0012, gpus: 1,
       gpu_memory_mib: 20000, sm_demand: 0.8, duty: 0.9,
       work_s: {exponential: 1800}, cpu_milli: 4000, memory_mib: 8192}
plan:
  pools:
    train: {nodes: {min: 1, max: 8}, schemes: [exclusive]}
  constraints:
    classes:
      jobs: {max_mean_wait_s: LIMIT}
"""

# Notebooks through a Kueue ClusterQueue (tests/data/plan/quota-bound.yaml);
# PINNED marks where a test may pin the quota.
with open(os.path.join(DATA_DIR, "plan", "quota-bound.yaml"),
          encoding="utf-8") as _f:
    NOTEBOOKS_QUEUE = _f.read().replace("  constraints:",
                                        "PINNED  constraints:", 1)


def plan_json_chosen_from(path):
    with open(path) as f:
        return json.load(f)["chosen_from"]


def class_results(pods_csv):
    """Per tenant class: pods, mean wait over started pods, OOM kills."""
    out = {}
    with open(pods_csv, newline="") as f:
        for row in csv.DictReader(f):
            c = out.setdefault(row["tenant_class"],
                               {"pods": 0, "waits": [], "oom": 0})
            c["pods"] += 1
            if float(row["wait_s"]) >= 0:
                c["waits"].append(float(row["wait_s"]))
            c["oom"] += int(row["oom_kills"])
    for c in out.values():
        c["mean_wait_s"] = (sum(c["waits"]) / len(c["waits"])
                            if c["waits"] else 0)
    return out


class PlanCliTest(unittest.TestCase):

    def test_default_plan_replays_and_meets_what_it_reports(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "plan")
            report = os.path.join(tmp, "plan.json")
            html = os.path.join(tmp, "plan.html")
            code, stdout, stderr = run("plan", "--quiet", DEFAULT, "--out",
                                       out, "--json", report, "--html", html)
            self.assertEqual(code, 0, stderr)
            lines = stdout.splitlines()
            self.assertEqual(lines[0], "Plan for default (seed 42, 5271 pods)")
            self.assertTrue(lines[2].startswith("Recommended plan: $"))
            for name in ("scenario.yaml", "README.md", "node-setup.sh",
                         "pod-patches.yaml"):
                self.assertTrue(os.path.isfile(os.path.join(out, name)), name)
            with open(report) as f:
                plan = json.load(f)
            self.assertEqual(plan["schema"], "gpushare-sim/plan/v1")
            chosen = plan["chosen"]
            self.assertTrue(chosen["feasible"])
            self.assertTrue(all(c["met"] for c in chosen["checks"]))
            self.assertLessEqual(chosen["gpus"], 256)
            # Never dearer than a feasible single-scheme variant.
            for ref in plan["references"]:
                if ref["feasible"] and ref["in_space"]:
                    self.assertLessEqual(chosen["cost_per_hour"],
                                         ref["cost_per_hour"] + 1e-9,
                                         ref["name"])
            self.assertGreater(len(plan["search_log"]), 50)
            for probe in plan["search_log"]:
                self.assertEqual(probe["feasible"], not probe["missed"])
            # Judged on three seeds (the default): replaying the emitted
            # plan on seeds 42, 43 and 44 gives, on average, the results it
            # reports.
            self.assertEqual(chosen["seeds"], 3)
            self.assertIn(" Judged on the mean of 3 seeds; it meets every "
                          "constraint on ", stdout.replace("\n", " "))
            replays = []
            for seed in ("42", "43", "44"):
                csv_dir = os.path.join(tmp, "csv" + seed)
                code, _, stderr = run("run", "--quiet", os.path.join(
                    out, "scenario.yaml"), "--seed", seed, "--csv", csv_dir)
                self.assertEqual(code, 0, stderr)
                replays.append(class_results(os.path.join(csv_dir,
                                                          "pods.csv")))
            checked = 0
            for check in chosen["checks"]:
                c = check["tenant_class"]
                if check["constraint"] == "max_mean_wait_s":
                    mean_wait = sum(r[c]["mean_wait_s"]
                                    for r in replays) / len(replays)
                    self.assertAlmostEqual(mean_wait, check["value"],
                                           places=6)
                    self.assertLessEqual(mean_wait, check["limit"])
                    checked += 1
                if check["constraint"] == "max_oom_kills":
                    self.assertEqual(
                        round(sum(r[c]["oom"] for r in replays) /
                              len(replays)), check["value"])
            self.assertEqual(checked, 4)
            with open(html) as f:
                page = f.read()
            self.assertIn("Recommended plan", page)
            self.assertIn('data-chart="frontier-prod"', page)

    def test_sizing_example_sizes_within_its_ranges(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "p.json")
            code, stdout, stderr = run("plan", "--quiet", SIZING, "--json",
                                       report)
            self.assertEqual(code, 0, stderr)
            with open(report) as f:
                plan = json.load(f)
        self.assertTrue(plan["chosen"]["feasible"])
        ranges = {"serve": (1, 6), "tune": (1, 10)}
        for pool in plan["pools"]:
            lo, hi = ranges[pool["pool"]]
            self.assertTrue(lo <= pool["nodes"] <= hi, pool)
        self.assertLessEqual(plan["chosen"]["gpus"], 80)
        # One request per class (issue 37): HAMi's vGPUs ask each class's
        # largest footprint, and no single scheme meets every constraint.
        self.assertIn("No single scheme on today's nodes meets them",
                      stdout.replace("\n", " "))

    def test_seeds_option_judges_on_that_many_seeds(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "p.json")
            code, stdout, stderr = run("plan", "--quiet", SIZING, "--seeds",
                                       "2", "--json", report)
            self.assertEqual(code, 0, stderr)
            with open(report) as f:
                plan = json.load(f)
        text = " ".join(stdout.split())
        for outcome in [plan["chosen"]] + plan["references"]:
            self.assertEqual(outcome["seeds"], 2, outcome["name"])
            self.assertLessEqual(outcome["seeds_feasible"], 2)
        self.assertEqual(plan["chosen"]["seeds_feasible"], 2)
        self.assertIn("Judged on the mean of 2 seeds; it meets every "
                      "constraint on 2 of them.", text)

    def test_same_plan_on_one_and_two_threads(self):
        with tempfile.TemporaryDirectory() as tmp:
            texts = []
            for threads in ("1", "2"):
                path = os.path.join(tmp, f"p{threads}.json")
                code, stdout, stderr = run("plan", "--quiet", SIZING,
                                           "--threads", threads, "--json",
                                           path)
                self.assertEqual(code, 0, stderr)
                with open(path) as f:
                    texts.append((stdout, f.read()))
            self.assertEqual(texts[0], texts[1])

    def test_budget_stops_the_search_and_falls_back_to_a_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.json")
            # A services wait limit that vGPU (HAMi) alone meets (825 s on
            # the mean of the seeds): a feasible reference to fall back to.
            scenario = os.path.join(tmp, "sizing.yaml")
            with open(SIZING) as f:
                text = f.read()
            relaxed = text.replace(
                "services: {min_slo_attainment: 0.99, max_mean_wait_s: 30}",
                "services: {min_slo_attainment: 0.99, max_mean_wait_s: 900}")
            self.assertNotEqual(relaxed, text)
            with open(scenario, "w") as f:
                f.write(relaxed)
            code, stdout, stderr = run("plan", "--quiet", scenario,
                                       "--budget-s", "0.000001", "--json",
                                       path)
            self.assertEqual(code, 0, stderr)
            with open(path) as f:
                plan = json.load(f)
        self.assertTrue(plan["budget_exhausted"])
        self.assertEqual(plan["search_log"], [])
        self.assertIn("Search stopped at --budget-s", stdout)
        # Nothing searched: the cheapest feasible reference is the answer.
        feasible = [r for r in plan["references"]
                    if r["feasible"] and r["in_space"]]
        self.assertTrue(feasible)
        cheapest = min(r["cost_per_hour"] for r in feasible)
        self.assertTrue(plan["chosen"]["feasible"])
        self.assertAlmostEqual(plan["chosen"]["cost_per_hour"], cheapest)
        self.assertNotEqual(plan["chosen_from"], "search")

    def test_bad_plan_input_is_located_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.yaml")
            with open(path, "w") as f:
                f.write(TWO_SERVICES.replace("nodes: {min: 1, max: 3}",
                                             "nodes: {min: 3, max: 1}"))
            out = os.path.join(tmp, "out")
            code, stdout, stderr = run("plan", path, "--out", out)
            self.assertEqual(code, 2)
            self.assertEqual(stdout, "")
            self.assertRegex(stderr, r"bad\.yaml:17:\d+: plan\.pools\.serve\."
                             r"nodes: min 3 is above max 1")
            self.assertFalse(os.path.exists(out))
            with open(path, "w") as f:
                f.write(TWO_SERVICES.replace("serve: {", "serv: {"))
            code, stdout, stderr = run("plan", path)
            self.assertEqual(code, 2)
            self.assertIn("unknown node pool 'serv'", stderr)

    def test_constraints_that_cannot_be_met_exit_3(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tight.yaml")
            with open(path, "w") as f:
                f.write(TWO_SERVICES +
                        "  constraints:\n    cluster: {max_gpus: 1}\n")
            code, stdout, stderr = run("plan", "--quiet", path)
            self.assertEqual(code, 3, stderr)
            self.assertIn("none meets them all", " ".join(stdout.split()))
            self.assertIn("Missed:", stdout)

    def test_exit_3_writes_no_configuration_unless_forced(self):
        # A p99 SLO of 1 ms that 5 ms requests can never meet: every setting
        # of the pool misses it at every node count.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "slo.yaml")
            with open(path, "w") as f:
                f.write(TWO_SERVICES.replace("slo_p99_ms: 1000",
                                             "slo_p99_ms: 1"))
            out = os.path.join(tmp, "plan")
            report = os.path.join(tmp, "plan.json")
            code, stdout, stderr = run("plan", "--quiet", path, "--out", out,
                                       "--json", report)
            self.assertEqual(code, 3, stderr)
            text = " ".join(stdout.split())
            self.assertIn("serve: none of its 1 setting met its classes' "
                          "constraints at any node count tried (up to 3); "
                          "they missed svc min_slo_attainment (1 of 1, at "
                          "best 0 < 0.99)", text)
            self.assertIn(f"Wrote nothing to {out}: the plan misses 1 "
                          "constraint (exit status 3). --force writes its "
                          "configuration anyway.", text)
            self.assertFalse(os.path.exists(out))
            # The report of what is missed is written.
            with open(report) as f:
                self.assertFalse(json.load(f)["chosen"]["feasible"])
            code, stdout, stderr = run("plan", "--quiet", path, "--out", out,
                                       "--force")
            self.assertEqual(code, 3, stderr)
            self.assertIn("Wrote the plan's configuration", stdout)
            with open(os.path.join(out, "scenario.yaml")) as f:
                self.assertIn("# It misses constraints (written with "
                              "--force): svc min_slo_attainment 0 < 0.99",
                              f.read())
            code, stdout, stderr = run("plan", "--help")
            self.assertEqual(code, 0, stderr)
            self.assertIn("--force", stdout)
            self.assertIn("3 no plan meets every constraint", stdout)

    def test_closest_plan_strands_no_pod_that_runs_today(self):
        # Nothing meets every constraint on the imported cluster when only
        # one of its L4 nodes is the research team's: the new notebooks
        # select that node (team=research), and the nodes a grown L4 group
        # adds carry only the labels all its nodes share (the default range,
        # up to 4 nodes, is tried). MPS x4 on the L4 pool queues them less
        # but leaves the whole-GPU pods of ml and research with no replica
        # large enough: the closest plan must not strand them.
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(ROOT, "examples", "kubectl",
                                   "nodes.json")) as f:
                nodes = json.load(f)
            for node in nodes["items"]:
                if node["metadata"]["name"] == "gpu-l4-0":
                    del node["metadata"]["labels"]["team"]
                    node["spec"] = {}
            with open(os.path.join(tmp, "nodes.json"), "w") as f:
                json.dump(nodes, f)
            with open(IMPORT) as f:
                text = f.read()
            text = text[:text.index("\nplan:")].replace(
                "file: kubectl/pods.json",
                "file: " + os.path.join(ROOT, "examples", "kubectl",
                                        "pods.json")).replace(
                "file: kubectl/nodes.json", "file: nodes.json")
            scenario = os.path.join(tmp, "import.yaml")
            with open(scenario, "w") as f:
                f.write(text)
            out = os.path.join(tmp, "plan.json")
            code, stdout, stderr = run("plan", "--quiet", scenario,
                                       "--json", out)
            self.assertEqual(code, 3, stderr)
            text = " ".join(stdout.split())
            self.assertIn("none meets them all", text)
            self.assertIn("the closest to the constraints", text)
            self.assertNotIn("cheaper that meets every constraint", text)
            # The pool none of whose settings fits says what they missed.
            self.assertRegex(text, r"l4-x4-time-slicing: none of its \d+ "
                             r"settings met its classes' constraints at any "
                             r"node count tried \(up to 4\); they missed "
                             r"new-notebooks max_mean_wait_s \(\d+ of \d+, "
                             r"at best [\d.]+ > 300\)")
            # Judged on the seeds as the references are, the search finds
            # a plan as close as the vGPU (HAMi) reference's and keeps it.
            self.assertEqual(plan_json_chosen_from(out), "search")
            self.assertNotIn("The search found no plan cheaper", text)
            self.assertNotIn("plan plan", text)
            self.assertIn("it meets every constraint on 0 of them (too close "
                          "to the limits to rely on)", text)
            with open(out) as f:
                plan = json.load(f)
            missed = [(c["tenant_class"], c["constraint"])
                      for c in plan["chosen"]["checks"] if not c["met"]]
            self.assertTrue(missed)
            self.assertNotIn("max_cannot_run", [c for _, c in missed])
            mps = [r for r in plan["references"] if r["name"] == "mps"]
            self.assertEqual(len(mps), 1)
            self.assertIn("max_cannot_run",
                          [c["constraint"] for c in mps[0]["checks"]
                           if not c["met"]])


class PlanSeedsAndQuotasTest(unittest.TestCase):

    def plan(self, tmp, text, *args):
        path = os.path.join(tmp, "s.yaml")
        with open(path, "w") as f:
            f.write(text)
        report = os.path.join(tmp, "p.json")
        code, stdout, stderr = run("plan", "--quiet", path, "--json", report,
                                   *args)
        with open(report) as f:
            return code, " ".join(stdout.split()), json.load(f)

    def test_seeds_judge_every_probe_and_name_what_they_reject(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = SEEDS_EDGE.replace("LIMIT", "250")
            code, one_text, one = self.plan(tmp, text, "--seeds", "1")
            self.assertEqual(code, 0)
            self.assertEqual(one["pools"][0]["nodes"], 3)
            html = os.path.join(tmp, "p.html")
            code, stdout, three = self.plan(tmp, text, "--seeds", "3",
                                            "--html", html)
            self.assertEqual(code, 0)
            with open(html) as f:
                page = f.read()
        # The search itself answers 4 nodes (not today's plan for want of
        # a cheaper one), and says why not 3: seed 23's 474.4 s.
        self.assertEqual(three["chosen_from"], "search")
        self.assertEqual(three["pools"][0]["nodes"], 4)
        self.assertTrue(all(p["seeds"] == 3 for p in three["search_log"]))
        self.assertEqual(len(three["rejected"]), 1)
        rejected = three["rejected"][0]
        self.assertEqual((rejected["pool"], rejected["setting"],
                          rejected["nodes"], rejected["seeds_feasible"]),
                         ("train", "exclusive", 3, 2))
        self.assertEqual([m["seed"] for m in rejected["seed_misses"]], [23])
        self.assertEqual(rejected["seed_misses"][0]["missed"][0]["constraint"],
                         "max_mean_wait_s")
        self.assertIn("Cheaper settings rejected", stdout)
        self.assertIn("train exclusive x3 ($12.00/h): met on 2 of 3 seeds; "
                      "jobs max_mean_wait_s > 250 on the mean of 3 seeds "
                      "(260.9) and on seed 23 (474.4)", stdout)
        # The one-node-fewer line is the answer's, with its seed.
        self.assertIn("train: with 3 nodes: jobs max_mean_wait_s > 250 on "
                      "the mean of 3 seeds (260.9) and on seed 23 (474.4)",
                      stdout)
        self.assertNotIn("plan plan", stdout)
        self.assertIn("Cheaper settings rejected", page)
        # A 3-node plan that holds on every seed is kept.
        with tempfile.TemporaryDirectory() as tmp:
            code, _, kept = self.plan(tmp, SEEDS_EDGE.replace("LIMIT", "500"),
                                      "--seeds", "3")
        self.assertEqual(code, 0)
        self.assertEqual(kept["pools"][0]["nodes"], 3)
        self.assertEqual(kept["chosen"]["seeds_feasible"], 3)
        self.assertEqual(kept["rejected"], [])

    def test_quotas_grow_with_the_pool_unless_pinned(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            code, stdout, plan = self.plan(
                tmp, NOTEBOOKS_QUEUE.replace("PINNED", ""), "--out", out)
            self.assertEqual(code, 0, stdout)
            nodes = plan["pools"][0]["nodes"]
            self.assertTrue(4 < nodes < 8, nodes)
            # The quota follows the pool: 4 GPUs per node, in the plan's
            # scenario and in the Kueue manifest it writes.
            with open(os.path.join(out, "kueue-queues.yaml")) as f:
                kueue = f.read()
            self.assertIn('- name: nvidia.com/gpu\n        nominalQuota: "%d"'
                          % (4 * nodes), kueue)
            with open(os.path.join(out, "scenario.yaml")) as f:
                self.assertIn("{name: nvidia.com/gpu, nominal_quota: %d}"
                              % (4 * nodes), f.read())
            self.assertIn("note: ClusterQueue notebooks flavor l40s: quota "
                          "scaled with its pools' nodes: nvidia.com/gpu 16 "
                          "to %d" % (4 * nodes), stdout)
            self.assertEqual(plan["chosen"]["quota_bound"], [])
        with tempfile.TemporaryDirectory() as tmp:
            code, stdout, pinned = self.plan(
                tmp, NOTEBOOKS_QUEUE.replace(
                    "PINNED", "  pinned_quotas: [notebooks]\n"))
        self.assertEqual(code, 3)
        bound = pinned["chosen"]["quota_bound"]
        self.assertEqual([(b["tenant_class"], b["queue"], b["pinned"])
                          for b in bound], [("notebooks", "notebooks", True)])
        self.assertIn("notebooks is quota-bound:", stdout)
        self.assertIn("more nodes do not shorten it while plan.pinned_quotas "
                      "keeps its quota", stdout)

    def test_run_splits_admission_from_scheduling_wait(self):
        # On 6 nodes (24 GPUs) the queue's 16 GPUs hold the notebooks while
        # 8 GPUs sit idle: the wait is all admission wait, and run warns.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.yaml")
            with open(path, "w") as f:
                f.write(NOTEBOOKS_QUEUE.replace("PINNED", "").replace(
                    "nodes: 4,", "nodes: 6,"))
            csv_dir = os.path.join(tmp, "csv")
            report = os.path.join(tmp, "r.json")
            code, stdout, stderr = run("run", "--quiet", path, "--csv",
                                       csv_dir, "--json", report)
            self.assertEqual(code, 0, stderr)
            with open(report) as f:
                doc = json.load(f)
            with open(os.path.join(csv_dir, "pods.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
        text = " ".join(stdout.split())
        self.assertIn("WAIT ADMIT SCHED", text)
        self.assertIn("warning: ClusterQueue notebooks sat at its nominal "
                      "quota with workloads waiting while its flavors' nodes "
                      "had room for them in", text)
        self.assertIn("free nvidia.com/gpu on average then", text)
        queue = doc["queues"][0]
        self.assertGreater(queue["idle_at_quota_samples"], 0)
        self.assertEqual(queue["samples"],
                         len(doc["pools"][0]["samples"]))
        started = [p for p in doc["pod_records"] if p["wait_s"] >= 0]
        self.assertTrue(started)
        for p in started:
            # Admitted, then started at once: the GPUs were there.
            self.assertGreaterEqual(p["admission_wait_s"], 0)
            self.assertAlmostEqual(p["admission_wait_s"], p["wait_s"],
                                   places=6)
        self.assertEqual(len(rows), len(doc["pod_records"]))
        self.assertEqual([float(r["admission_wait_s"]) for r in rows],
                         [p["admission_wait_s"] for p in doc["pod_records"]])

if __name__ == "__main__":
    main()
