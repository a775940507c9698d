"""End-to-end test of per-GPU MIG mixes in `gpushare-sim plan` (issue 54,
point 6): on tests/data/plan/mig-mix.yaml (an H100 pool of 8B chat, an
embedder and whole-GPU eval Jobs; its comment holds the hand check) no
uniform MIG layout serves every class, and `plan --out` answers a per-GPU
mix - GPUs 0-1 of each node one 7g.80gb instance, GPUs 2-3 two 3g.40gb -
on 3 nodes instead of 4 exclusive ones. The plan's scenario.yaml writes the
mix per GPU, `run` replays it with every eval on a whole-GPU instance, and
the emitted mig-parted config applies it: one named config whose
per-device entries give devices [0, 1] 7g.80gb: 1 and devices [2, 3]
3g.40gb: 2, selected by the nodes' nvidia.com/mig.config label. Without
mixes (mig_mixes: false) the answer stays exclusive on 4 nodes.

Run as: python3 tests/plan_mig_mix_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os

import yaml

from cli_harness import DATA_DIR, TempDirTestCase, main, run

SCENARIO = os.path.join(DATA_DIR, "plan", "mig-mix.yaml")
MIX = "MIG 7g.80gb on GPUs 0-1, 2 x 3g.40gb on GPUs 2-3"


class PlanMigMixTest(TempDirTestCase):

    def plan(self, scenario, *extra):
        report = self.path("plan.json")
        code, stdout, stderr = run("plan", "--quiet", scenario, "--seeds",
                                   "1", "--json", report, *extra)
        self.assertEqual(code, 0, stdout + stderr)
        with open(report, encoding="utf-8") as f:
            return json.load(f), stdout

    def test_plan_answers_the_mix_and_emits_per_device_entries(self):
        out = self.path("plan")
        plan, stdout = self.plan(SCENARIO, "--out", out)
        chosen = plan["chosen"]
        self.assertTrue(chosen["feasible"], stdout)
        self.assertTrue(all(c["met"] for c in chosen["checks"]))
        [pool] = plan["pools"]
        self.assertEqual(pool["pool"], "h100")
        self.assertEqual(pool["setting"], MIX, stdout)
        self.assertEqual(pool["nodes"], 3, stdout)
        # Cheaper than every feasible reference, exclusive (4 nodes) among
        # them; no uniform MIG layout meets every constraint.
        refs = {r["name"]: r for r in plan["references"]}
        self.assertTrue(refs["exclusive"]["feasible"])
        self.assertAlmostEqual(refs["exclusive"]["cost_per_hour"],
                               chosen["cost_per_hour"] * 4 / 3)
        for probe in plan["search_log"]:
            if probe["setting"].startswith("MIG all-"):
                self.assertFalse(probe["feasible"] and probe["nodes"] <= 3,
                                 probe)
        self.assertIn(MIX, stdout)

        # scenario.yaml: the mix per GPU index.
        with open(os.path.join(out, "scenario.yaml"), encoding="utf-8") as f:
            scenario = yaml.safe_load(f)
        [written] = scenario["cluster"]["pools"]
        self.assertEqual(written["nodes"], 3)
        self.assertEqual(written["sharing"]["scheme"], "mig")
        self.assertEqual(written["sharing"]["mig_strategy"], "mixed")
        self.assertEqual(written["sharing"]["mig_layouts"],
                         [["7g.80gb"], ["7g.80gb"], ["3g.40gb:2"],
                          ["3g.40gb:2"]])

        # The mig-parted config: one named config, per-device entries.
        with open(os.path.join(out, "mig-parted-config.yaml"),
                  encoding="utf-8") as f:
            text = f.read()
        configmap = yaml.safe_load(text)
        parted = yaml.safe_load(configmap["data"]["config.yaml"])
        self.assertEqual(parted["version"], "v1")
        self.assertEqual(sorted(parted["mig-configs"]),
                         ["all-disabled", "h100-custom"])
        entries = parted["mig-configs"]["h100-custom"]
        self.assertEqual(entries, [
            {"devices": [0, 1], "mig-enabled": True,
             "mig-devices": {"7g.80gb": 1}},
            {"devices": [2, 3], "mig-enabled": True,
             "mig-devices": {"3g.40gb": 2}},
        ])
        # Every GPU of the node is covered once, within its MIG budget.
        covered = sorted(d for e in entries for d in e["devices"])
        self.assertEqual(covered, [0, 1, 2, 3])
        # The node label that selects it is what the change script sets.
        with open(os.path.join(out, "node-setup.sh"), encoding="utf-8") as f:
            setup = f.read()
        self.assertIn('ensure_mig "$1" h100-custom', setup)

        # Replaying the plan: evals ran on 7g.80gb, chat and embedders on
        # 3g.40gb, none waited on a missing instance.
        csv_dir = self.path("csv")
        code, _, stderr = run("run", "--quiet",
                              os.path.join(out, "scenario.yaml"), "--csv",
                              csv_dir)
        self.assertEqual(code, 0, stderr)
        with open(os.path.join(csv_dir, "pods.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 16)
        for r in rows:
            self.assertGreaterEqual(float(r["start_s"]), 0, r["name"])
            self.assertLessEqual(float(r["wait_s"]), 60, r["name"])
            profile = ("7g.80gb" if r["tenant_class"] == "eval"
                       else "3g.40gb")
            self.assertIn("nvidia.com/mig-%s=1" % profile,
                          r["requests"].split(), r["name"])
        # The 4 evals took 4 of the 6 whole-GPU instances (GPUs 0-1 of
        # each node).
        evals = {(r["node"], r["devices"]) for r in rows
                 if r["tenant_class"] == "eval"}
        self.assertEqual(len(evals), 4)

    def test_without_mixes_the_answer_stays_exclusive(self):
        with open(SCENARIO, encoding="utf-8") as f:
            text = f.read()
        path = self.path("no-mixes.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("mig_layouts: named",
                                 "mig_layouts: named\n      mig_mixes: false"))
        plan, stdout = self.plan(path)
        [pool] = plan["pools"]
        self.assertEqual(pool["setting"], "exclusive", stdout)
        self.assertEqual(pool["nodes"], 4, stdout)


if __name__ == "__main__":
    main()
