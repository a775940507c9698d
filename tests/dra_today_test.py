"""End-to-end test of issue 52's "done when": today, replayed as it is.

examples/dra-today.yaml imports examples/kubectl/dra-today.json, one
`kubectl get nodes,pods,resourceslices,deviceclasses,resourceclaims,
resourceclaimtemplates -A -o json` List of a cluster run by NVIDIA's DRA
driver: two H100 nodes with a static MIG layout, two L4 nodes with consumable
shares (memory), notebooks asking 6Gi each allocated where first fit would
not put them, an A100 node whose claim triton-mps two pods share under the
driver's MPS GpuConfig, and a fine-tuning Job on two whole A100s. `run`
must replay every pod Running in the dump as the cluster runs it (no OOM
kill, failure or wait), on the devices its claims record; `compare` must
say the same of its replay of today.

Run as: python3 tests/dra_today_test.py --binary /path/to/gpushare-sim
"""

import csv
import json
import os
import re
import tempfile
import unittest

from cli_harness import main, run_raw, table_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "dra-today.yaml")
DUMP = os.path.join(ROOT, "examples", "kubectl", "dra-today.json")

# A claim's GpuConfig applies to that claim's devices only (the driver):
# ml/finetune-llama-m8k2d, whose own claim holds gpu-2 and gpu-3 of a100-0
# whole, with no config and capacity.requests.memory 60Gi, runs beside the
# MPS claim triton-mps on gpu-1 without its 20Gi pinned limit (it was
# OOM-killed at start when the whole node took the MPS limits).

# A request's own selectors that pick a GPU product (productName ==
# 'NVIDIA A100-SXM4-80GB') hold its pod to pools of that model: the Pending
# ml/eval-nightly-29186400-b7x4q, whose template selects the A100, gets
# a100-0's free gpu-0 (it was imported as "any GPU" and sent to an L4).


def load_dump():
    with open(DUMP, encoding="utf-8") as f:
        return json.load(f)["items"]


def running_pods(items):
    return [i for i in items
            if i["kind"] == "Pod" and i["status"]["phase"] == "Running"]


def recorded_devices(items):
    """Pod name -> sorted [(node, gpu, MIG profile or "")] its claims'
    status.allocation names."""
    claims = {(i["metadata"]["namespace"], i["metadata"]["name"]): i
              for i in items if i["kind"] == "ResourceClaim"}
    profiles = {}
    for s in items:
        if s["kind"] != "ResourceSlice":
            continue
        for d in s["spec"]["devices"]:
            p = d["attributes"].get("profile", {}).get("string", "")
            profiles[(s["spec"]["pool"]["name"], d["name"])] = p
    out = {}
    for p in running_pods(items):
        ns = p["metadata"]["namespace"]
        names = {}
        for s in p["status"].get("resourceClaimStatuses", []):
            names[s["name"]] = s["resourceClaimName"]
        devices = []
        for rc in p["spec"].get("resourceClaims", []):
            name = rc.get("resourceClaimName") or names[rc["name"]]
            for r in claims[(ns, name)]["status"]["allocation"]["devices"][
                    "results"]:
                gpu = int(re.match(r"gpu-(\d+)", r["device"]).group(1))
                devices.append((r["pool"], gpu,
                                profiles[(r["pool"], r["device"])]))
        if devices:
            out[f"{ns}/{p['metadata']['name']}"] = sorted(devices)
    return out


class DraTodayTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        result = run_raw("run", SCENARIO, "--json", os.path.join(d, "r.json"),
                         "--csv", os.path.join(d, "csv"))
        assert result.returncode == 0, result.stderr
        cls.stdout = result.stdout.decode("utf-8")
        with open(os.path.join(d, "r.json"), encoding="utf-8") as f:
            cls.doc = json.load(f)
        cls.records = {p["name"]: p for p in cls.doc["pod_records"]}
        with open(os.path.join(d, "csv", "devices.csv"), encoding="utf-8") as f:
            cls.devices = {int(r["device"]): r for r in csv.DictReader(f)}
        cls.items = load_dump()
        cls.running = [f"{p['metadata']['namespace']}/{p['metadata']['name']}"
                       for p in running_pods(cls.items)]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def where(self, record):
        """[(node, gpu, profile)] of the devices a pod record ran on."""
        rows = [self.devices[i] for i in record["devices"]]
        return sorted((r["node"], int(r["gpu"]), r["profile"]) for r in rows)

    def test_the_dump_is_the_cluster_of_the_issue(self):
        self.assertEqual(len(self.running), 34)
        self.assertEqual(len(self.records), 38)
        pools = {r[0]: r for r in table_rows(self.stdout, "POOL")}
        self.assertEqual(pools["h100-80gb-x2-mig-dra"][1:3], ["MIG", "(DRA)"])
        self.assertIn("DRA shared capacity (memory)", self.stdout)
        self.assertIn("l4-x4-time-slicing-dra", pools)
        self.assertIn("a100-80gb-x4-mps-dra", pools)
        self.assertIn("DRA MPS, 50% threads, 20480Mi pinned", self.stdout)
        self.assertEqual(sum(1 for i in self.items
                             if i["kind"] == "ResourceClaim"
                             and "status" in i), 18)

    def test_every_running_pod_runs_as_in_the_cluster(self):
        self.assertEqual(self.doc["replay_check"],
                         {"running_pods": 34, "window_s": 600.0,
                          "artefacts": []})
        self.assertIn("Replay of today: the 34 pod(s) Running in the dump "
                      "run in the replay", self.stdout)
        self.assertEqual(self.doc["failed"], 0)
        self.assertEqual(self.doc["oom_kills"], 0)
        for name in self.running:
            r = self.records[name]
            self.assertEqual((name, r["oom_kills"], r["outcome"]),
                             (name, 0, "Deleted"))

    def test_running_pods_start_at_once_on_their_nodes(self):
        # What holds despite bug A: each Running pod is bound to its node at
        # time 0 and, but for the fine-tuning Job, runs its whole lifetime.
        nodes = {f"{p['metadata']['namespace']}/{p['metadata']['name']}":
                 p["spec"]["nodeName"] for p in running_pods(self.items)}
        for name in self.running:
            r = self.records[name]
            self.assertEqual((name, r["node"], r["start_s"], r["wait_s"]),
                             (name, nodes[name], 0.0, 0.0))
            self.assertEqual((name, r["oom_kills"], r["outcome"], r["run_s"]),
                             (name, 0, "Deleted", 3600.0))
        self.assertEqual(
            [a["pod"] for a in self.doc["replay_check"]["artefacts"]
             if a["pod"] != "ml/finetune-llama-m8k2d"], [])

    def test_running_pods_keep_their_recorded_devices(self):
        recorded = recorded_devices(self.items)
        self.assertEqual(len(recorded), 19)
        for name, devices in recorded.items():
            self.assertEqual((name, self.where(self.records[name])),
                             (name, devices))
        # Three notebooks share l4-0's gpu-0 (18Gi of its 23034Mi); dave's
        # claim holds gpu-3, where first fit (gpu-1, the next with room)
        # would not put it.
        self.assertEqual(
            {n: self.where(self.records[f"research/{n}-0"])
             for n in ("alice", "bob", "carol", "dave")},
            {"alice": [("l4-0", 0, "")], "bob": [("l4-0", 0, "")],
             "carol": [("l4-0", 0, "")], "dave": [("l4-0", 3, "")]})
        # No two MIG pods on one instance.
        mig = [d for r in self.doc["pod_records"] for d in r["devices"]
               if r["pool"] == "h100-80gb-x2-mig-dra"]
        self.assertEqual(len(mig), len(set(mig)))

    def test_no_l4_holds_more_6gi_claims_than_its_memory(self):
        # 23034Mi holds three 6Gi claims, not four; the Pending notebooks
        # go where memory is left.
        per_device = {}
        for r in self.doc["pod_records"]:
            if r["pool"] == "l4-x4-time-slicing-dra" and \
                    r["name"].startswith("research/"):
                self.assertIn("gpu.nvidia.com/memory=6144", r["requests"])
                for d in r["devices"]:
                    per_device[d] = per_device.get(d, 0) + 1
        self.assertEqual(sum(per_device.values()), 10)
        self.assertLessEqual(max(per_device.values()), 3)
        for n in ("ivan", "judy"):
            r = self.records[f"research/{n}-0"]
            self.assertEqual((r["outcome"], r["oom_kills"]), ("Deleted", 0))

    def test_both_pods_of_the_mps_claim_run_on_its_gpu(self):
        a = self.records["ml/triton-7c9b8d6f5-h2k9s"]
        b = self.records["ml/triton-7c9b8d6f5-x4p7m"]
        for r in (a, b):
            self.assertEqual(self.where(r), [("a100-0", 1, "")])
            self.assertEqual(r["gpu_share"], 0.5)
            self.assertEqual((r["oom_kills"], r["run_s"]), (0, 3600.0))
        self.assertEqual(a["devices"], b["devices"])
        self.assertIn("2 pod(s) sharing a ResourceClaim with other pods",
                      self.stdout)

    def test_the_fine_tuning_job_keeps_its_whole_gpus(self):
        r = self.records["ml/finetune-llama-m8k2d"]
        self.assertEqual(self.where(r), [("a100-0", 2, ""), ("a100-0", 3, "")])
        self.assertEqual((r["oom_kills"], r["outcome"], r["message"]),
                         (0, "Deleted", ""))

    def test_the_pending_job_gets_the_a100_its_claim_selects(self):
        r = self.records["ml/eval-nightly-29186400-b7x4q"]
        self.assertEqual(self.where(r), [("a100-0", 0, "")])

    def compare(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "c.json")
            result = run_raw("compare", SCENARIO, "--details", "--json",
                             out)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out, encoding="utf-8") as f:
                return result.stdout.decode("utf-8"), json.load(f)

    def test_compare_answers_for_every_team(self):
        stdout, doc = self.compare()
        self.assertIn("Recommended: ", stdout)
        self.assertEqual(doc["replay_check"]["running_pods"], 34)
        classes = {s["tenant_class"]: s for s in doc["selection"]}
        self.assertEqual(sorted(classes), ["ml", "research", "serving",
                                           "system"])
        for c in ("ml", "research", "serving"):
            self.assertIsNotNone(classes[c]["winner"], c)
        self.assertEqual(classes["system"]["recommendation"],
                         "no GPU (no scheme)")

    def test_compare_is_not_driven_by_replay_artefacts(self):
        stdout, doc = self.compare()
        self.assertEqual(doc["replay_check"],
                         {"running_pods": 34, "window_s": 600.0,
                          "artefacts": []})
        self.assertIn("Replay of today: the 34 pod(s) Running in the dump "
                      "run in the replay", stdout)


if __name__ == "__main__":
    main()
