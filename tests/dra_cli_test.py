"""End-to-end tests of DRA pools (`devices: dra`, docs/model.md "DRA pools"):
examples/dra.yaml runs with pods on its DRA pools, deterministically; compare
and plan run the schemes DRA does not serve yet through the device plugin;
a pool that asks DRA for a sharing scheme it does not serve yet is refused at
load with a located error. What emit writes for DRA pools: tests/dra_emit_test.py.

Run as: python3 tests/dra_cli_test.py --binary /path/to/gpushare-sim
"""

import collections
import json
import os

from cli_harness import TempDirTestCase, check_bad_scenarios, main, run_raw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "dra.yaml")


class DraExampleTest(TempDirTestCase):

    def run_json(self, name):
        path = self.path(name)
        result = run_raw("run", EXAMPLE, "--quiet", "--json", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, b"")
        with open(path, "rb") as f:
            raw = f.read()
        return result.stdout, raw, json.loads(raw.decode("utf-8"))

    def test_pods_run_on_the_dra_pools(self):
        _, _, doc = self.run_json("a.json")
        ran = collections.Counter(
            (p["tenant_class"], p["pool"]) for p in doc["pod_records"]
            if p["pool"])
        self.assertGreater(ran[("training", "train")], 0, ran)
        self.assertGreater(ran[("services", "inference")], 0, ran)
        self.assertGreater(ran[("platform-jobs", "platform")], 0, ran)
        # Every pod stays in the pool its selector names.
        for (cls, pool), _ in ran.items():
            self.assertEqual(
                {"training": "train", "services": "inference",
                 "platform-jobs": "platform"}[cls], pool)
        # The JSON marks the DRA pools, and only them.
        self.assertEqual({p["name"]: p.get("devices") for p in doc["pools"]},
                         {"train": "dra", "inference": "dra",
                          "platform": None})
        done = collections.Counter(p["outcome"] for p in doc["pod_records"])
        self.assertGreater(done["Succeeded"] + done["Deleted"], 0, done)
        # Their requests are the claims' class names, never nvidia.com/*.
        for p in doc["pod_records"]:
            if p["tenant_class"] == "training":
                self.assertIn("deviceclass.resource.kubernetes.io/"
                              "gpu.nvidia.com=", p["requests"])
            if p["tenant_class"] == "services":
                self.assertRegex(p["requests"],
                                 r"deviceclass\.resource\.kubernetes\.io/"
                                 r"mig-[1-3]g-[0-9]+gb\.gpu\.nvidia\.com=1")
            if p["tenant_class"] != "platform-jobs":
                self.assertNotIn("nvidia.com/gpu=", p["requests"])

    def test_output_is_deterministic(self):
        out1, raw1, _ = self.run_json("a.json")
        out2, raw2, _ = self.run_json("b.json")
        self.assertEqual(out1, out2)
        self.assertEqual(raw1, raw2)

    def test_check_invariants_holds(self):
        with open(EXAMPLE, encoding="utf-8") as f:
            text = f.read()
        path = self.write("inv.yaml",
                          text + "\nscheduler: {check_invariants: true}\n")
        result = run_raw("run", path, "--quiet")
        self.assertEqual(result.returncode, 0, result.stderr)
        plain = run_raw("run", EXAMPLE, "--quiet")
        self.assertEqual(result.stdout, plain.stdout)


POOL = """\
name: bad
seed: 1
cluster:
  pools:
    - name: p
      gpu: L4
      nodes: 1
      gpus_per_node: 1
{extra}
workload:
  classes:
    - name: a
      class: batch
      count: 1
      work_s: 60
"""


class DraCompareAndPlanTest(TempDirTestCase):

    def test_compare_runs_unserved_schemes_through_the_device_plugin(self):
        result = run_raw("compare", EXAMPLE, "--quiet", "--seeds", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.decode("utf-8")
        # Wrapped by the report: the note's first words stay on one line.
        self.assertIn("note: pool train runs time-slicing through its device",
                      out)
        self.assertNotIn("pool train runs exclusive through", out)

    def test_plan_meets_its_constraints(self):
        result = run_raw("plan", EXAMPLE, "--quiet")
        self.assertEqual(result.returncode, 0, result.stderr)

class DraRefusalsTest(TempDirTestCase):

    def test_unserved_schemes_and_values_are_refused(self):
        check_bad_scenarios(self, [
            (POOL.format(extra="      devices: dra\n"
                               "      sharing: {scheme: time-slicing, "
                               "replicas: 4}"),
             "s.yaml:9:7:",
             "devices: dra serves sharing 'exclusive' (whole GPUs, "
             "DeviceClass gpu.nvidia.com) and 'mig'"),
            (POOL.format(extra="      devices: dra\n"
                               "      sharing: {scheme: hami}"),
             "s.yaml:9:7:", "not 'hami'"),
            (POOL.format(extra="      devices: cdi"),
             "s.yaml:9:7:", "unknown value 'cdi'"),
        ])


if __name__ == "__main__":
    main()
