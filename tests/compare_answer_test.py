"""End-to-end tests of `compare`'s terminal answer: the compact default,
`--details`, the next step (`plan`, previewed with `--preview-plan`) and
`make demo`'s last lines.

Run as: python3 tests/compare_answer_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import re

from cli_harness import DATA_DIR, TempDirTestCase, main, run

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
DEV = os.path.join(DATA_DIR, "compare", "dev-notebooks.yaml")
NEXT = os.path.join(DATA_DIR, "compare", "next-step.yaml")
MULTI = os.path.join(ROOT, "examples", "multi-tenant.yaml")

# The plain words of the answer block (the HTML pages use the same).
JARGON = ["pod-weighted", "(written:", "kept as written", "they conflict",
          "routed"]


def demo_command():
    """The arguments `make demo` passes to gpushare-sim."""
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        text = f.read()
    recipe = re.search(r"^demo:.*\n\t(.*)$", text, re.M).group(1)
    words = recipe.split()
    assert words[0].endswith("/gpushare-sim"), recipe
    return words[1:]


def preview_numbers(text):
    """(nodes delta, GPUs, $/h) of the `plan:` preview line."""
    flat = " ".join(text.split())
    m = re.search(r"plan: (?:([+-]\d+) nodes?|today's node count) "
                  r"\((\d+) GPUs\), \$([\d.]+)/h", flat)
    assert m, flat
    return int(m.group(1) or 0), int(m.group(2)), float(m.group(3))


class AnswerTestCase(TempDirTestCase):

    def compare(self, *args, name="out.json"):
        path = self.path(name)
        code, out, err = run("compare", *args, "--quiet", "--json", path)
        self.assertEqual(code, 0, err)
        with open(path, "rb") as f:
            raw = f.read()
        return out, raw, json.loads(raw.decode("utf-8"))

    def plan_json(self, *args):
        path = self.path("plan.json")
        code, out, err = run("plan", *args, "--quiet", "--json", path)
        self.assertIn(code, (0, 3), err)
        with open(path, encoding="utf-8") as f:
            return out, json.load(f)

    def check_preview_is_plans(self, out, plan):
        nodes, gpus, cost = preview_numbers(out)
        chosen = plan["chosen"]
        self.assertEqual(gpus, chosen["gpus"])
        self.assertAlmostEqual(cost, chosen["cost_per_hour"], places=2)
        self.assertEqual(nodes, sum(p["nodes"] - p["written_nodes"]
                                    for p in plan["pools"]
                                    if p["gpus_per_node"] > 0))


class CompactDefaultTest(AnswerTestCase):

    def test_default_fits_one_screen_answer_first(self):
        out, raw, doc = self.compare("--threads", "2")
        lines = out.splitlines()
        self.assertLessEqual(len(lines), 52, out)
        for line in lines:
            self.assertLessEqual(len(line), 80, line)
        # The answer first, then the pool plan, then the two tables, then
        # the next step and where the detail is.
        order = ["Answer per tenant class", "Pool plan:",
                 "Scores per tenant class and scheme",
                 "Each class under the pool plan", "Next:", "--details"]
        at = [out.index(h) for h in order]
        self.assertEqual(at, sorted(at))
        self.assertLess(at[0], 200)
        # The detail is not there.
        for detail in ["Runs (each on the same pods and nodes):",
                       "Cluster-wide", "Selection:", "RANK"]:
            self.assertNotIn(detail, out)
        # One answer line per class: its recommendation and winner's score.
        flat = " ".join(out.split())
        for choice in doc["selection"]:
            if choice["winner"] is None:
                self.assertIn(choice["tenant_class"] + " -> no scheme wins: "
                              "none serves it well; closest:", flat)
                continue
            winner = choice["ranking"][0]
            self.assertIn("{} -> {}".format(choice["tenant_class"],
                                            winner["label"]), flat)
            self.assertIn("({:.1f}/10)".format(winner["total"]), flat)
        # The score table: a row per class, a cell per scheme; in
        # parentheses the schemes that do not serve it well, * the answer.
        header = next(l for l in lines if l.startswith("CLASS ") and
                      "POOL PLAN" in l)
        columns = header.split()
        self.assertEqual(columns[:2], ["CLASS", "PODS"])
        rows = lines[lines.index(header) + 1:][:len(doc["selection"])]
        short = {"exclusive": "excl", "time-slicing": "ts", "mps": "MPS",
                 "mig": "MIG", "hami": "HAMi"}
        for row, choice in zip(rows, doc["selection"]):
            cells = row.split()
            self.assertEqual(cells[0], choice["tenant_class"])
            for s in choice["ranking"]:
                cell = cells[columns.index(short[s["variant"]])]
                total = "{:.1f}".format(s["total"])
                if not s["serves"]:
                    self.assertEqual(cell, "-")
                elif not s["served_well"]:
                    self.assertEqual(cell, "(" + total + ")")
                elif s["variant"] == choice["winner"]:
                    self.assertEqual(cell, total + "*")
                else:
                    self.assertEqual(cell, total)
        # The JSON does not depend on the text asked for.
        details, raw2, _ = self.compare("--threads", "2", "--details",
                                        name="details.json")
        self.assertEqual(raw, raw2)

    def test_details_is_the_full_text(self):
        out, _, doc = self.compare("--details", "--threads", "2")
        for heading in ["Runs (each on the same pods and nodes):",
                        "Cluster-wide", "Tenant class prod-inference",
                        "Selection:", "Recommended:", "Pool plan:"]:
            self.assertIn(heading, out)
        flat = " ".join(out.split())
        # Every class's explanation, caveats and not-ranked notes.
        for choice in doc["selection"]:
            self.assertIn(" ".join(choice["explanation"].split()), flat)
            for caveat in choice["caveats"]:
                self.assertIn(" ".join(caveat.split()), flat)
        # ... and the next step at its end.
        self.assertIn("Next: platform-training is not served well", flat)
        self.assertTrue(out.rstrip().endswith("run: gpushare-sim plan"), out)

    def test_plain_words(self):
        for args in ([], ["--details"]):
            out, _, doc = self.compare(*args, "--threads", "2",
                                       name="w{}.json".format(len(args)))
            flat = " ".join(out.split())
            for word in JARGON:
                self.assertNotIn(word, flat)
            for pool in doc["pool_plan"]["pools"]:
                self.assertIn("score {:.1f} (average over its pods)".format(
                    pool["score"]), flat)
            # platform keeps today's vGPU (HAMi) over exclusive.
            platform = doc["pool_plan"]["pools"][1]
            self.assertEqual(platform["kept_over"], "exclusive")
            self.assertIn("kept as today: exclusive scores higher only on "
                          "its ratings", flat)

    def test_conflict_says_how_to_resolve_it(self):
        out, _, doc = self.compare(MULTI, "--seeds", "2")
        flat = " ".join(out.split())
        for word in JARGON:
            self.assertNotIn(word, flat)
        (pool,) = doc["pool_plan"]["pools"]
        self.assertTrue(pool["conflict"])
        self.assertIn("-- its classes want different schemes", flat)
        labels = {s["variant"]: s["label"] for c in doc["selection"]
                  for s in c["ranking"]}
        unserved = ["{} on {}".format(k["tenant_class"], labels[k["winner"]])
                    for k in pool["classes"]
                    if k["winner"] and pool["variant"] not in
                    (k["winner"], k.get("contender"))]
        self.assertTrue(unserved)
        self.assertIn("shared: its classes want different schemes and it "
                      "runs " + labels[pool["variant"]], flat)
        for split in unserved:
            self.assertIn(split, flat)
        self.assertIn("a copy of shared with", flat)
        self.assertIn("  run: gpushare-sim plan {} --seeds 2".format(MULTI),
                      out.splitlines())


class NextStepTest(AnswerTestCase):

    def test_absent_when_every_class_is_served(self):
        out, _, doc = self.compare(DEV, "--preview-plan")
        self.assertTrue(all(c["winner"] for c in doc["selection"]))
        self.assertTrue(all(k["ok"] for p in doc["pool_plan"]["pools"]
                            for k in p["classes"]))
        self.assertNotIn("Next:", out)
        self.assertNotIn("gpushare-sim plan", out)
        self.assertNotRegex(out, r"(?m)^\s*plan: ")

    def test_without_preview_names_the_command(self):
        out, _, doc = self.compare(NEXT, "--seeds", "2")
        (choice,) = doc["selection"]
        self.assertIsNone(choice["winner"])
        flat = " ".join(out.split())
        self.assertIn("Next: notebooks is not served well on today's nodes",
                      flat)
        self.assertIn("--preview-plan runs it here", flat)
        self.assertNotRegex(out, r"(?m)^\s*plan: ")
        self.assertEqual(out.splitlines()[-3],
                         "  run: gpushare-sim plan {} --seeds 2".format(NEXT))

    def test_preview_equals_plan(self):
        out, _, _ = self.compare(NEXT, "--preview-plan")
        _, plan = self.plan_json(NEXT)
        self.assertTrue(plan["chosen"]["feasible"])
        self.check_preview_is_plans(out, plan)
        # By hand: one A30 node of 4 GPUs at $1.60/h more than today's one.
        self.assertEqual(preview_numbers(out), (1, 8, 12.80))
        self.assertIn("every class served on each of 3 seeds",
                      " ".join(out.split()))


class DemoTest(AnswerTestCase):
    """`make demo` runs compare --preview-plan on the built-in default."""

    def test_demo_last_lines_name_plan_with_its_preview(self):
        args = demo_command()
        self.assertEqual(args, ["compare", "--preview-plan"])
        code, out, err = run(*args, "--quiet")
        self.assertEqual(code, 0, err)
        last = out.splitlines()[-8:]
        self.assertIn("  run: gpushare-sim plan", last)
        tail = "\n".join(last)
        self.assertIn("Next: platform-training is not served well", tail)
        _, plan = self.plan_json()
        self.check_preview_is_plans(tail, plan)


if __name__ == "__main__":
    main()
