"""End-to-end tests of shared ResourceClaims (a class's `dra_claim:
{pods_per_claim: K}`, docs/scenario.md; docs/model.md "DRA pools"): K
consecutive pods of the class reference one claim, run on its node and GPU,
time-sliced (the NVIDIA driver applies no sharing config by default), and the
run is deterministic and passes check_invariants. Refusals of the key:
tests/bad_inputs (dra_claim_*).

Run as: python3 tests/dra_shared_claims_test.py --binary /path/to/gpushare-sim
"""

import collections
import json
import os

from cli_harness import TempDirTestCase, main, run_raw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "dra-mps.yaml")

SHARED = """\
name: shared-claims
seed: 7
horizon_s: 3600
cluster:
  pools:
    - {name: serve, gpu: A100-80GB, nodes: 2, gpus_per_node: 2, cpu: 64,
       memory_gib: 512, devices: dra}
workload:
  horizon_s: 1800
  classes:
    - name: replicas
      class: inference
      count: 12
      gpus: 1
      gpu_memory_mib: 10000
      sm_demand: 0.3
      duty: 0.5
      work_s: 0
      lifetime_s: 1200
      request_rate: 5
      gpu_ms_per_request: 20
      slo_p99_ms: 200
      cpu_milli: 4000
      memory_mib: 8192
      dra_claim: {pods_per_claim: 3}
"""


class DraSharedClaimsTest(TempDirTestCase):

    def run_json(self, text, name):
        path = self.write(name + ".yaml", text)
        out = self.path(name + ".json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, "rb") as f:
            raw = f.read()
        return raw, json.loads(raw.decode("utf-8"))

    def test_three_pods_per_claim_share_its_gpu(self):
        _, doc = self.run_json(SHARED, "a")
        records = doc["pod_records"]
        self.assertEqual(len(records), 12)
        # Pod n references claim n // 3: each claim's pods are on one node
        # and one GPU; the four claims take the four GPUs.
        by_claim = collections.defaultdict(set)
        for p in records:
            self.assertEqual(p["outcome"], "Deleted", p)
            n = int(p["name"].rsplit("-", 1)[1])
            by_claim[n // 3].add((p["node"], tuple(p["devices"])))
        self.assertEqual(len(by_claim), 4)
        for claim, places in by_claim.items():
            self.assertEqual(len(places), 1, (claim, places))
        gpus = {next(iter(places))[1] for places in by_claim.values()}
        self.assertEqual(len(gpus), 4, by_claim)
        # Pods 0 and 1 of claim 0 run on its GPU at the same time.
        first, second = records[0], records[1]
        self.assertEqual(first["devices"], second["devices"])
        self.assertLess(second["start_s"], first["end_s"])
        # Each pod holds a third of its claim's GPU (gpu_share, as a
        # replica holds 1/R); a pod per claim holds it whole.
        for p in records:
            self.assertAlmostEqual(p["gpu_share"], 1 / 3, places=9, msg=p)
        _, alone = self.run_json(
            SHARED.replace("pods_per_claim: 3", "pods_per_claim: 1"), "one")
        for p in alone["pod_records"]:
            self.assertEqual(p["gpu_share"], 1, p)

    def test_deterministic_and_invariants_hold(self):
        a, _ = self.run_json(SHARED, "a")
        b, _ = self.run_json(SHARED, "b")
        self.assertEqual(a, b)
        self.run_json(SHARED + "scheduler: {check_invariants: true}\n", "i")

    def test_one_pod_per_claim_is_a_claim_per_pod(self):
        # pods_per_claim: 1 is the default's claim per pod: the same run.
        a, _ = self.run_json(SHARED, "a")
        one, _ = self.run_json(
            SHARED.replace("pods_per_claim: 3", "pods_per_claim: 1"), "one")
        none, _ = self.run_json(
            SHARED.replace("      dra_claim: {pods_per_claim: 3}\n", ""),
            "none")
        self.assertEqual(one, none)
        self.assertNotEqual(a, none)

    def test_plan_out_writes_a_scenario_that_runs(self):
        # examples/dra-mps.yaml: whatever the plan picks, the scenario it
        # writes is read again (dra_claim and dra.mps kept only where they
        # still apply) and runs.
        out = self.path("plan")
        result = run_raw("plan", EXAMPLE, "--quiet", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        again = run_raw("run", os.path.join(out, "scenario.yaml"), "--quiet")
        self.assertEqual(again.returncode, 0, again.stderr)

    def test_dra_mps_example_runs_under_mps(self):
        out = self.path("m.json")
        result = run_raw("run", EXAMPLE, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        labels = {p["name"]: p.get("label") for p in doc["pools"]}
        self.assertEqual(labels, {
            "mps": "DRA MPS, 25% threads, 5120Mi pinned",
            "shared": "exclusive (DRA)"})
        # The chat replicas, four to a claim, share their L4 four at a time
        # at most.
        chat = [p for p in doc["pod_records"] if p["tenant_class"] == "chat"]
        self.assertEqual(len(chat), 48)
        by_claim = collections.defaultdict(set)
        for p in chat:
            if p["node"]:
                n = int(p["name"].rsplit("-", 1)[1])
                by_claim[n // 4].add((p["node"], tuple(p["devices"])))
        for places in by_claim.values():
            self.assertEqual(len(places), 1, by_claim)


if __name__ == "__main__":
    main()
