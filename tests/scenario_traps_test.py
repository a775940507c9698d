"""End-to-end tests of the scenario's silent traps (issue 36, points 3 and 8),
each on a small scenario whose answer is checked by hand:

- a `count: N` class gets its N arrivals within the workload's horizon, so
  ten services over an hour are all served, and a pod due after the end of
  the run never existed for it (no record, counted as not arrived), never
  pending;
- `gpu_ms_per_request` is reference-GPU (A100) time; `{value, on}` converts
  a time measured on another GPU by its relative speed and says so;
- a class that no scheme serves is told why;
- the cluster table prints a blast radius averaged over seeds with one
  decimal.

Run as: python3 tests/scenario_traps_test.py --binary /path/to/gpushare-sim
"""

import json
import math
import unittest

from cli_harness import TempDirTestCase, main, run, table_rows

TEN_SERVICES = """\
name: ten-services
seed: 3
horizon_s: 3600
cluster:
  pools:
    - {name: serve, gpu: A100-80GB, nodes: 2, gpus_per_node: 8}
workload:
  classes:
    - {name: services, class: inference, count: 10, gpus: 1, work_s: 0,
       lifetime_s: 600, request_rate: 10, gpu_ms_per_request: 10,
       slo_p99_ms: 100}
"""

CHAT = """\
name: chat
seed: 1
horizon_s: 1800
cluster:
  pools:
    - {name: serve, gpu: H100-80GB, nodes: 1, gpus_per_node: 2}
workload:
  classes:
    - {name: chat, class: inference, count: 2, gpus: 1, work_s: 0,
       lifetime_s: 600, request_rate: 20, slo_p99_ms: 100,
       gpu_ms_per_request: GPU_MS}
"""

GIANT = """\
name: giant
seed: 1
horizon_s: 3600
cluster:
  pools:
    - {name: gpus, gpu: A100-40GB, nodes: 2, gpus_per_node: 4}
workload:
  classes:
    - {name: small, class: batch, count: 5, gpus: 0.5, gpu_memory_mib: 8000,
       work_s: 600}
    - {name: giant, class: training, count: 5, gpus: 1,
       gpu_memory_mib: 60000, work_s: 600}
compare: {schemes: [exclusive, mig], seeds: 1}
"""


class ArrivalsTest(TempDirTestCase):

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return self.path(name)

    def test_counted_services_all_arrive_and_are_served(self):
        # Ten one-GPU services on 16 GPUs: none waits, and each arrives
        # within the hour (the run's horizon), so all ten are served (done or
        # still running at the horizon) on every seed. Before, the Poisson
        # times of rate 10/3600 went past the hour on most seeds and the
        # late pods counted as pending.
        path = self.write("ten.yaml", TEN_SERVICES)
        for seed in range(1, 9):
            code, out, err = run("run", path, "--quiet", "--seed", str(seed),
                                 "--json", self.path("r.json"))
            self.assertEqual(code, 0, err)
            with open(self.path("r.json"), encoding="utf-8") as f:
                pods = json.load(f)["pod_records"]
            self.assertEqual(len(pods), 10)
            for p in pods:
                self.assertLess(p["arrival_s"], 3600)
                self.assertIn(p["outcome"], ("Deleted", "Running"))
            self.assertIn("pending 0", out.splitlines()[1])

    def test_a_pod_due_after_the_run_is_not_pending(self):
        # The run stops at 1800 s while arrivals spread over 3600 s: the
        # pods due later never existed for the run.
        text = TEN_SERVICES.replace("horizon_s: 3600", "horizon_s: 1800")
        text = text.replace("workload:\n", "workload:\n  horizon_s: 3600\n")
        path = self.write("late.yaml", text)
        code, out, err = run("run", path, "--quiet", "--json",
                             self.path("r.json"))
        self.assertEqual(code, 0, err)
        with open(self.path("r.json"), encoding="utf-8") as f:
            result = json.load(f)
        # The pods due later have no record; `pods` counts them.
        pods = result["pod_records"]
        self.assertEqual(result["pods"], 10)
        for p in pods:
            self.assertLessEqual(p["arrival_s"], 1800)
            self.assertNotEqual(p["outcome"], "Pending")
        arrived = len(pods)
        late = 10 - arrived
        self.assertGreater(late, 0)
        summary = out.splitlines()[1]
        self.assertIn("pending 0", summary)
        self.assertIn(f"not arrived {late} (after the horizon)", summary)
        rows = table_rows(out, "CLASS")
        self.assertEqual(rows[0][:2], ["inference", str(arrived)])
        # compare counts only the pods that arrived.
        code, out, err = run("compare", path, "--quiet", "--details",
                             "--seeds", "1")
        self.assertEqual(code, 0, err)
        self.assertIn(f"Tenant class services (inference, {arrived} pod", out)
        rows = table_rows(out[out.index("Tenant class services"):], "SCHEME")
        self.assertEqual(len(rows), 5)
        for row in rows:
            self.assertIn(f"{arrived}/{arrived}", row)  # SERVED

    def test_count_past_the_horizon_at_its_rate_is_refused(self):
        text = TEN_SERVICES.replace("count: 10,",
                                    "count: 10, arrival_rate_per_s: 0.001,")
        path = self.write("slow.yaml", text)
        code, out, err = run("run", path)
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertIn("count 10 at 0.001/s takes 10000 s, past the workload's "
                      "horizon_s 3600", err)
        self.assertIn("raise the rate to at least 0.00277778/s", err)


class GpuTimeTest(TempDirTestCase):

    def p99_ms(self, gpu_ms):
        path = self.path("chat.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(CHAT.replace("GPU_MS", gpu_ms))
        code, out, err = run("run", path, "--quiet")
        self.assertEqual(code, 0, err)
        row = table_rows(out, "CLASS")[0]
        return row[8], out

    def test_reference_time_and_time_measured_on_an_h100(self):
        # One pod per H100-80GB (relative speed 3.17), 20 requests/s served
        # as an M/M/1 queue: p99 = ln(100) / (mu - 20) with mu = 1000 / S.
        # 10 ms of A100 time is S = 10 / 3.17 = 3.155 ms on the H100:
        # mu = 317, p99 = 4.605 / 297 = 15.5 ms.
        p99, out = self.p99_ms("10")
        self.assertEqual(p99, "16ms")
        self.assertNotIn("note:", out)
        # 10 ms measured on the H100 is S = 10 ms there: mu = 100,
        # p99 = 4.605 / 80 = 57.6 ms; the report says what was applied.
        p99, out = self.p99_ms("{value: 10, on: H100-80GB}")
        self.assertEqual(p99, "58ms")
        self.assertEqual(round(1000 * math.log(100) / 80), 58)
        note = " ".join(out[out.index("note:"):].split())
        self.assertEqual(
            note,
            "note: class 'chat' gpu_ms_per_request: 10 ms on H100-80GB "
            "(relative speed 3.17) is 31.7 ms on the reference GPU (relative "
            "speed 1, A100); each GPU takes that divided by its own relative "
            "speed")
        # Written as its A100 equivalent, the same answer.
        p99, _ = self.p99_ms("31.7")
        self.assertEqual(p99, "58ms")


class UnservedTest(TempDirTestCase):

    def test_no_scheme_serves_it_says_why(self):
        # 60000 MiB fits no A100-40GB (40960 MiB) nor any of its MIG
        # instances: no scheme can run a giant pod.
        path = self.path("giant.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(GIANT)
        code, out, err = run("compare", path, "--quiet", "--details")
        self.assertEqual(code, 0, err)
        text = " ".join(out.split())
        self.assertIn("giant -> no scheme serves it (its footprint of 60000 "
                      "MiB exceeds the 40960 MiB of A100-40GB)", text)
        self.assertIn("none served any of its 5 pods (under exclusive: 5 "
                      "cannot run; its footprint of 60000 MiB exceeds the "
                      "40960 MiB of A100-40GB)", text)


BLAST = """\
name: blast
seed: 1
horizon_s: 3600
cluster:
  pools:
    - {name: gpus, gpu: A100-80GB, nodes: 2, gpus_per_node: 4,
       sharing: {scheme: time-slicing, replicas: 4}}
workload:
  classes:
    - {name: jobs, class: batch, count: 40, gpus: 0.25, gpu_memory_mib: 4000,
       work_s: 3000}
faults:
  - {pool: gpus, at_s: 1800}
compare: {schemes: [time-slicing], seeds: 3}
"""


class BlastRadiusTest(TempDirTestCase):

    def test_mean_blast_radius_has_one_decimal(self):
        # One fault at 1800 s on a drawn GPU: on seeds 1, 2 and 3 it kills
        # 3, 2 and 2 pods (`run --seed`), a mean of 2.333..., shown as 2.3.
        path = self.path("blast.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(BLAST)
        radii = []
        for seed in (1, 2, 3):
            code, out, err = run("run", path, "--quiet", "--seed", str(seed))
            self.assertEqual(code, 0, err)
            radii.append(int(out.splitlines()[2].split()[-1].rstrip(")")))
        self.assertEqual(radii, [3, 2, 2])
        code, out, err = run("compare", path, "--quiet", "--details")
        self.assertEqual(code, 0, err)
        row = table_rows(out, "SCHEME")[0]
        self.assertEqual(row[0], "time-slicing")
        self.assertEqual(row[-2], "2.3")


if __name__ == "__main__":
    main()
