"""End-to-end tests of `gpushare-sim experiment fgd`.

Run as: python3 tests/experiment_cli_test.py --binary /path/to/gpushare-sim
"""

import csv
import io
import os
import shutil
import tempfile
import unittest

from cli_harness import main, run, table_rows

NODE_HEADER = "sn,cpu_milli,memory_mib,gpu,model\n"
POD_HEADER = ("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
              "pod_phase,creation_time,deletion_time,scheduled_time\n")


class ExperimentFgdTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gs_fgd_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def small_trace(self):
        nodes = NODE_HEADER + "".join(
            f"node-{i},32000,131072,{2 if i % 2 else 8},"
            f"{'T4' if i % 2 else 'G2'}\n" for i in range(12))
        pods = POD_HEADER + "".join(
            f"pod-{i},{1000 + 500 * (i % 4)},4096,{1 if i % 7 else 0},"
            f"{[1000, 500, 250, 810][i % 4] if i % 7 else 0},,LS,Running,"
            f"{i},{i + 10},{i}\n" for i in range(60))
        return self.write("nodes.csv", nodes), self.write("pods.csv", pods)

    def test_default_trace_two_policies(self):
        out_dir = os.path.join(self.tmp, "out")
        code, out, err = run("experiment", "fgd", "--policy", "fgd,random",
                             "--seeds", "42-43", "--out", out_dir)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        self.assertIn("1213 nodes (6212 GPUs), 8152 pods (6086.8 GPUs "
                      "requested)", out)
        self.assertIn("typical pods M: 35 shapes covering 95.3 % of pods; "
                      "empty-cluster fragmentation 13.94 % of GPUs", out)
        rows = table_rows(out, "POLICY")
        self.assertEqual([r[0] for r in rows], ["FGD", "Random"])
        unalloc = {r[0]: float(r[2]) for r in rows}
        self.assertLess(unalloc["FGD"], unalloc["Random"])
        self.assertEqual(sorted(os.listdir(out_dir)),
                         ["fgd_seed42.csv", "fgd_seed43.csv",
                          "random_seed42.csv", "random_seed43.csv",
                          "summary.csv"])
        with open(os.path.join(out_dir, "fgd_seed42.csv"),
                  encoding="utf-8") as f:
            curve = list(csv.DictReader(f))
        self.assertEqual([int(r["arrived_pct"]) for r in curve],
                         list(range(131)))
        for r in curve:
            self.assertAlmostEqual(float(r["gpu_alloc_pct"]) +
                                   float(r["gpu_unallocated_pct"]), 100, 4)
        with open(os.path.join(out_dir, "summary.csv"), encoding="utf-8") as f:
            summary = list(csv.DictReader(f))
        self.assertEqual([(r["policy"], r["arrived_pct"], r["seeds"])
                          for r in summary],
                         [("fgd", "100", "2"), ("fgd", "130", "2"),
                          ("random", "100", "2"), ("random", "130", "2")])

    def test_output_is_identical_whatever_the_thread_count(self):
        nodes, pods = self.small_trace()
        outputs = []
        for threads in ("1", "4"):
            out_dir = os.path.join(self.tmp, "out" + threads)
            code, out, err = run("experiment", "fgd", "--nodes", nodes,
                                 "--pods", pods, "--seeds", "1-3",
                                 "--threads", threads, "--out", out_dir)
            self.assertEqual(code, 0, err)
            files = {}
            for name in sorted(os.listdir(out_dir)):
                with open(os.path.join(out_dir, name), "rb") as f:
                    files[name] = f.read()
            outputs.append((out.replace(out_dir, "DIR"), files))
        self.assertEqual(len(outputs[0][1]), 6 * 3 + 1)
        self.assertEqual(outputs[0], outputs[1])

    def assert_error(self, args, message_start):
        out_dir = os.path.join(self.tmp, "never")
        code, out, err = run("experiment", "fgd", *args, "--out", out_dir)
        self.assertEqual(code, 2, err)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: " + message_start), err)
        self.assertFalse(os.path.exists(out_dir))

    def test_malformed_inputs_exit_2_without_output(self):
        nodes, pods = self.small_trace()
        bad_nodes = self.write("bad_nodes.csv",
                               NODE_HEADER + "n0,32000,1024,8,G2\n"
                               "n1,32k,1024,8,G2\n")
        self.assert_error(("--nodes", bad_nodes, "--pods", pods),
                          bad_nodes + ":3:4: column 'cpu_milli': expected an "
                          "integer, got '32k'")
        bad_header = self.write("bad_header.csv", "sn,cpu,mem,gpu,model\n")
        self.assert_error(("--nodes", bad_header, "--pods", pods),
                          bad_header + ":1:1: expected the header")
        unknown = self.write("unknown.csv",
                             NODE_HEADER + "n0,32000,1024,8,H9\n")
        self.assert_error(("--nodes", unknown, "--pods", pods),
                          unknown + ":2:17: column 'model': unknown GPU model "
                          "'H9'")
        short_pods = self.write("short.csv", POD_HEADER + "p0,1000,10,1\n")
        self.assert_error(("--nodes", nodes, "--pods", short_pods),
                          short_pods + ":2:1: expected 11 fields")
        self.assert_error(("--nodes", nodes, "--pods", pods, "--policy",
                           "fgd,bestfitt"), "unknown policy 'bestfitt'")
        self.assert_error(("--nodes", nodes, "--pods", pods, "--seeds", "9-3"),
                          "--seeds: bad range '9-3'")

    def test_model_map_override(self):
        _, pods = self.small_trace()
        nodes = self.write("h9_nodes.csv",
                           NODE_HEADER + "n0,32000,1024,8,H9\n")
        code, out, err = run("experiment", "fgd", "--nodes", nodes, "--pods",
                             pods, "--seeds", "1", "--policy", "bestfit",
                             "--model-map", "H9=H100-80GB")
        self.assertEqual(code, 0, err)
        self.assertIn("1 nodes (8 GPUs)", out)
        code, _, err = run("experiment", "fgd", "--nodes", nodes, "--pods",
                           pods, "--model-map", "H9=NoSuchGpu")
        self.assertEqual(code, 2)
        self.assertIn("maps to 'NoSuchGpu', which the catalog lacks", err)


if __name__ == "__main__":
    main()
