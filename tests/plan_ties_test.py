"""End-to-end tests of the answers `plan` gives an operator to sign (issue
54), each on a small scenario checked by hand:

- lost work weighed right: when nothing meets every constraint, notebooks
  that never started are lost work, weighed in GPU-hours, so a plan that
  leaves 6 of 10 one-slot notebooks never started is not "closer" than one
  with OOM kills that cost fewer GPU-hours;
- knife edges: a pool whose classes lose no work at N nodes but are
  OOM-killed at N-1 is flagged; a training class (memory isolation by
  default) is never put on time-slicing;
- ties keep today's setting: at equal cost with every constraint met the
  written setting stays (MIG or time-slicing alike), and a change says what
  it buys.

Run as: python3 tests/plan_ties_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os

from cli_harness import TempDirTestCase, main, run

# One L40S node of 2 GPUs (48 GB each); 9 notebooks of 11 GB and one of
# 20 GB arrive in the first 10 s of a 3-hour run, each for 2 hours.
# Exclusive runs 2 at a time: 4 start by the end, 6 never start. Time-slicing
# x4 starts all 10 (8 replicas, the last 2 once others fail), but on the GPU
# that holds the 20 GB notebook the fourth is OOM-killed at every start
# (3 x 11 + 20 = 53 GB > 48) until its restarts run out.
CLOSEST = """\
name: notebooks-closest
seed: 5
horizon_s: 10800
cluster:
  pools:
    - {name: l40s, gpu: L40S, nodes: 1, gpus_per_node: 2, cpu: 64,
       memory_gib: 512, sharing: {scheme: exclusive}}
workload:
  horizon_s: 10
  classes:
    - {name: notebooks, class: dev, count: 9, gpus: 1, gpu_memory_mib: 11000,
       sm_demand: 0.2, duty: 0.1, work_s: 0, lifetime_s: 7200,
       cpu_milli: 2000, memory_mib: 8192}
    - {name: big-notebook, class: dev, count: 1, gpus: 1,
       gpu_memory_mib: 20000, sm_demand: 0.2, duty: 0.1, work_s: 0,
       lifetime_s: 7200, cpu_milli: 2000, memory_mib: 8192}
compare:
  schemes: [exclusive, time-slicing]
  time_slicing_replicas: 4
  seeds: 1
plan:
  pools:
    l40s: {nodes: 1, schemes: [exclusive, time-slicing],
           time_slicing_replicas: [4]}
"""

# Two notebooks of FOOTPRINT MiB on time-slicing x2 nodes of one
# A100-80GB (80 GB): with 50 GB each, on 2 nodes each has a GPU to itself;
# on 1 both share one GPU and the second is OOM-killed at its start and at
# each of its 6 restarts (back-off 10+20+40+80+160+300 = 610 s), then fails
# for good: 7 OOM kills, 1 failed pod, the 7000 - 610 = 6390 s of its life
# it was not up lost (1.775 GPU-hours).
EDGE = """\
name: edge
seed: 7
horizon_s: 7200
cluster:
  pools:
    - {name: dev, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: time-slicing, replicas: 2}}
workload:
  horizon_s: 10
  classes:
    - {name: notebooks, class: dev, count: 2, gpus: 1,
       gpu_memory_mib: FOOTPRINT, sm_demand: 0.2, duty: 0.1, work_s: 0,
       lifetime_s: 7000, cpu_milli: 4000, memory_mib: 8192}
compare: {seeds: 1}
plan:
  pools:
    dev: {nodes: {min: 1, max: 3}, schemes: [time-slicing],
          time_slicing_replicas: [2]}
"""

# Two 30 GB training jobs of 8000 s on nodes of one A100-80GB: exclusive on
# one node makes the second wait 8000 s (mean 4000 s, over the 3600 s
# limit); one node of time-slicing x2 would run both (slowdown about 1.2x);
# training needs memory isolation, so exclusive on 2 nodes.
TRAINING = """\
name: iso
seed: 7
horizon_s: 14400
cluster:
  pools:
    - {name: gpu, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
workload:
  horizon_s: 10
  classes:
    - {name: ddp, class: training, count: 2, gpus: 1, gpu_memory_mib: 30000,
       sm_demand: 0.3, duty: 0.5, work_s: 8000, cpu_milli: 4000,
       memory_mib: 8192}
compare: {seeds: 1}
plan:
  pools:
    gpu: {nodes: {min: 1, max: 2}, schemes: [exclusive, time-slicing],
          time_slicing_replicas: [2]}
"""

# Two 30 GB services on nodes of one A100-80GB, written SHARING on NODES
# nodes: one node under MIG all-3g.40gb (an instance each) or time-slicing
# x2 (60 of 80 GB) serves both within their SLO at the same price;
# exclusive needs a node each.
SERVICES = """\
name: ties
seed: 7
horizon_s: 7200
cluster:
  pools:
    - {name: serve, gpu: A100-80GB, nodes: NODES, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: SHARING}
workload:
  horizon_s: 10
  classes:
    - {name: svc, class: inference, count: 2, gpus: 1, gpu_memory_mib: 30000,
       sm_demand: 0.3, duty: 0.5, work_s: 0, lifetime_s: 7000,
       request_rate: 5, gpu_ms_per_request: 5, slo_p99_ms: 1000,
       cpu_milli: 4000, memory_mib: 8192}
compare: {seeds: 1}
plan:
  pools:
    serve: {nodes: {min: 1, max: 3}, schemes: SCHEMES,
            time_slicing_replicas: [2]}
"""


class PlanTiesTest(TempDirTestCase):

    def plan(self, text, *args):
        path = self.path("s.yaml")
        with open(path, "w") as f:
            f.write(text)
        report = self.path("p.json")
        code, stdout, stderr = run("plan", "--quiet", path, "--json", report,
                                   *args)
        self.assertIn(code, (0, 3), stderr)
        with open(report) as f:
            return code, " ".join(stdout.split()), json.load(f)

    def compare(self, text):
        path = self.path("c.yaml")
        with open(path, "w") as f:
            f.write(text)
        report = self.path("c.json")
        code, stdout, stderr = run("compare", "--quiet", "--details", path,
                                   "--json",
                                   report)
        self.assertEqual(code, 0, stderr)
        with open(report) as f:
            return " ".join(stdout.split()), json.load(f)

    def test_never_started_notebooks_are_lost_work(self):
        code, text, plan = self.plan(CLOSEST)
        self.assertEqual(code, 3)  # nothing meets every constraint
        self.assertIn("the closest to the constraints", text)
        _, cmp = self.compare(CLOSEST)
        runs = {v["name"]: v["classes"] for v in cmp["variants"]}
        exclusive = runs["exclusive"]["notebooks"]
        sliced = runs["time-slicing"]["notebooks"]
        # Exclusive kills nothing but leaves 6 notebooks never started, each
        # its whole 2-hour life lost (they arrived in the run's first 10 s,
        # 3 hours before its end): 12 GPU-hours.
        self.assertEqual(exclusive["oom_kills"] + exclusive["failed"], 0)
        self.assertEqual(exclusive["pending"], 6)
        self.assertAlmostEqual(exclusive["lost_gpu_hours"], 12.0, places=6)
        # Time-slicing starts every notebook but OOM-kills some.
        self.assertGreater(sliced["oom_kills"], 0)
        self.assertGreater(sliced["failed"], 0)
        self.assertEqual(sliced["pending"], 0)
        # Its lost work by hand from the replay of the closest plan: each
        # notebook that failed for good lost the part of its 2-hour life it
        # was not up; a notebook OOM-killed at start had no session to lose.
        out = self.path("out")
        code, _, stderr = run("plan", "--quiet", self.path("s.yaml"),
                              "--out", out, "--force")
        self.assertEqual(code, 3, stderr)
        code, _, stderr = run("run", "--quiet",
                              os.path.join(out, "scenario.yaml"), "--csv",
                              self.path("csv"))
        self.assertEqual(code, 0, stderr)
        lost = 0.0
        failed = 0
        with open(os.path.join(self.path("csv"), "pods.csv"),
                  newline="") as f:
            for row in csv.DictReader(f):
                if row["tenant_class"] != "notebooks":
                    continue
                if row["outcome"] == "Failed":
                    failed += 1
                    up = float(row["end_s"]) - float(row["start_s"])
                    lost += (7200 - up) / 3600
        self.assertGreater(failed, 0)
        # The plan weighed the same GPU-hours (every lost-work check of the
        # class carries them).
        checks = [c for c in plan["chosen"]["checks"]
                  if c["tenant_class"] == "notebooks"
                  and c["lost_gpu_hours"] is not None]
        self.assertTrue(checks)
        for c in checks:
            self.assertAlmostEqual(c["lost_gpu_hours"], lost, places=6)
        self.assertLess(lost, 12.0)
        # So time-slicing is the closest plan: an OOM kill does not outweigh
        # a notebook that never ran, whatever the count.
        self.assertEqual(plan["pools"][0]["setting"], "time-slicing x4")
        self.assertEqual(plan["chosen_from"], "search")
        missed = {c["constraint"] for c in plan["chosen"]["checks"]
                  if not c["met"]}
        self.assertIn("max_oom_kills", missed)
        self.assertNotIn("max_pending", missed)
        # The change from today's exclusive says what it buys.
        self.assertIn("l40s: the change from today's exclusive x1 buys: the "
                      "constraints today's setting misses at 1 node "
                      "(notebooks: mean wait", text)
        self.assertIn("6 pods never started (limit 0)", text)

    def test_a_margin_of_one_node_on_lost_work_is_flagged(self):
        code, text, plan = self.plan(EDGE.replace("FOOTPRINT", "50000"))
        self.assertEqual(code, 0)
        pool = plan["pools"][0]
        self.assertEqual((pool["setting"], pool["nodes"]),
                         ("time-slicing x2", 2))
        edge = pool["knife_edge"]
        self.assertIsNotNone(edge)
        self.assertEqual((edge["nodes"], edge["oom_kills"], edge["failed"],
                          edge["evictions"]), (1, 7, 1, 0))
        self.assertAlmostEqual(edge["lost_gpu_hours"], 6390 / 3600, places=6)
        self.assertIn("dev: knife edge: at 1 node 7 OOM kills and 1 failed "
                      "pod (1.8 GPU-hours of work lost); with 2 its classes "
                      "lose no work, so the margin on lost work is one node",
                      text)
        # The HTML report says it too.
        html = self.path("p.html")
        code, _, stderr = run("plan", "--quiet", self.path("s.yaml"),
                              "--html", html)
        self.assertEqual(code, 0, stderr)
        with open(html) as f:
            self.assertIn("dev: knife edge: at 1 node 7 OOM kills", f.read())
        # The answer itself loses nothing: its replay has no OOM kill.
        self.assertEqual([c for c in plan["chosen"]["checks"]
                          if not c["met"]], [])
        # 30 GB notebooks share one GPU safely: one node, no flag.
        code, text, plan = self.plan(EDGE.replace("FOOTPRINT", "30000"))
        self.assertEqual(code, 0)
        self.assertEqual(plan["pools"][0]["nodes"], 1)
        self.assertIsNone(plan["pools"][0]["knife_edge"])
        self.assertNotIn("knife edge", text)

    def test_training_is_not_placed_where_its_memory_can_be_taken(self):
        code, text, plan = self.plan(TRAINING)
        self.assertEqual(code, 0)
        pool = plan["pools"][0]
        self.assertEqual((pool["setting"], pool["nodes"]), ("exclusive", 2))
        self.assertIn("note: pool gpu: time-slicing x2, time-slicing x4 do "
                      "not meet ddp, which needs memory isolation", text)
        probes = [p for p in plan["search_log"]
                  if p["setting"].startswith("time-slicing")]
        self.assertTrue(probes)
        for p in probes:
            self.assertIn("needs_memory_isolation",
                          [c["constraint"] for c in p["missed"]])
        # compare says the same: time-slicing does not serve ddp well.
        text, cmp = self.compare(TRAINING.replace(
            "compare: {seeds: 1}",
            "compare: {seeds: 1, schemes: [exclusive, time-slicing]}"))
        ranking = cmp["selection"][0]["ranking"]
        sliced = [r for r in ranking if r["variant"] == "time-slicing"][0]
        self.assertFalse(sliced["served_well"])
        self.assertEqual([m["constraint"] for m in sliced["missed"]],
                         ["needs_memory_isolation"])
        self.assertIn("time-slicing: 2 pods placed where another pod can "
                      "take their GPU memory (it needs memory isolation)",
                      text)
        # Turned off for the class, one node of time-slicing x2 is cheaper.
        code, text, plan = self.plan(
            TRAINING + "  constraints:\n    classes:\n      ddp: "
            "{needs_memory_isolation: false}\n")
        self.assertEqual(code, 0)
        self.assertEqual((plan["pools"][0]["setting"],
                          plan["pools"][0]["nodes"]), ("time-slicing x2", 1))

    def services(self, sharing, nodes, schemes):
        return (SERVICES.replace("SHARING", sharing)
                .replace("NODES", str(nodes)).replace("SCHEMES", schemes))

    def test_ties_keep_todays_setting_and_a_change_says_what_it_buys(self):
        # Written time-slicing x2: MIG all-3g.40gb costs the same and meets
        # every constraint too (and rates higher on isolation): kept.
        code, text, plan = self.plan(self.services(
            "{scheme: time-slicing, replicas: 2}", 1, "[time-slicing, mig]"))
        self.assertEqual(code, 0)
        pool = plan["pools"][0]
        self.assertEqual((pool["setting"], pool["nodes"]),
                         ("time-slicing x2", 1))
        self.assertIn("MIG all-3g.40gb", pool["kept_over"])
        self.assertIsNone(pool["change_buys"])
        self.assertIn("serve: today's setting kept:", text)
        self.assertIn("a change must buy something", text)
        today = [r for r in plan["references"] if r["name"] == "today"][0]
        self.assertEqual(plan["chosen"]["pools"], today["pools"])
        # Written MIG: MIG stays.
        code, text, plan = self.plan(self.services(
            "{scheme: mig, mig_config: all-3g.40gb}", 1,
            "[time-slicing, mig]"))
        self.assertEqual(code, 0)
        self.assertEqual(plan["pools"][0]["setting"], "MIG all-3g.40gb")
        self.assertIn("time-slicing x2", plan["pools"][0]["kept_over"])
        # Written exclusive on 2 nodes: MIG on 1 node buys one node's price.
        code, text, plan = self.plan(self.services(
            "{scheme: exclusive}", 2, "[exclusive, mig]"))
        self.assertEqual(code, 0)
        pool = plan["pools"][0]
        self.assertEqual((pool["setting"], pool["nodes"]),
                         ("MIG all-3g.40gb", 1))
        price = pool["cost_per_hour"]
        self.assertEqual(pool["change_buys"],
                         f"cheaper by ${price:.2f}/h than today's setting at "
                         f"its fewest nodes that meet every constraint (2, "
                         f"${2 * price:.2f}/h)")
        self.assertIn("serve: the change from today's exclusive x2 buys: "
                      "cheaper by", text)


if __name__ == "__main__":
    main()
