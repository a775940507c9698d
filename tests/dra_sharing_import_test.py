"""End-to-end tests of issue 52 points 1 and 3: an imported cluster whose
claims share GPUs is replayed as it runs (tests/data/kubectl/dra-sharing.json:
an L4 node with 4 consumable shares per GPU, four notebook claims asking
capacity.requests.memory 6Gi allocated three on gpu-0 and one on gpu-1, and a
ResourceClaim with the NVIDIA driver's MPS GpuConfig that two Running pods
name). The claims' memory is consumed of each GPU's memory capacity in every
consumable-shares mode (no OOM kill), both pods of the shared claim run on
its GPU under DRA MPS with the config's limits, and configs the driver
refuses are located errors (exit 2, nothing on stdout).

Run as: python3 tests/dra_sharing_import_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import (DATA_DIR, TempDirTestCase, check_bad_scenarios,
                         kubectl_dump_scenario, main, run_raw, table_rows)

CLUSTER = os.path.join(DATA_DIR, "kubectl", "dra-sharing.json")


def scenario(path):
    return kubectl_dump_scenario("dra-sharing", path)


class DraSharingImportTest(TempDirTestCase):

    def run_doc(self, path=CLUSTER):
        s = self.write("s.yaml", scenario(path))
        out = self.path("r.json")
        result = run_raw("run", s, "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out) as f:
            doc = json.load(f)
        return (result.stdout.decode("utf-8"),
                {p["name"]: p for p in doc["pod_records"]})

    def load(self):
        with open(CLUSTER) as f:
            return json.load(f)

    def test_notebook_claims_consume_memory_and_nothing_is_oom_killed(self):
        stdout, records = self.run_doc()
        self.assertIn("OOM kills 0", stdout)
        self.assertIn("failed 0", stdout)
        # Three 6 GiB claims fill 18432 of gpu-0's 23034 MiB; the fourth
        # goes to gpu-1 although gpu-0 has a fourth share.
        devices = [records[f"lab/notebook-{i}"]["devices"] for i in range(4)]
        self.assertEqual(devices, [[0], [0], [0], [1]])
        for i in range(4):
            r = records[f"lab/notebook-{i}"]
            self.assertEqual(r["oom_kills"], 0)
            self.assertEqual(r["run_s"], 1800.0)
            self.assertIn("gpu.nvidia.com/memory=6144", r["requests"])

    def test_shared_mps_claim_gives_both_pods_the_gpu(self):
        stdout, records = self.run_doc()
        pools = {r[0]: r for r in table_rows(stdout, "POOL")}
        self.assertIn("a100-80gb-x1-mps-dra", pools)
        self.assertIn("DRA MPS, 50% threads, 20480Mi pinned", stdout)
        a, b = records["ml/infer-a"], records["ml/infer-b"]
        for r in (a, b):
            self.assertEqual(r["node"], "a100-0")
            self.assertEqual(r["run_s"], 1800.0)
            self.assertEqual(r["devices"], [2])  # the claim's one GPU
            self.assertEqual(r["gpu_share"], 0.5)
            self.assertIn("deviceclass.resource.kubernetes.io/gpu.nvidia.com"
                          "=1", r["requests"])
        self.assertIn("2 pod(s) sharing a ResourceClaim with other pods",
                      stdout)

    def test_a_pinned_limit_below_the_footprint_oom_kills_at_start(self):
        # The claim's pinned memory limit is each MPS client's memory limit:
        # 1Gi, below the pods' footprint (the trace's default), OOM-kills
        # them at start as the MPS model does.
        doc = self.load()
        for item in doc["items"]:
            if item["metadata"]["name"] == "shared-mps" and \
                    item["kind"] == "ResourceClaim":
                item["spec"]["devices"]["config"][0]["opaque"]["parameters"][
                    "sharing"]["mpsConfig"][
                        "defaultPinnedDeviceMemoryLimit"] = "1Gi"
        stdout, records = self.run_doc(
            self.write("c.json", json.dumps(doc, indent=1)))
        self.assertIn("1024Mi pinned", stdout)
        self.assertGreater(records["ml/infer-a"]["oom_kills"], 0)

    def test_refused_configs_are_located_errors(self):
        def variant(name, mutate):
            doc = self.load()
            for item in doc["items"]:
                mutate(item)
            path = self.write(name, json.dumps(doc, indent=1))
            return path

        def sharing_of(item):
            if item["kind"] == "ResourceClaim" and \
                    item["metadata"]["name"] == "shared-mps":
                return item["spec"]["devices"]["config"][0]["opaque"][
                    "parameters"]["sharing"]
            return None

        def unknown(item):
            s = sharing_of(item)
            if s is not None:
                s["strategy"] = "Spatial"

        def percent(item):
            s = sharing_of(item)
            if s is not None:
                s["mpsConfig"]["defaultActiveThreadPercentage"] = 150

        def interval(item):
            s = sharing_of(item)
            if s is not None:
                s["strategy"] = "TimeSlicing"
                del s["mpsConfig"]
                s["timeSlicingConfig"] = {"interval": "Forever"}

        def mps_on_shares(item):
            # The MPS config on a notebook claim, allocated on the L4 node
            # that publishes consumable shares.
            if item["kind"] == "ResourceClaim" and \
                    item["metadata"]["name"] == "notebook-0":
                item["spec"]["devices"]["config"] = [{"opaque": {
                    "driver": "gpu.nvidia.com", "parameters": {
                        "apiVersion": "resource.nvidia.com/v1beta1",
                        "kind": "GpuConfig",
                        "sharing": {"strategy": "MPS"}}}}]

        cases = []
        for name, mutate, phrase in [
                ("unknown.json", unknown, "claim ml/shared-mps: unknown GPU "
                 "sharing strategy: Spatial"),
                ("percent.json", percent, "claim ml/shared-mps: active thread "
                 "percentage must not be greater than 100"),
                ("interval.json", interval, "claim ml/shared-mps: unknown "
                 "time-slice interval: Forever"),
                ("shares.json", mps_on_shares, "claim lab/notebook-0: MPS "
                 "sharing is not supported when consumable shares is "
                 "enabled")]:
            path = variant(name, mutate)
            cases.append((scenario(path), name + ":", phrase))
        check_bad_scenarios(self, cases)
        # error: FILE:LINE:COL, nothing on stdout; the line is the value's.
        result = run_raw("run", self.write("s.yaml", cases[0][0]))
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, b"")
        stderr = result.stderr.decode("utf-8")
        self.assertTrue(stderr.startswith("error: "), stderr)
        line = int(stderr.split("unknown.json:")[1].split(":")[0])
        with open(self.path("unknown.json"), encoding="utf-8") as f:
            self.assertIn('"Spatial"', f.read().splitlines()[line - 1])


if __name__ == "__main__":
    main()
