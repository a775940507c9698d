"""End-to-end tests of the kubectl import of DRA objects (docs/scenario.md
"kubectl DRA objects"): one `kubectl get nodes,pods,resourceslices,
deviceclasses,resourceclaims,resourceclaimtemplates -A -o json` List
(tests/data/kubectl/dra-cluster.json) is both the cluster import and the pod
trace; nodes with gpu.nvidia.com ResourceSlices become devices: dra pools,
pods' claims their GPU demand; `run` exits 0, deterministically; an older
resource.k8s.io version or a malformed slice is a located error (exit 2,
nothing written).

Run as: python3 tests/dra_import_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import (DATA_DIR, TempDirTestCase, check_bad_scenarios,
                         kubectl_dump_scenario, main, run, run_raw, table_rows)

CLUSTER = os.path.join(DATA_DIR, "kubectl", "dra-cluster.json")


def scenario(path):
    return kubectl_dump_scenario("dra-import", path)


class DraImportTest(TempDirTestCase):

    def run_json(self, name):
        s = self.write("s.yaml", scenario(CLUSTER))
        out = self.path(name)
        result = run_raw("run", s, "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, b"")
        with open(out, "rb") as f:
            raw = f.read()
        return result.stdout.decode("utf-8"), raw, json.loads(raw)

    def test_slices_make_dra_pools_and_claims_place_pods(self):
        stdout, _, doc = self.run_json("a.json")
        # The nodes' side of the import is said, as the pods' is.
        self.assertIn("note: node import: 3 node(s) with a gpu.nvidia.com "
                      "ResourceSlice", stdout)
        pools = {r[0]: r for r in table_rows(stdout, "POOL")}
        # dgx-0 and dgx-1 publish gpu-0..gpu-3: 8 GPUs in one pool; mig-0
        # two MIG-cut GPUs; cpu-0 no slice.
        self.assertEqual(pools["a100-80gb-x4-dra"][1:5],
                         ["exclusive", "(DRA)", "A100-80GB", "8"])
        # The layout the slice's MIG devices spell out.
        self.assertEqual(pools["a100-80gb-x2-mig-dra"][1:3], ["MIG", "(DRA)"])
        self.assertEqual(pools["a100-80gb-x2-mig-dra"][-6:-4],
                         ["A100-80GB", "2"])
        self.assertIn("cpu", pools)
        records = {p["name"]: p for p in doc["pod_records"]}
        self.assertEqual(len(records), 6)
        # Running with an allocated claim of two GPUs: bound to its node.
        train0 = records["ml/train-0"]
        self.assertEqual(train0["node"], "dgx-0")
        self.assertEqual(train0["start_s"], 0.0)
        self.assertIn("deviceclass.resource.kubernetes.io/gpu.nvidia.com=2",
                      train0["requests"])
        # A pending pod asking the 1g.10gb class goes to the MIG pool.
        infer1 = records["ml/infer-1"]
        self.assertEqual(infer1["pool"], "a100-80gb-x2-mig-dra")
        self.assertIn("deviceclass.resource.kubernetes.io/"
                      "mig-1g-10gb.gpu.nvidia.com=1", infer1["requests"])
        self.assertEqual(records["ml/train-2"]["gpu_share"], 1.0)
        self.assertEqual(records["kube-system/coredns-1"]["node"], "cpu-0")
        for p in doc["pod_records"]:
            self.assertNotIn("nvidia.com/gpu=", p["requests"])
        self.assertIn("note: pod import: 5 pod(s) with ResourceClaims of "
                      "NVIDIA GPUs", stdout)
        self.assertIn("modelled): nic.example.com", stdout)

    def test_output_is_deterministic(self):
        out1, raw1, _ = self.run_json("a.json")
        out2, raw2, _ = self.run_json("b.json")
        self.assertEqual(raw1, raw2)
        self.assertEqual(out1.split("\n", 1)[1], out2.split("\n", 1)[1])

    def test_claim_no_device_satisfies_leaves_its_pod_unschedulable(self):
        # issue 51: an `All` request matching no device of the List (its
        # selector names a product no GPU has) was left out, and the pod ran
        # without a GPU; upstream's allocator cannot allocate the claim.
        with open(CLUSTER) as f:
            doc = json.load(f)
        for item in doc["items"]:
            if (item["kind"] == "ResourceClaimTemplate"
                    and item["metadata"]["name"] == "one-gpu"):
                exactly = item["spec"]["spec"]["devices"]["requests"][0][
                    "exactly"]
                exactly["allocationMode"] = "All"
                exactly["selectors"] = [{"cel": {"expression":
                    "device.attributes['gpu.nvidia.com'].productName == "
                    "'NVIDIA B900'"}}]
        cluster = self.write("c.json", json.dumps(doc, indent=1))
        s = self.write("s.yaml", scenario(cluster))
        out = self.path("r.json")
        result = run_raw("run", s, "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        stdout = result.stdout.decode("utf-8")
        self.assertIn("note: pod import: 1 request(s) that no device of the "
                      "list's ResourceSlices", stdout)
        with open(out) as f:
            records = {p["name"]: p for p in json.load(f)["pod_records"]}
        train2 = records["ml/train-2"]
        self.assertEqual(train2["outcome"], "Unschedulable")
        self.assertEqual(train2["message"],
                         "0/4 nodes are available: 4 cannot allocate all "
                         "claims.")
        self.assertEqual(train2["node"], "")
        self.assertEqual(train2["gpu_hours"], 0)

    def test_running_pods_keep_their_recorded_devices(self):
        # train-0's claim is allocated gpu-3 and gpu-1 of dgx-0 (the first
        # node: device indexes 3 and 1); first fit would give gpu-0, gpu-1.
        with open(CLUSTER, encoding="utf-8") as f:
            doc = json.load(f)
        for item in doc["items"]:
            if (item["kind"] == "ResourceClaim"
                    and item["metadata"]["name"] == "train-0-gpu-7xk2p"):
                results = item["status"]["allocation"]["devices"]["results"]
                results[0]["device"], results[1]["device"] = "gpu-3", "gpu-1"
        cluster = self.write("cluster.json", json.dumps(doc))
        s = self.write("s.yaml", scenario(cluster))
        out = self.path("pinned.json")
        result = run_raw("run", s, "--json", out, "--quiet")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            run_doc = json.load(f)
        train = [p for p in run_doc["pod_records"] if p["name"] == "ml/train-0"]
        self.assertEqual(train[0]["node"], "dgx-0")
        self.assertEqual(train[0]["devices"], [3, 1])
        # The replay of today: the three Running pods run as in the cluster.
        self.assertEqual(run_doc["replay_check"],
                         {"running_pods": 3, "window_s": 600.0,
                          "artefacts": []})
        self.assertIn("Replay of today: the 3 pod(s) Running in the dump run "
                      "in the replay", result.stdout.decode("utf-8"))

    def test_bad_dra_objects_are_located_errors(self):
        with open(CLUSTER, encoding="utf-8") as f:
            doc = json.load(f)
        old = json.loads(json.dumps(doc))
        old["items"][4]["apiVersion"] = "resource.k8s.io/v1beta1"
        nameless = json.loads(json.dumps(doc))
        del nameless["items"][5]["spec"]["devices"][2]["attributes"][
            "productName"]
        cases = []
        for name, bad, where, phrase in [
                ("old.json", old, "old.json:", "items[4].apiVersion: a "
                 "ResourceSlice of resource.k8s.io/v1beta1: the import reads "
                 "resource.k8s.io/v1"),
                ("bad.json", nameless, "bad.json:",
                 "items[5].spec.devices[2].attributes: device 'gpu-2' has no "
                 "productName attribute")]:
            path = self.write(name, json.dumps(bad, indent=1))
            cases.append((scenario(path), where, phrase))
        check_bad_scenarios(self, cases)
        # The line is the apiVersion's own.
        code, _, stderr = run("run", self.write("s.yaml", cases[0][0]))
        self.assertEqual(code, 2)
        line = int(stderr.split("old.json:")[1].split(":")[0])
        with open(self.path("old.json"), encoding="utf-8") as f:
            self.assertIn("resource.k8s.io/v1beta1", f.read().splitlines()[line - 1])


if __name__ == "__main__":
    main()
