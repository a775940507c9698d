"""End-to-end tests of Kueue quotas on DRA pools (docs/model.md §4.3, "DRA
claims"): Kueue counts the devices a workload's claims ask of a DeviceClass
against the quota resource its `device_class_mappings` entry names
(kubernetes-sigs/kueue resources.deviceClassMappings), so a quota of 4
keeps a queue's DRA pods to 4 GPUs at a time; a class whose DeviceClass no
mapping names, a class sharing claims by name (Kueue admits no such
workload), and malformed mappings, are refused at load; compare
converts the mapped quota for its variants.

Run as: python3 tests/dra_kueue_cli_test.py --binary /path/to/gpushare-sim
"""

import json

from cli_harness import TempDirTestCase, check_bad_scenarios, main, run_raw

SCENARIO = """\
name: dra-kueue
seed: 5
horizon_s: 7200
cluster:
  pools:
    - name: train
      gpu: A100-80GB
      nodes: 2
      gpus_per_node: 8
      cpu: 128
      memory_gib: 1024
      devices: dra
workload:
  horizon_s: 3600
  classes:
    - name: training
      class: batch
      tenants: [ml]
      queue: ml
      count: 40
      gpus: {{choice: [[1, 1], [2, 1]]}}
      gpu_memory_mib: 30000
      work_s: 600
      cpu_milli: 4000
      memory_mib: 16384
queues:
{mappings}
  cluster_queues:
    - name: ml
      resource_groups:
        - covered_resources: [cpu, memory, {resource}]
          flavors:
            - name: train
              resources:
                - {{name: cpu, nominal_quota: 256}}
                - {{name: memory, nominal_quota: 2Ti}}
                - {{name: {resource}, nominal_quota: 4}}
  local_queues:
    - {{name: ml, namespace: ml, cluster_queue: ml}}
"""

MAPPING = """\
  device_class_mappings:
    - name: example.com/whole-gpus
      device_class_names: [gpu.nvidia.com]"""


def gpus_of(requests):
    for item in requests.split():
        name, _, value = item.strip().partition("=")
        if name == "deviceclass.resource.kubernetes.io/gpu.nvidia.com":
            return int(value)
    return 0


class DraKueueTest(TempDirTestCase):

    def test_quota_counts_claimed_devices(self):
        path = self.write("s.yaml", SCENARIO.format(
            mappings=MAPPING, resource="example.com/whole-gpus"))
        out = self.path("r.json")
        result = run_raw("run", path, "--quiet", "--json", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        events = []
        started = 0
        for p in doc["pod_records"]:
            if p["start_s"] < 0:
                continue
            started += 1
            g = gpus_of(p["requests"])
            self.assertGreater(g, 0, p["requests"])
            end = p["end_s"] if p["end_s"] >= 0 else 1e18
            events.append((p["start_s"], g))
            events.append((end, -g))
        self.assertGreater(started, 10)
        # Ends before starts at the same instant: quota released first.
        events.sort(key=lambda e: (e[0], e[1]))
        in_use = peak = 0
        for _, delta in events:
            in_use += delta
            peak = max(peak, in_use)
        # 16 GPUs in the pool, 4 in the quota: Kueue holds the rest back.
        self.assertEqual(peak, 4)

    def test_compare_converts_the_mapped_quota(self):
        path = self.write("s.yaml", SCENARIO.format(
            mappings=MAPPING, resource="example.com/whole-gpus"))
        result = run_raw("compare", path, "--quiet", "--details",
                         "--seeds", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = " ".join(result.stdout.decode("utf-8").split())
        # 4 whole GPUs of quota: 16 time-slicing replicas through the
        # device plugin; 4 devices of the MIG variant's class, which gets a
        # mapping of its own.
        self.assertIn("quota example.com/whole-gpus 4 becomes nvidia.com/gpu "
                      "16 (4 GPUs)", out)
        self.assertIn("quota example.com/whole-gpus 4 becomes "
                      "mig-7g-80gb.gpu.nvidia.com 4 (4 GPUs)", out)
        self.assertIn("Kueue: DeviceClass mig-7g-80gb.gpu.nvidia.com mapped "
                      "to quota resource mig-7g-80gb.gpu.nvidia.com", out)

    def test_unmapped_device_class_is_refused(self):
        path = self.write("s.yaml", SCENARIO.format(
            mappings="", resource="nvidia.com/gpu"))
        result = run_raw("run", path, "--quiet")
        self.assertEqual(result.returncode, 2)
        self.assertIn(b"class 'training': its pods claim devices of "
                      b"DeviceClass gpu.nvidia.com through DRA, which no "
                      b"entry of queues.device_class_mappings maps",
                      result.stderr)

    def test_shared_claims_are_refused_under_kueue(self):
        # Kueue marks a workload whose pods name a ResourceClaim
        # inadmissible (pkg/controller/core/workload_controller.go).
        text = SCENARIO.format(mappings=MAPPING,
                               resource="example.com/whole-gpus")
        text = text.replace("      work_s: 600\n",
                            "      work_s: 600\n"
                            "      dra_claim: {pods_per_claim: 2}\n")
        path = self.write("s.yaml", text)
        result = run_raw("run", path, "--quiet")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(b"class 'training': its pods share ResourceClaims by "
                      b"name (dra_claim.pods_per_claim > 1), which Kueue "
                      b"does not admit", result.stderr)
        self.assertNotIn(b"Traceback", result.stderr)

    def test_bad_mappings_are_refused_where_written(self):
        def with_mappings(text):
            return SCENARIO.format(mappings=text,
                                   resource="example.com/whole-gpus")
        check_bad_scenarios(self, [
            (with_mappings("  device_class_mappings:\n"
                           "    - name: example.com/-gpus\n"
                           "      device_class_names: [gpu.nvidia.com]"),
             "s.yaml:28:13:", "must be a qualified name"),
            (with_mappings("  device_class_mappings:\n"
                           "    - name: example.com/whole-gpus\n"
                           "      device_class_names: []"),
             "s.yaml:29:27:", "expected 1 to 8 DeviceClass names, got 0"),
            (with_mappings(MAPPING + "\n"
                           "    - name: other\n"
                           "      device_class_names: [gpu.nvidia.com]"),
             "s.yaml:31:28:",
             "DeviceClass 'gpu.nvidia.com' is already mapped to resource "
             "example.com/whole-gpus"),
            (with_mappings("  device_class_mappings:\n"
                           "    - name: example.com/whole-gpus\n"
                           "      device_class_names: [gpu.nvidia.com, "
                           "gpu.nvidia.com]"),
             "s.yaml:29:44:", "DeviceClass 'gpu.nvidia.com' is listed twice"),
        ])


if __name__ == "__main__":
    main()
