"""End-to-end tests of KAI-Scheduler's fair-share queues through
`gpushare-sim run` on examples/kai-fair-share.yaml: the GPU units allocated
never exceed the cluster's, and no queue's its limit; fair shares sum to no
more than the cluster and follow the tree; non-preemptible serving pods are
never evicted; reclaim evicts and is counted; the reports (terminal, JSON,
CSV, OpenMetrics, HTML) carry the queues; same file, same bytes; bad
kai_queues input exits 2 at file:line:col with no output.

Run as: python3 tests/kai_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import tempfile
import unittest

from cli_harness import check_bad_scenarios, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "kai-fair-share.yaml")
CAPACITY = 24  # 3 nodes x 8 H100s, one unit each
PARENT = {"team-a": "research", "team-b": "research", "serving": "platform",
          "ci": "platform"}


class KaiTest(unittest.TestCase):
    def run_example(self, *flags):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            code, stdout, stderr = run("run", EXAMPLE, "--json", out, *flags)
            self.assertEqual(code, 0, stderr)
            with open(out, "rb") as f:
                raw = f.read()
            return json.loads(raw), raw, stdout

    def test_allocations_and_fair_shares_keep_kais_bounds(self):
        doc, raw, stdout = self.run_example()
        self.assertEqual(doc["queue_system"], "KAI-Scheduler")
        queues = {q["name"]: q for q in doc["queues"]}
        self.assertEqual(set(queues), {"research", "platform", *PARENT})
        samples = len(queues["ci"]["quotas"][0]["used"])
        self.assertGreater(samples, 50)
        for i in range(samples):
            used = {n: q["quotas"][0]["used"][i] for n, q in queues.items()}
            fair = {n: q["quotas"][0]["fair_share"][i]
                    for n, q in queues.items()}
            self.assertLessEqual(used["research"] + used["platform"],
                                 CAPACITY)
            self.assertLessEqual(fair["research"] + fair["platform"],
                                 CAPACITY + 1e-6)
            for leaf, parent in PARENT.items():
                self.assertLessEqual(fair[leaf], fair[parent] + 1e-6)
            self.assertAlmostEqual(used["research"],
                                   used["team-a"] + used["team-b"])
            self.assertLessEqual(used["serving"], 8)  # its limit
        # serving (priority 125) is non-preemptible: never a victim.
        for p in doc["pod_records"]:
            if p["tenant_class"] == "serving":
                self.assertEqual(p["preemptions"], 0, p["name"])
        # team-a went over quota while alone and was reclaimed from.
        self.assertGreater(queues["team-a"]["borrowing_admissions"], 0)
        self.assertGreater(queues["team-a"]["evictions"], 0)
        caused = sum(n for q in doc["queues"]
                     for r, n in q["preempted_by_reason"].items()
                     if r == "Reclaim")
        self.assertGreater(caused, 0)
        # Every eviction suffered was caused by some queue's reclaim or
        # preempt.
        self.assertEqual(
            sum(q["evictions"] for q in doc["queues"]),
            sum(n for q in doc["queues"]
                for n in q["preempted_by_reason"].values()))
        # It settles near its fair share: deviation below one unit.
        self.assertLess(queues["team-a"]["quotas"][0]["fair_share_deviation"],
                        1)
        self.assertIn("KAI-Scheduler queues (GPU: units mean allocated/fair "
                      "share/deserved;", stdout)
        self.assertEqual(raw, self.run_example()[1])

    def test_invariants_hold(self):
        with open(EXAMPLE) as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            scenario = os.path.join(tmp, "s.yaml")
            with open(scenario, "w") as f:
                f.write(text + "scheduler: {check_invariants: true}\n")
            code, _, stderr = run("run", scenario, "--quiet")
            self.assertEqual(code, 0, stderr)

    def test_csv_openmetrics_and_html_carry_the_queues(self):
        doc, _, _ = self.run_example()
        with tempfile.TemporaryDirectory() as tmp:
            om = os.path.join(tmp, "m.om")
            html = os.path.join(tmp, "r.html")
            csv_dir = os.path.join(tmp, "csv")
            code, _, stderr = run("run", EXAMPLE, "--quiet", "--openmetrics",
                                  om, "--html", html, "--csv", csv_dir)
            self.assertEqual(code, 0, stderr)
            with open(om) as f:
                text = f.read()
            with open(html) as f:
                page = f.read()
            with open(os.path.join(csv_dir, "queues.csv")) as f:
                rows = list(csv.DictReader(f))
        for family in ("queue_allocated_gpus", "queue_fair_share_gpu",
                       "queue_deserved_gpus"):
            self.assertIn("# TYPE %s gauge\n" % family, text)
        self.assertNotIn("kueue_", text)
        self.assertIn('queue_deserved_gpus{queue_name="serving"} 8 ', text)
        self.assertIn("KAI queue", page)
        self.assertIn('data-chart="queue-team-a"', page)
        ci = [r for r in rows if r["cluster_queue"] == "ci"]
        self.assertEqual(len(ci), len(doc["queues"][0]["quotas"][0]["used"]))
        self.assertEqual({r["cohort"] for r in ci}, {"platform"})
        self.assertEqual({r["resource"] for r in ci}, {"gpu"})
        self.assertTrue(all(r["fair_share"] != "" for r in ci))

    def test_emit_k8s_writes_the_queues_and_queue_labels(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "k8s")
            code, _, stderr = run("emit", "k8s", "--scenario", EXAMPLE,
                                  "--out", out)
            self.assertEqual(code, 0, stderr)
            with open(os.path.join(out, "kai-queues.yaml")) as f:
                queues = f.read()
            with open(os.path.join(out, "pod-patches.yaml")) as f:
                patches = f.read()
            with open(os.path.join(out, "README.md")) as f:
                readme = f.read()
        self.assertEqual(queues.count("kind: Queue\n"), 6)
        self.assertIn("  name: serving\nspec:\n  parentQueue: platform\n",
                      queues)
        self.assertNotIn("kueue", queues)
        self.assertIn('"kai.scheduler/queue": "team-b"', patches)
        self.assertIn("schedulerName: kai-scheduler", patches)
        self.assertIn("kubectl apply -f kai-queues.yaml", readme)

    def test_bad_input_exits_2_located_with_no_output(self):
        base = ("cluster: {pools: [{name: p, gpu: A100-80GB, nodes: 1}]}\n"
                "workload: {classes: [{name: j, class: batch, count: 1, "
                "queue: q}]}\n")
        cases = [
            ("kai_queues: {queues: [{name: q, gpu: {limit: 2, quota: 4}}]}\n",
             "s.yaml:3:", "limit: 2 is below the queue's quota (4)"),
            ("kai_queues: {queues: [{name: q, parent: q}]}\n", "s.yaml:3:",
             "its parents form a cycle"),
            ("kai_queues: {queues: [{name: r}, {name: x, parent: r}]}\n",
             "s.yaml:2:", "'q' is not a queue of kai_queues"),
            ("kai_queues: {queues: [{name: q}], fairness: DRF}\n", "s.yaml:3:",
             "unknown key 'fairness'"),
        ]
        check_bad_scenarios(self, [(base + extra, where, phrase)
                                   for extra, where, phrase in cases])


if __name__ == "__main__":
    main()
