"""End-to-end tests of dynamic MIG (`dra: {dynamic_mig: true}`,
docs/model.md §11.2) on examples/dynamic-mig.yaml: `run` reports the NVIDIA
DRA driver's MIG operations and the fragmentation per pool, `compare` runs
"MIG (dynamic)" beside the static MIG layouts, `plan` says which wins, `emit
k8s` turns on the driver's DynamicMIG gate, and bad keys are refused with a
located error (exit 2, no output).

Run as: python3 tests/dynamic_mig_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import (TempDirTestCase, check_bad_scenarios, main, run,
                         run_raw)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "dynamic-mig.yaml")

POOL = """\
cluster:
  pools:
    - name: h100
      gpu: {gpu}
      nodes: 1
      gpus_per_node: 2
      devices: dra
      sharing: {sharing}
      dra: {dra}
workload:
  classes:
    - {{name: jobs, class: batch, count: 4, work_s: 60}}
"""


class DynamicMigCliTest(TempDirTestCase):

    def json_of(self, *args):
        out = self.path("out.json")
        result = run_raw(*args, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, "rb") as f:
            raw = f.read()
        return raw, json.loads(raw.decode("utf-8"))

    def test_run_counts_instances_and_is_deterministic(self):
        raw, result = self.json_of("run", EXAMPLE)
        again, _ = self.json_of("run", EXAMPLE)
        self.assertEqual(raw, again)
        pool = result["pools"][0]
        self.assertEqual(pool["label"], "MIG (dynamic)")
        mig = pool["dynamic_mig"]
        # Every pod got one instance, made and destroyed once.
        self.assertEqual(mig["instances_created"], result["pods"])
        self.assertEqual(mig["instances_destroyed"], result["pods"])
        self.assertEqual(mig["mode_enables"], mig["mode_disables"])
        self.assertGreater(mig["creation_wait_s"], 0)
        self.assertGreaterEqual(mig["stranded_pending_max"], 0)
        # Every pod waited at least one creation (2 s) for its instance.
        started = [p for p in result["pod_records"] if p["start_s"] >= 0]
        self.assertEqual(len(started), result["pods"])
        for p in started:
            self.assertGreaterEqual(p["start_s"] - p["arrival_s"], 2 - 1e-9)

    def test_compare_runs_dynamic_beside_static_mig(self):
        _, comparison = self.json_of("compare", EXAMPLE)
        by_name = {v["name"]: v for v in comparison["variants"]}
        self.assertIn("mig-dynamic", by_name)
        self.assertEqual(by_name["mig-dynamic"]["label"], "MIG (dynamic)")
        self.assertIn("mig", by_name)
        dynamic = by_name["mig-dynamic"]["cluster"]
        static = by_name["mig"]["cluster"]
        # No static layout serves both halves of the day.
        self.assertGreater(dynamic["served"], static["served"])

    def test_compare_offers_dynamic_only_where_asked(self):
        # A scenario without dynamic MIG compares as before; with
        # compare: {mig_dynamic: true} its MIG pools also run dynamic.
        with open(os.path.join(ROOT, "examples", "mig-inference.yaml")) as f:
            text = f.read()
        plain = self.write("plain.yaml", text)
        asked = self.write("asked.yaml",
                           text + "compare: {mig_dynamic: true}\n")
        _, before = self.json_of("compare", plain)
        self.assertNotIn("mig-dynamic",
                         [v["name"] for v in before["variants"]])
        _, after = self.json_of("compare", asked)
        names = [v["name"] for v in after["variants"]]
        self.assertIn("mig-dynamic", names)
        dynamic = after["variants"][names.index("mig-dynamic")]
        self.assertTrue(any("runs MIG through NVIDIA's DRA driver" in n
                            for n in dynamic["notes"]))

    def test_plan_says_whether_dynamic_beats_static(self):
        code, out, err = run("plan", EXAMPLE)
        self.assertEqual(code, 0, err)
        self.assertIn("MIG (dynamic) meets its classes' constraints", out)

    def test_emit_turns_on_the_dynamic_mig_gate(self):
        out = self.path("k8s")
        result = run_raw("emit", "k8s", "--scenario", EXAMPLE, "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "dra-driver-values.yaml")) as f:
            values = f.read()
        self.assertIn("  DynamicMIG: true\n", values)
        self.assertIn("#   DynamicMIG:", values)
        self.assertNotIn("mig-parted", os.listdir(out))
        with open(os.path.join(out, "node-setup.sh")) as f:
            setup = f.read()
        self.assertIn("nvidia.com/gpu.deploy.mig-manager=false", setup)
        with open(os.path.join(out, "dra-objects.yaml")) as f:
            objects = f.read()
        for profile in ("1g-10gb", "1g-20gb", "3g-40gb", "7g-80gb"):
            self.assertIn("name: mig-%s.gpu.nvidia.com" % profile, objects)

    def test_bad_keys_are_refused_where_they_are(self):
        check_bad_scenarios(self, [
            (POOL.format(gpu="H100-80GB",
                         sharing="{scheme: mig, mig_config: all-balanced}",
                         dra="{dynamic_mig: true}"),
             "s.yaml:8:", "drop mig_config / mig_layouts"),
            (POOL.format(gpu="L4", sharing="{scheme: mig}",
                         dra="{dynamic_mig: true}"),
             "s.yaml:8:", "does not support MIG"),
            (POOL.format(gpu="H100-80GB", sharing="{scheme: exclusive}",
                         dra="{dynamic_mig: true}"),
             "s.yaml:9:", "dra.dynamic_mig needs sharing scheme mig"),
            (POOL.format(gpu="H100-80GB", sharing="{scheme: mig}",
                         dra="{dynamic_mig: true, extended_resource: true}"),
             "s.yaml:9:", "not modelled yet"),
            (POOL.format(gpu="H100-80GB", sharing="{scheme: mig}",
                         dra="{dynamic_mig: true}").replace(
                             "work_s: 60}", "work_s: 60,\n       "
                             "arrival_start_s: 3600}"),
             "s.yaml:13:", "is not before the workload's horizon_s 3600"),
        ])


if __name__ == "__main__":
    main()
