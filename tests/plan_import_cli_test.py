"""End-to-end tests of planning an imported cluster (docs/scenario.md
"cluster.import"): `plan --out` on examples/kubectl-import.yaml and on
examples/kubectl-nodegroups.yaml (an EKS cluster whose managed node groups
and Karpenter NodePool become pools) writes a scenario.yaml whose
`cluster.import.pools` overrides `run` replays exactly — the same pools,
node names and class results as the plan reported; a grown group's new
nodes are named `<pool>-new-<i>`, a shrunk group loses its last nodes; an
imported cluster with a written pool beside it replays too; a bad override
exits 2 at its line with nothing written.

Run as: python3 tests/plan_import_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import tempfile
import unittest

import yaml

from cli_harness import main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPORT = os.path.join(ROOT, "examples", "kubectl-import.yaml")
NODEGROUPS = os.path.join(ROOT, "examples", "kubectl-nodegroups.yaml")


def pool_nodes(devices_csv):
    """Per pool, its node names in device order (first appearance)."""
    out = {}
    with open(devices_csv, newline="") as f:
        for row in csv.DictReader(f):
            nodes = out.setdefault(row["pool"], [])
            if row["node"] not in nodes:
                nodes.append(row["node"])
    return out


def mean_waits(pods_csv):
    """Per tenant class, the mean wait of its pods that started."""
    waits = {}
    with open(pods_csv, newline="") as f:
        for row in csv.DictReader(f):
            if float(row["wait_s"]) >= 0:
                waits.setdefault(row["tenant_class"], []).append(
                    float(row["wait_s"]))
    return {c: sum(w) / len(w) for c, w in waits.items()}


def nodegroups_with(import_section):
    """examples/kubectl-nodegroups.yaml with its `import:` line replaced by
    `import_section`, in which NODES stands for the node list's path."""
    with open(NODEGROUPS) as f:
        text = f.read()
    nodes = os.path.join(ROOT, "examples", "kubectl", "nodegroups-nodes.json")
    line = ("  import: {format: kubectl, file: "
            "kubectl/nodegroups-nodes.json}\n")
    assert line in text
    return text.replace(line, import_section.replace("NODES", nodes))


class PlanImportCliTest(unittest.TestCase):

    def plan_and_replay(self, tmp, scenario, *flags):
        """Plans `scenario` on one seed with --out; replays the written
        scenario; checks the replay gives every mean wait the plan
        reports. Returns (plan JSON, written scenario text, devices.csv
        pools)."""
        out = os.path.join(tmp, "plan")
        report = os.path.join(tmp, "plan.json")
        code, stdout, stderr = run("plan", "--quiet", scenario, "--seeds",
                                   "1", "--out", out, "--json", report,
                                   *flags)
        self.assertIn(code, (0, 3), stderr)
        with open(report) as f:
            plan = json.load(f)
        written = os.path.join(out, "scenario.yaml")
        with open(written) as f:
            text = f.read()
        csv_dir = os.path.join(tmp, "csv")
        code, _, stderr = run("run", "--quiet", written, "--csv", csv_dir)
        self.assertEqual(code, 0, stderr)
        waits = mean_waits(os.path.join(csv_dir, "pods.csv"))
        checked = 0
        for check in plan["chosen"]["checks"]:
            if check["constraint"] == "max_mean_wait_s":
                self.assertAlmostEqual(
                    waits.get(check["tenant_class"], 0), check["value"],
                    places=6, msg=check["tenant_class"])
                checked += 1
        self.assertGreater(checked, 0)
        return plan, text, pool_nodes(os.path.join(csv_dir, "devices.csv"))

    def test_kubectl_import_plan_replays(self):
        with tempfile.TemporaryDirectory() as tmp:
            plan, text, nodes = self.plan_and_replay(tmp, IMPORT)
            # The research L4 pool grows for the notebooks: a plan that
            # meets every constraint (exit 0, no --force).
            self.assertTrue(plan["chosen"]["feasible"])
            pools = {p["pool"]: p for p in plan["pools"]}
            self.assertGreater(pools["l4-x4-time-slicing"]["nodes"], 2)
            self.assertIn("  import:\n", text)
            self.assertIn("    pools:\n", text)
            # The dump, named from the plan folder (relative when it was
            # written relative: docs/emit.md, plan folders).
            named = yaml.safe_load(text)["cluster"]["import"]["file"]
            self.assertEqual(
                os.path.realpath(os.path.join(tmp, "plan", named)),
                os.path.realpath(os.path.join(ROOT, "examples", "kubectl",
                                              "nodes.json")))
            # No written pools appear.
            self.assertNotIn("pools", yaml.safe_load(text)["cluster"])
            # The replay's pools have the plan's node counts; the real nodes
            # keep their names.
            for pool in plan["pools"]:
                if pool["gpus_per_node"] == 0:
                    continue
                self.assertEqual(len(nodes[pool["pool"]]), pool["nodes"],
                                 pool["pool"])
            self.assertEqual(nodes["a100-80gb-x2-mig"][0], "gpu-a100-0")
            self.assertEqual(nodes["l4-x4-time-slicing"][:2],
                             ["gpu-l4-0", "gpu-l4-1"])

    def test_node_groups_are_resized_and_replayed(self):
        with tempfile.TemporaryDirectory() as tmp:
            plan, text, nodes = self.plan_and_replay(tmp, NODEGROUPS)
            self.assertTrue(plan["chosen"]["feasible"])
            pools = {p["pool"]: p for p in plan["pools"]}
            self.assertEqual(
                sorted(pools), ["inference-l4", "system",
                                "training-a100-40gb-x8",
                                "training-h100-80gb-x8"])
            # Twelve one-GPU servers need a third g6.12xlarge; the idle
            # second p4d node goes.
            self.assertEqual(pools["inference-l4"]["written_nodes"], 2)
            self.assertEqual(pools["inference-l4"]["nodes"], 3)
            self.assertEqual(pools["training-a100-40gb-x8"]["written_nodes"],
                             2)
            self.assertEqual(pools["training-a100-40gb-x8"]["nodes"], 1)
            self.assertEqual(nodes["inference-l4"], [
                "ip-10-0-21-7.ec2.internal", "ip-10-0-22-118.ec2.internal",
                "inference-l4-new-0"])
            self.assertEqual(nodes["training-a100-40gb-x8"],
                             ["ip-10-0-31-200.ec2.internal"])
            self.assertIn("      inference-l4:\n        nodes: 3\n", text)
            self.assertIn("      training-a100-40gb-x8:\n        nodes: 1\n",
                          text)

    def test_imported_and_written_pools_together_replay(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = nodegroups_with(
                "  import: {format: kubectl, file: NODES}\n"
                "  pools:\n"
                "    - {name: spare, gpu: L4, nodes: 2, gpus_per_node: 4,\n"
                "       cpu: 48, memory_gib: 192}\n")
            text = text.replace(
                "    inference-l4: {nodes: {min: 1, max: 4}, "
                "schemes: [exclusive]}\n",
                "    inference-l4: {nodes: {min: 1, max: 4}, "
                "schemes: [exclusive]}\n"
                "    spare: {nodes: {min: 1, max: 3}, schemes: [exclusive]}\n")
            self.assertIn("spare: {nodes", text)
            scenario = os.path.join(tmp, "mixed.yaml")
            with open(scenario, "w") as f:
                f.write(text)
            plan, written, nodes_of = self.plan_and_replay(tmp, scenario)
            pools = {p["pool"]: p for p in plan["pools"]}
            # No class is routed to the written pool: it goes to its minimum.
            self.assertEqual(pools["spare"]["nodes"], 1)
            self.assertEqual(nodes_of["spare"], ["spare-0"])
            self.assertEqual(pools["inference-l4"]["nodes"], 3)
            self.assertEqual(len(nodes_of["inference-l4"]), 3)
            self.assertIn("  pools:\n    - {name: spare, gpu: L4, nodes: 1,",
                          written)
            self.assertIn("      inference-l4:\n        nodes: 3\n", written)

    def test_a_bad_override_exits_2_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = nodegroups_with(
                "  import:\n"
                "    format: kubectl\n"
                "    file: NODES\n"
                "    pools:\n"
                "      inference-l4: {nodes: 3}\n"
                "      training-h100: {nodes: 2}\n")
            scenario = os.path.join(tmp, "s.yaml")
            with open(scenario, "w") as f:
                f.write(text)
            out = os.path.join(tmp, "plan")
            code, stdout, stderr = run("plan", scenario, "--out", out)
            self.assertEqual(code, 2, stderr)
            self.assertEqual(stdout, "")
            line = text.splitlines().index("      training-h100: {nodes: 2}")
            self.assertIn(scenario + ":%d:7: cluster import pools: no "
                          "imported pool is named 'training-h100'; did you "
                          "mean training-h100-80gb-x8? " % (line + 1), stderr)
            self.assertIn("(the imported pools: system, inference-l4, "
                          "training-a100-40gb-x8, training-h100-80gb-x8)",
                          stderr)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    main()
