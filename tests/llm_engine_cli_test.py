"""End-to-end tests of LLM serving engines (issue 41, part 1;
docs/model.md §6.7): an inference class's `engine:` mapping makes its pods
pre-allocate a share of the memory they see, so uncapped engines sharing a
time-sliced GPU OOM at start; the run's JSON gives each engine pod's KV
cache and sequences at once; bad engine values are located errors (exit 2).

Run as: python3 tests/llm_engine_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import unittest

from cli_harness import TempDirTestCase, main, run

ENGINES = """\
name: engines
seed: 1
horizon_s: 600
cluster:
  pools:
    - {name: tsl, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,
       sharing: {scheme: time-slicing, replicas: 4}}
workload:
  horizon_s: 1
  classes:
    - name: chat
      class: inference
      count: 4
      lifetime_s: 3600
      request_rate: 2
      gpu_ms_per_request: 10
      restart_policy: Never
      engine:
        weights_gib: WEIGHTS
        kv_cache: {layers: 32, kv_heads: 8, head_dim: 128}
        gpu_memory_utilization: UTILIZATION
"""


class LlmEngineCliTest(TempDirTestCase):

    def engines(self, utilization, weights):
        path = self.write("e.yaml", ENGINES.replace(
            "UTILIZATION", utilization).replace("WEIGHTS", weights))
        code, out, err = run("run", path, "--quiet", "--json",
                             self.path("r.json"))
        self.assertEqual(code, 0, err)
        with open(self.path("r.json"), encoding="utf-8") as f:
            return json.load(f)

    def test_uncapped_engines_oom_at_start(self):
        r = self.engines("0.9", "15")
        pods = r["pod_records"]
        self.assertEqual(sorted(p["outcome"] for p in pods),
                         ["Failed", "Failed", "Failed", "Running"])
        self.assertEqual(r["oom_kills"], 3)
        for p in pods:
            if p["outcome"] == "Failed":
                self.assertIn("no memory isolation", p["message"])
            else:
                # 0.9 x 81,559 MiB - 16 GiB = 57,019 MiB: 28,509 blocks.
                self.assertEqual(p["kv_cache_tokens"], 456144)
                self.assertEqual(p["max_concurrent_seqs"], 256)

    def test_capped_engines_all_start(self):
        r = self.engines("0.2", "6")
        self.assertEqual(r["oom_kills"], 0)
        for p in r["pod_records"]:
            self.assertEqual(p["outcome"], "Running", p["message"])
            self.assertEqual(p["kv_cache_tokens"], 73136)
            self.assertEqual(p["max_concurrent_seqs"], 95)

    def test_pods_without_an_engine_have_no_engine_fields(self):
        path = self.write("plain.yaml", ENGINES.split("      engine:")[0])
        code, out, err = run("run", path, "--quiet", "--json",
                             self.path("r.json"))
        self.assertEqual(code, 0, err)
        with open(self.path("r.json"), encoding="utf-8") as f:
            pods = json.load(f)["pod_records"]
        self.assertNotIn("kv_cache_tokens", pods[0])

    def test_bad_engine_values_are_located(self):
        for utilization, weights, where, phrase in [
                ("1.5", "15", "e.yaml:21:33",
                 "gpu_memory_utilization: 1.5 is out of range"),
                ("0.9", "200", "e.yaml:19:9",
                 "200 GiB of weights fit no GPU of the scenario"),
                ("0.9", "-1", "e.yaml:19:22", "weights_gib: -1 is out of "
                 "range")]:
            path = self.write("e.yaml", ENGINES.replace(
                "UTILIZATION", utilization).replace("WEIGHTS", weights))
            code, out, err = run("run", path, "--quiet")
            self.assertEqual(code, 2, err)
            self.assertIn(where, err)
            self.assertIn(phrase, err)
            self.assertIn("class 'chat' engine", err)

    def test_compare_warns_where_an_explicit_utilization_cannot_start(self):
        # 0.07 of a whole H100-80GB (5,709 MiB) leaves an embedder of 1.2
        # GiB room for its KV cache; 0.07 of a 6,000-MiB HAMi grant (420
        # MiB) does not: compare notes it on the HAMi run.
        path = self.write("embed.yaml", """\
name: embed
seed: 1
horizon_s: 600
cluster:
  pools:
    - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 1}
workload:
  horizon_s: 1
  classes:
    - name: embed
      class: inference
      count: 2
      lifetime_s: 600
      gpu_memory_mib: 6000
      request_rate: 5
      gpu_ms_per_request: 5
      restart_policy: Never
      engine:
        weights_gib: 1.2
        kv_cache: {layers: 24, kv_heads: 8, head_dim: 64}
        gpu_memory_utilization: 0.07
        output_tokens: 1
""")
        # The compact answer counts the runs' warnings; --details has them.
        code, out, err = run("compare", path)
        self.assertEqual(code, 0, err)
        self.assertIn("why each scheme won, 3 warnings): add --details",
                      " ".join(out.split()))
        code, out, err = run("compare", path, "--details")
        self.assertEqual(code, 0, err)
        self.assertIn("warning: class embed: gpu_memory_utilization 0.07 "
                      "leaves no KV cache block in the memory hami grants "
                      "it", " ".join(out.split()))
        self.assertNotIn("memory exclusive grants it", " ".join(out.split()))
        # `auto` takes 0.92 of the grant under HAMi: no warning.
        path = self.write("auto.yaml", open(path, encoding="utf-8").read()
                          .replace("0.07", "auto"))
        code, out, err = run("compare", path, "--details")
        self.assertEqual(code, 0, err)
        self.assertNotIn("leaves no KV cache block", out)


if __name__ == "__main__":
    main()
