"""End-to-end tests of `gpushare-sim catalog` and of `--catalog FILE`.

Run as: python3 tests/catalog_cli_test.py --binary /path/to/gpushare-sim
"""

import os
import re
import tempfile
import unittest

from cli_harness import main, run, table_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILTIN_CATALOG = os.path.join(ROOT, "catalog", "gpus.yaml")

H100_PROFILES = ["1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb",
                 "4g.40gb", "7g.80gb"]
H100_PROFILE_SMS = [16, 16, 26, 32, 60, 64, 132]




def builtin_model_names():
    """Model names of catalog/gpus.yaml, in file order (not profile names)."""
    with open(BUILTIN_CATALOG, encoding="utf-8") as f:
        return re.findall(r"^  - name: (\S+)\s*$", f.read(), re.MULTILINE)




class CatalogTest(unittest.TestCase):

    def test_lists_every_model(self):
        code, out, err = run("catalog")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        self.assertEqual(out.splitlines()[0].split(),
                         ["MODEL", "MEMORY", "MiB", "SMS", "SPEED", "GB/s", "$/GPU-h",
                          "MIG", "FAMILY"])
        rows = table_rows(out, "MODEL ")
        names = builtin_model_names()
        self.assertGreaterEqual(len(names), 13)
        self.assertEqual([row[0] for row in rows], names)

    def test_model_rows(self):
        code, out, err = run("catalog")
        self.assertEqual(code, 0, err)
        rows = {row[0]: row for row in table_rows(out, "MODEL ")}
        a100 = rows["A100-40GB"]
        self.assertEqual(a100[1:4], ["40960", "108", "1.00"])
        self.assertEqual(a100[6:], ["7", "x", "ampere"])
        # Memory bandwidth, GB/s, from NVIDIA's datasheets.
        self.assertEqual(a100[4], "1555")
        h100 = rows["H100-80GB"]
        self.assertEqual(h100[1:3], ["81559", "132"])
        self.assertEqual(h100[4], "3350")
        self.assertEqual(rows["H200-141GB"][4], "4800")
        self.assertEqual(rows["B200"][4], "8000*")
        self.assertEqual(h100[6:], ["7", "x", "hopper"])
        self.assertEqual(rows["A30-24GB"][6:], ["4", "x", "ampere"])
        # Not MIG-capable: '-' in the MIG column.
        self.assertEqual(rows["L4"][6:], ["-", "ada-lovelace"])
        self.assertEqual(rows["T4"][6:], ["-", "turing"])
        # Unconfirmed values carry a '*'.
        self.assertTrue(a100[5].endswith("*"), a100)

    def test_h100_detail(self):
        code, out, err = run("catalog", "--gpu", "H100-80GB")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        self.assertTrue(out.startswith("H100-80GB (hopper, compute capability "
                                       "9.0): 81559 MiB, 132 SMs"), out)
        profiles = table_rows(out, "PROFILE     G")
        self.assertEqual([row[0] for row in profiles], H100_PROFILES)
        self.assertEqual([int(row[3]) for row in profiles], H100_PROFILE_SMS)
        # A MIG instance's bandwidth: its memory slices' share (3g.40gb: 4/8).
        by_name = {row[0]: row for row in profiles}
        self.assertEqual(by_name["3g.40gb"][5], "1675")
        self.assertEqual(by_name["1g.10gb"][5], "419")
        resources = [row[-1] for row in profiles]
        self.assertEqual(resources,
                         ["nvidia.com/mig-" + p.replace("+", ".")
                          for p in H100_PROFILES])
        self.assertIn("nvidia.com/mig-1g.10gb.me", out)
        self.assertNotIn("nvidia.com/mig-1g.10gb+me", out)
        balanced = [line for line in out.splitlines()
                    if line.startswith("all-balanced ")]
        self.assertEqual(len(balanced), 1, out)
        self.assertIn("3g.40gb@4", balanced[0])

    def test_alias_is_case_insensitive(self):
        code, expected, err = run("catalog", "--gpu", "H100-80GB")
        self.assertEqual(code, 0, err)
        for name in ("nvidia-h100-80gb-hbm3", "NVIDIA-H100-80GB-HBM3",
                     "h100-80gb"):
            with self.subTest(name=name):
                code, out, err = run("catalog", "--gpu", name)
                self.assertEqual(code, 0, err)
                self.assertEqual(out, expected)

    def test_unknown_model(self):
        for name, closest in (("A100-41GB", "A100-40GB"),
                              ("h100-80g", "H100-80GB"),
                              ("H100-80GB-HBM4", "H100-80GB"),
                              ("A31", "A30-24GB")):
            with self.subTest(name=name):
                code, out, err = run("catalog", "--gpu", name)
                self.assertEqual(code, 2)
                self.assertEqual(out, "")
                self.assertTrue(
                    err.startswith("error: unknown GPU model '%s'; closest "
                                   "known: %s" % (name, closest)), err)
                self.assertEqual(err.count("\n"), 1, err)

    def test_mig_less_model_detail(self):
        code, out, err = run("catalog", "--gpu", "L4")
        self.assertEqual(code, 0, err)
        self.assertIn("MIG: not supported", out)


class CatalogFileTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def assert_file_error(self, text, line, message):
        """--catalog with `text` fails at `line` with `message` after the
        location (a regular expression)."""
        path = self.write("user.yaml", text)
        code, out, err = run("--catalog", path, "catalog")
        self.assertEqual(code, 2, err)
        self.assertEqual(out, "")
        self.assertRegex(err, r"^error: %s:%d:\d+: %s" %
                         (re.escape(path), line, message))
        return err

    def test_price_override(self):
        path = self.write("prices.yaml",
                          "version: 1\n"
                          "models:\n"
                          "  - name: A100-40GB\n"
                          "    price_per_hour: 1.23\n")
        code, out, err = run("--catalog", path, "catalog")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        rows = {row[0]: row for row in table_rows(out, "MODEL ")}
        self.assertEqual(rows["A100-40GB"][5].rstrip("*"), "1.23")
        # Only the given field changes.
        self.assertEqual(rows["A100-40GB"][1:4], ["40960", "108", "1.00"])
        code, out, err = run("--catalog", path, "catalog", "--gpu",
                             "a100-40gb")
        self.assertEqual(code, 0, err)
        self.assertRegex(out.splitlines()[0], r"\$1\.23\*?/GPU-hour$")

    def test_override_by_alias_and_new_model(self):
        path = self.write("models.yaml",
                          "version: 1\n"
                          "models:\n"
                          "  - name: nvidia-a100-sxm4-40gb\n"
                          "    price_per_hour: 2.5\n"
                          "  - name: X1\n"
                          "    family: hopper\n"
                          "    compute_capability: \"9.0\"\n"
                          "    memory_mib: 1000\n"
                          "    sms: 10\n"
                          "    relative_speed: 0.5\n"
                          "    price_per_hour: 1.25\n")
        code, out, err = run("--catalog", path, "catalog")
        self.assertEqual(code, 0, err)
        rows = {row[0]: row for row in table_rows(out, "MODEL ")}
        self.assertEqual(rows["A100-40GB"][5].rstrip("*"), "2.50")
        # No memory bandwidth given: '-' (unknown).
        self.assertEqual(rows["X1"][1:], ["1000", "10", "0.50", "-", "1.25",
                                          "-", "hopper"])

    def test_bad_yaml(self):
        self.assert_file_error("version: 1\n"
                               "models:\n"
                               "  - name: A100-40GB\n"
                               "    price_per_hour: 1.5: 2\n",
                               4, "invalid YAML: ")

    def test_unknown_key(self):
        err = self.assert_file_error(
            "version: 1\n"
            "models:\n"
            "  - name: A100-40GB\n"
            "    prise_per_hour: 1.23\n",
            4, re.escape("model 'A100-40GB': unknown key 'prise_per_hour'; "
                         "did you mean price_per_hour?"))
        self.assertIn(":4:5: ", err)

    def test_unknown_top_level_key(self):
        self.assert_file_error("version: 1\n"
                               "model:\n"
                               "  - name: A100-40GB\n",
                               2, re.escape("catalog: unknown key 'model'"))

    def test_negative_memory(self):
        err = self.assert_file_error(
            "version: 1\n"
            "models:\n"
            "  - name: A100-40GB\n"
            "    memory_mib: -5\n",
            4, re.escape("model 'A100-40GB' memory_mib: -5 is out of range"))
        self.assertIn(":4:17: ", err)

    def test_profile_start_past_the_last_memory_position(self):
        self.assert_file_error(
            "version: 1\n"
            "models:\n"
            "  - name: TestGPU\n"
            "    family: hopper\n"
            "    compute_capability: \"9.0\"\n"
            "    memory_mib: 1000\n"
            "    sms: 10\n"
            "    relative_speed: 1\n"
            "    price_per_hour: 1\n"
            "    mig:\n"
            "      compute_slices: 2\n"
            "      memory_slices: 2\n"
            "      max_instances: 2\n"
            "      sms: 10\n"
            "      profiles:\n"
            "        - name: 1g.1gb\n"
            "          compute_slices: 1\n"
            "          memory_slices: 1\n"
            "          sms: 5\n"
            "          memory_mib: 500\n"
            "          max_count: 2\n"
            "          starts: [0, 1]\n"
            "        - name: 2g.1gb\n"
            "          compute_slices: 2\n"
            "          memory_slices: 2\n"
            "          sms: 10\n"
            "          memory_mib: 1000\n"
            "          max_count: 1\n"
            "          starts: [1]\n",
            29, re.escape("model 'TestGPU' mig profile: an instance at 1 of 2 "
                          "memory slices ends past memory position 1"))

    def test_empty_file(self):
        self.assert_file_error("", 1, "empty catalog file")

    def test_bad_file_leaves_other_commands_failing_too(self):
        path = self.write("user.yaml", "version: 2\nmodels: []\n")
        code, out, err = run("--catalog", path, "mig", "layouts", "--gpu",
                             "A30")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertRegex(err, r"^error: %s:1:10: catalog version: 2 is out of "
                              r"range" % re.escape(path))

    def test_missing_file(self):
        path = os.path.join(self.tmp.name, "missing.yaml")
        code, out, err = run("--catalog", path, "catalog")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)
        self.assertIn(path, err)

    def test_directory(self):
        # Rejected by the option check (Catalog::MergeFile would say "not a
        # regular file"), not read as an empty catalog.
        code, out, err = run("--catalog", self.tmp.name, "catalog")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)
        self.assertIn("directory", err)
        self.assertIn(self.tmp.name, err)
        self.assertNotIn("empty catalog", err)

    def test_second_yaml_document(self):
        err = self.assert_file_error(
            "version: 1\n"
            "models: []\n"
            "---\n"
            "models:\n"
            "  - name: A100-40GB\n"
            "    price_per_hour: 9\n",
            4, re.escape("expected one YAML document, found 2"))
        self.assertIn(":4:1: ", err)

    def test_empty_value_is_reported_at_its_key(self):
        err = self.assert_file_error(
            "version: 1\n"
            "models:\n"
            "  - name: A100-40GB\n"
            "    price_per_hour:\n"
            "\n"
            "    sms: 108\n",
            4, re.escape("model 'A100-40GB' price_per_hour: expected a "
                         "number, got nothing"))
        self.assertIn(":4:5: ", err)

    def test_price_doubled_sign(self):
        self.assert_file_error(
            "version: 1\n"
            "models:\n"
            "  - name: A100-40GB\n"
            "    price_per_hour: +-5\n",
            4, re.escape("model 'A100-40GB' price_per_hour: expected a "
                         "number, got '+-5'"))

    def test_price_minus_zero_prints_as_zero(self):
        path = self.write("zero.yaml",
                          "version: 1\n"
                          "models:\n"
                          "  - name: A100-40GB\n"
                          "    price_per_hour: -0\n")
        code, out, err = run("--catalog", path, "catalog", "--gpu",
                             "A100-40GB")
        self.assertEqual(code, 0, err)
        self.assertNotIn("$-", out)
        self.assertRegex(out.splitlines()[0], r"\$0\.00\*?/GPU-hour$")
        code, out, err = run("--catalog", path, "catalog")
        self.assertEqual(code, 0, err)
        rows = {row[0]: row for row in table_rows(out, "MODEL ")}
        self.assertEqual(rows["A100-40GB"][5].rstrip("*"), "0.00")




if __name__ == "__main__":
    main()
