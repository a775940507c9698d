"""End-to-end tests of DRA pools (`devices: dra`, docs/model.md "DRA pools"):
examples/dra.yaml runs with pods on its DRA pools (a "DRA time-slicing x4"
pool among them), deterministically; a memory-mode pool ("DRA shared
capacity") packs claims by the memory they ask; compare and plan run the
schemes DRA does not serve (MPS, HAMi) through the device plugin;
a pool that asks DRA for a sharing scheme it does not
serve yet is refused at load with a located error. What emit writes for
DRA pools: tests/dra_emit_test.py.

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
        self.assertGreater(ran[("notebooks", "notebooks")], 0, ran)
        # Every pod stays in the pool its selector names.
        for (cls, pool), _ in ran.items():
            self.assertEqual(
                {"training": "train", "services": "inference",
                 "platform-jobs": "platform", "notebooks": "notebooks"}[cls],
                pool)
        # Reports name the DRA pools' sharing; device-plugin pools have no
        # label (their scheme says it).
        labels = {p["name"]: p.get("label") for p in doc["pools"]}
        self.assertEqual(labels, {
            "train": "exclusive (DRA)",
            "inference": "MIG (DRA) all-balanced",
            "notebooks": "DRA time-slicing x4, interval Short",
            "platform": None})
        # Up to four notebooks share an L4 (20 one-GPU claims on 2 GPUs):
        # some GPU holds four at once, none ever more.
        most = 0
        for p in doc["pod_records"]:
            if p["tenant_class"] != "notebooks" or p["start_s"] is None \
                    or p["start_s"] < 0:
                continue
            t = p["start_s"]
            together = 0
            for q in doc["pod_records"]:
                if (q["tenant_class"] == "notebooks" and
                        q["devices"] == p["devices"] and
                        q["start_s"] is not None and 0 <= q["start_s"] <= t
                        and (q["end_s"] is None or q["end_s"] < 0
                             or q["end_s"] > t)):
                    together += 1
            most = max(most, together)
        self.assertEqual(most, 4)
        self.assertEqual(
            {p["scheme"] for p in doc["pools"] if p["name"] == "notebooks"},
            {"time-slicing"})
        # The JSON marks the DRA pools, and only them.
        self.assertEqual({p["name"]: p.get("devices") for p in doc["pools"]},
                         {"train": "dra", "inference": "dra",
                          "notebooks": "dra", "platform": None})
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
        result = run_raw("compare", EXAMPLE, "--quiet", "--details",
                         "--seeds", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.decode("utf-8")
        # Wrapped by the report: the note's first words stay on one line.
        # Time-slicing stays on DRA (consumable shares); MPS does not.
        self.assertIn("note: pool train runs mps through its device", out)
        self.assertNotIn("pool train runs time-slicing through", out)
        self.assertNotIn("pool train runs exclusive through", out)

    def test_plan_meets_its_constraints(self):
        result = run_raw("plan", EXAMPLE, "--quiet")
        self.assertEqual(result.returncode, 0, result.stderr)

class DraRefusalsTest(TempDirTestCase):

    def test_unserved_schemes_and_values_are_refused(self):
        check_bad_scenarios(self, [
            (POOL.format(extra="      devices: dra\n"
                               "      dra: {mps: {default_active_thread_"
                               "percentage: 50}}"),
             "s.yaml:10:7:",
             "dra.mps needs sharing scheme mps"),
            (POOL.format(extra="      devices: dra\n"
                               "      sharing: {scheme: hami}"),
             "s.yaml:9:7:", "does not serve sharing 'hami'"),
            (POOL.format(extra="      devices: cdi"),
             "s.yaml:9:7:", "unknown value 'cdi'"),
        ])

    def test_dra_settings_are_checked(self):
        ts = ("      devices: dra\n"
              "      sharing: {scheme: time-slicing, replicas: 4}\n")
        check_bad_scenarios(self, [
            (POOL.format(extra=ts + "      dra: {consumable_shares: 3}"),
             "s.yaml:11:7:",
             "dra.consumable_shares 3 disagrees with sharing.replicas 4"),
            (POOL.format(extra=ts + "      dra: {consumable_shares: 1}"),
             "s.yaml:11:32:", "consumable_shares"),
            (POOL.format(extra=ts + "      dra: {consumable_shares: disabled}"),
             "s.yaml:11:13:", "one claim shared by several pods is not "
             "modelled yet"),
            (POOL.format(extra=ts + "      dra: {time_slicing_interval: Tiny}"),
             "s.yaml:11:13:", "unknown value 'Tiny' (expected Default, "
             "Short, Medium or Long)"),
            (POOL.format(extra=ts + "      dra: {extended_resource: true, "
                               "consumable_shares: memory}"),
             "s.yaml:11:7:", "a pod asking nvidia.com/gpu cannot ask memory"),
            (POOL.format(extra=ts + "      dra: {shares: 4}"),
             "s.yaml:11:13:", "shares"),
            (POOL.format(extra="      devices: dra\n"
                               "      dra: {consumable_shares: memory}"),
             "s.yaml:10:7:",
             "dra.consumable_shares memory needs sharing scheme "
             "time-slicing"),
            (POOL.format(extra="      devices: dra\n"
                               "      dra: {time_slicing_interval: Long}"),
             "s.yaml:10:7:", "needs sharing scheme time-slicing"),
            (POOL.format(extra="      dra: {consumable_shares: memory}"),
             "s.yaml:9:7:", "applies to pools with devices: dra"),
        ])


MEMORY_POOL = """\
name: shared-capacity
seed: 7
horizon_s: 3600
cluster:
  pools:
    - name: p
      gpu: A100-80GB
      nodes: 1
      gpus_per_node: 2
      devices: dra
      sharing: {scheme: time-slicing, replicas: 2}
      dra: {consumable_shares: memory}
workload:
  classes:
    - name: a
      class: batch
      count: 3
      arrival_rate_per_s: 10
      gpus: 1
      gpu_memory_mib: 30720
      duty: 0.5
      work_s: 600
      cpu_milli: 1000
      memory_mib: 1024
"""


class DraSharedCapacityTest(TempDirTestCase):

    def test_claims_pack_by_the_memory_they_ask(self):
        path = self.write("m.yaml", MEMORY_POOL)
        out = self.path("m.json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual([p.get("label") for p in doc["pools"]],
                         ["DRA shared capacity (memory)"])
        records = doc["pod_records"]
        self.assertEqual(len(records), 3)
        for p in records:
            self.assertIn("gpu.nvidia.com/memory=30720", p["requests"])
            self.assertEqual(p["outcome"], "Succeeded", p)
        # 30 GiB claims on two 80 GiB GPUs: two on gpu-0, the third on gpu-1
        # (replicas 2 does not bound them: memory does).
        # (All three arrive within 0.3 s and run together.)
        gpus = sorted(p["devices"] for p in records)
        self.assertEqual(gpus, [[0], [0], [1]], records)
        # check_invariants holds.
        inv = self.write("i.yaml",
                         MEMORY_POOL + "scheduler: {check_invariants: true}\n")
        self.assertEqual(run_raw("run", inv, "--quiet").returncode, 0)

    def test_no_memory_isolation(self):
        # The claims ask the class's 1st-percentile size, 30100 MiB of
        # uniform [30000, 40000]; the pods use more (up to 40000) and are not
        # stopped: two fit one 80 GiB GPU by their claims, and their
        # footprints (at most 80000 MiB) fit its 81920 MiB, so no OOM.
        text = (MEMORY_POOL.replace("gpus_per_node: 2", "gpus_per_node: 1")
                .replace("count: 3", "count: 2")
                .replace("gpu_memory_mib: 30720",
                         "gpu_memory_mib: {uniform: [30000, 40000]}\n"
                         "      request_percentile: 1"))
        path = self.write("n.yaml", text)
        out = self.path("n.json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            records = json.load(f)["pod_records"]
        self.assertEqual(len(records), 2)
        for p in records:
            self.assertIn("gpu.nvidia.com/memory=30100", p["requests"])
            self.assertEqual(p["oom_kills"], 0, p)
            self.assertEqual(p["outcome"], "Succeeded", p)
            self.assertEqual(p["devices"], [0])
        # Both ran at once on the one GPU.
        a, b = records
        self.assertLess(max(a["start_s"], b["start_s"]),
                        min(a["end_s"], b["end_s"]))


MIXED_EXTENDED = """\
name: kep-5004
seed: 3
horizon_s: 7200
cluster:
  pools:
    - {name: plugin, gpu: A100-80GB, nodes: 1, gpus_per_node: 4}
    - {name: dra, gpu: A100-80GB, nodes: 1, gpus_per_node: 4, devices: dra,
       dra: {extended_resource: true}}
workload:
  horizon_s: 3600
  classes:
    - name: jobs
      class: batch
      count: 40
      arrival_rate_per_s: 0.05
      gpus: 1
      gpu_memory_mib: 20000
      work_s: 600
"""


class DraExtendedResourceTest(TempDirTestCase):
    """KEP-5004: a DRA pool whose DeviceClass gpu.nvidia.com carries
    extendedResourceName nvidia.com/gpu serves pods that ask nvidia.com/gpu,
    beside a device-plugin pool that serves the same request."""

    def test_pods_asking_nvidia_gpu_run_on_both_pools(self):
        path = self.write("s.yaml", MIXED_EXTENDED)
        out = self.path("r.json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        pools = collections.Counter(p["pool"] for p in doc["pod_records"]
                                    if p["pool"])
        # One request, two ways to serve it: both pools take pods.
        self.assertGreater(pools["plugin"], 0, pools)
        self.assertGreater(pools["dra"], 0, pools)
        for p in doc["pod_records"]:
            self.assertIn("nvidia.com/gpu=1", p["requests"])
            self.assertNotIn("deviceclass.resource", p["requests"])
        check = self.write("inv.yaml", MIXED_EXTENDED +
                           "scheduler: {check_invariants: true}\n")
        self.assertEqual(run_raw("run", check, "--quiet").returncode, 0)


if __name__ == "__main__":
    main()
