"""examples/llm-tp-fp8.yaml end to end: `run` prints for its two LLM
engines (Llama-3.1-70B FP8 on 4 x H100 with tensor parallelism 4, and
Llama-3.1-8B BF16 on an A100 under chunked prefill) the TTFT and TPOT the
published-figures harness computes for the same inputs
(exec/llm_published_figures_test.cc, ExampleEnginesByTheHarness: a vLLM V1
row through LlmInputsForFigure at the same rate), within 1 %; and the
example is listed in docs/scenario.md.
"""

import os

from cli_harness import main, run, table_rows
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "llm-tp-fp8.yaml")

# The harness's values, ms: TTFT p50, TTFT p99, TPOT p50.
HARNESS = {
    "llama70b-fp8": (109.406, 123.204, 14.264),
    "llama8b-bf16": (32.198, 38.819, 13.511),
}


class LlmTpFp8ExampleTest(unittest.TestCase):

    def test_run_prints_the_harness_values(self):
        status, out, err = run("run", EXAMPLE)
        self.assertEqual(status, 0, err)
        rows = {r[0]: r for r in table_rows(out, "ENGINE CLASS")}
        for name, (ttft50, ttft99, tpot50) in HARNESS.items():
            self.assertIn(name, rows, out)
            row = rows[name]
            # ENGINE CLASS PODS KV SEQS TTFT_P50 TTFT_P99/SLO TPOT_P50 ...
            self.assertEqual(row[1], "50")
            printed_ttft50 = float(row[4])
            printed_ttft99 = float(row[5].split("/")[0])
            printed_tpot50 = float(row[6])
            self.assertAlmostEqual(printed_ttft50 / ttft50, 1, delta=0.01)
            self.assertAlmostEqual(printed_ttft99 / ttft99, 1, delta=0.01)
            self.assertAlmostEqual(printed_tpot50 / tpot50, 1, delta=0.01)
        # 4 GPUs' worth of one engine: 256 sequences at once, KV-bound far
        # above (4 x 2 of 8 KV heads, FP8 weights: 70.55 GB / 4 a GPU).
        self.assertEqual(rows["llama70b-fp8"][3], "256")

    def test_listed_in_scenario_docs(self):
        with open(os.path.join(ROOT, "docs", "scenario.md"),
                  encoding="utf-8") as f:
            self.assertIn("| `examples/llm-tp-fp8.yaml` |", f.read())


if __name__ == "__main__":
    main()
