"""End-to-end tests of multi-GPU pods on shared devices (issue 54, point 3).

(a) A 2-GPU DDP pod on a time-sliced pool with failRequestsGreaterThanOne
false gets two replicas of its node's one GPU (the device plugin's
allocation), its ranks meet on that GPU, NCCL refuses them and the pod
crash-loops until its restarts run out; with the flag true kubelet rejects
it at admission. A plan that proposes time-slicing writes the flag true, and
refuses to put the DDP class on such a pool.

(b) A pod asking for two MIG instances cannot run (Unschedulable, with the
reason), unless its class says multi_process: true.

Run as: python3 tests/multi_gpu_sharing_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import TempDirTestCase, main, run

# One node of one A100-40GB time-sliced x4; one 2-GPU DDP job of 100 s.
TIME_SLICED_DDP = """\
name: ddp-on-replicas
seed: 1
cluster:
  pools:
    - name: shared
      gpu: A100-40GB
      nodes: 1
      gpus_per_node: 1
      sharing: {{scheme: time-slicing, replicas: 4{flag}}}
workload:
  horizon_s: 1
  classes:
    - {{name: ddp, class: training, count: 1, arrival_rate_per_s: 1000,
       gpus: 2, gpu_memory_mib: 10000, sm_demand: 1, duty: 1, work_s: 100,
       cpu_milli: 1000, memory_mib: 1024}}
"""

# One node of one H100-80GB as two 3g.40gb instances; one 2-GPU job.
MIG_DDP = """\
name: ddp-on-mig
seed: 1
cluster:
  pools:
    - name: mig
      gpu: H100-80GB
      nodes: 1
      gpus_per_node: 1
      sharing: {{scheme: mig, mig_strategy: mixed, mig_config: all-3g.40gb}}
workload:
  horizon_s: 1
  classes:
    - {{name: ddp, class: training, count: 1, arrival_rate_per_s: 1000,
       gpus: 2, gpu_memory_mib: 30000, sm_demand: 0, duty: 1, work_s: 100,
       cpu_milli: 1000, memory_mib: 1024{multi}}}
"""

# Two pools of 2 nodes of 4 L40S, exclusive today: notebooks on `dev`, a
# 2-GPU DDP class on `train`. The plan may time-slice either.
PLAN = """\
name: plan-ddp
seed: 3
cluster:
  pools:
    - {{name: dev, gpu: L40S, nodes: 2, gpus_per_node: 4, cpu: 64,
       memory_gib: 256, labels: {{pool: dev}}, sharing: {{scheme: exclusive}}}}
    - {{name: train, gpu: L40S, nodes: 2, gpus_per_node: 4, cpu: 64,
       memory_gib: 256, labels: {{pool: train}},
       sharing: {{scheme: exclusive}}}}
workload:
  horizon_s: 3600
  classes:
    - {{name: notebooks, class: dev, node_selector: {{pool: dev}},
       arrival_rate_per_s: 0.004, gpus: 1, gpu_memory_mib: 6000,
       sm_demand: 0.2, duty: 0.2, work_s: 1800, cpu_milli: 2000,
       memory_mib: 4096}}
    - {{name: ddp, class: training, node_selector: {{pool: train}},
       arrival_rate_per_s: 0.001, gpus: 2, gpu_memory_mib: 20000,
       sm_demand: 1, duty: 1, work_s: 1200, cpu_milli: 4000,
       memory_mib: 16384}}
plan:
  pools:
    dev: {{nodes: {{min: 1, max: 2}}, schemes: [{dev}]}}
    train: {{nodes: {{min: 2, max: 2}}, schemes: [{train}]}}
  constraints:
    classes:
      notebooks: {{max_mean_wait_s: 600}}
"""


class MultiGpuSharingTest(TempDirTestCase):

    def run_json(self, scenario):
        path = self.write("s.yaml", scenario)
        out = self.path("r.json")
        code, _, err = run("run", path, "--json", out, "--quiet")
        self.assertEqual(code, 0, err)
        with open(out, encoding="utf-8") as f:
            return json.load(f)

    def test_two_replicas_of_one_gpu_crash_loop_then_fail(self):
        r = self.run_json(TIME_SLICED_DDP.format(flag=""))
        [pod] = r["pod_records"]
        self.assertEqual(pod["outcome"], "Failed")
        # Restarts at 10, 30, 70, 150, 310, 610 s: the sixth failure ends it.
        self.assertEqual(pod["restarts"], 6)
        self.assertAlmostEqual(pod["end_s"], 610, delta=1)
        self.assertEqual(pod["oom_kills"], 0)
        self.assertEqual(pod["fault_kills"], 0)
        self.assertTrue(pod["message"].startswith(
            "NCCL error: Duplicate GPU detected : rank 1 and rank 0 both on "
            "GPU 0 of "), pod["message"])
        # Both grants are the one GPU's device.
        self.assertEqual(len(set(pod["devices"])), 1)

    def test_fail_requests_greater_than_one_rejects_at_admission(self):
        text = TIME_SLICED_DDP.format(
            flag=", fail_requests_greater_than_one: true")
        r = self.run_json(text)
        [pod] = r["pod_records"]
        self.assertEqual(pod["outcome"], "AdmissionFailed")
        self.assertEqual(pod["restarts"], 0)
        self.assertIn("UnexpectedAdmissionError: maximum request size for "
                      "shared resources is 1; found nvidia.com/gpu=2",
                      pod["message"])
        path = self.write("strict.yaml", text)
        code, out, err = run("emit", "device-plugin", "--scenario", path)
        self.assertEqual(code, 0, err)
        self.assertIn("      timeSlicing:\n        renameByDefault: false\n"
                      "        failRequestsGreaterThanOne: true\n", out)

    def plan(self, dev, train):
        path = self.write("plan.yaml", PLAN.format(dev=dev, train=train))
        out_dir = self.path("out")
        report = self.path("plan.json")
        code, out, err = run("plan", path, "--out", out_dir, "--json",
                             report, "--force", "--quiet")
        self.assertIn(code, (0, 3), err)
        with open(report, encoding="utf-8") as f:
            return code, json.load(f), out_dir

    def test_plan_writes_the_flag_on_the_time_sliced_pool(self):
        code, plan, out_dir = self.plan("time-slicing", "exclusive")
        self.assertEqual(code, 0)
        pools = plan["chosen"]["pools"]
        self.assertTrue(any("dev" in p and "time-slicing" in p for p in pools),
                        pools)
        with open(os.path.join(out_dir, "device-plugin-config.yaml"),
                  encoding="utf-8") as f:
            config = f.read()
        # The `dev` config (up to the `train` one) time-slices with the flag.
        dev = config[config.index("  dev: |"):config.index("  train: |")]
        self.assertIn("    sharing:\n      timeSlicing:\n        "
                      "renameByDefault: false\n        "
                      "failRequestsGreaterThanOne: true\n", dev)
        with open(os.path.join(out_dir, "scenario.yaml"),
                  encoding="utf-8") as f:
            self.assertIn("fail_requests_greater_than_one: true", f.read())

    def test_plan_refuses_the_ddp_class_on_a_time_sliced_pool(self):
        # Only time-slicing is allowed for `train`: its DDP pods fail
        # admission there (the flag the plan writes), so the plan meets no
        # constraint and says why.
        code, plan, _ = self.plan("exclusive", "time-slicing")
        self.assertEqual(code, 3)
        self.assertFalse(plan["chosen"]["feasible"])
        missed = [c["constraint"] for c in plan["chosen"]["checks"]
                  if c["tenant_class"] == "ddp" and not c["met"]]
        self.assertIn("max_failed", missed, plan["chosen"]["checks"])

    def test_several_mig_instances_cannot_run_unless_multi_process(self):
        r = self.run_json(MIG_DDP.format(multi=""))
        [pod] = r["pod_records"]
        self.assertEqual(pod["outcome"], "Unschedulable")
        self.assertEqual(
            pod["message"],
            "it asks for 2 MIG instances (nvidia.com/mig-3g.40gb) in one pod: "
            "a CUDA process sees only one MIG instance and instances have no "
            "peer-to-peer path, so its ranks cannot run together (a class "
            "whose pods run one process per instance says multi_process: "
            "true)")
        r = self.run_json(MIG_DDP.format(multi=", multi_process: true"))
        [pod] = r["pod_records"]
        self.assertEqual(pod["outcome"], "Succeeded")
        # One process per instance, communicating through host memory:
        # 1 + 0.1 x 9 = 1.9 times its time alone (docs/model.md §6.2; SM
        # demand 0, so the instances' SMs cost nothing).
        self.assertAlmostEqual(pod["slowdown"], 1.9, delta=1e-9)
        self.assertAlmostEqual(pod["run_s"], 1.9 * pod["alone_s"], delta=1e-6)
        self.assertEqual(len(set(pod["devices"])), 2)


if __name__ == "__main__":
    main()
