"""End-to-end tests of `gpushare-sim mig validate` and `mig layouts`.

Run as: python3 tests/mig_cli_test.py --binary /path/to/gpushare-sim
"""

import re
import unittest

from cli_harness import main, run





def instance_rows(out):
    """The INSTANCE column of `mig validate`'s table."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("INSTANCE "))
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(line.split()[0])
    return rows


class MigValidateTest(unittest.TestCase):

    def assert_error(self, args, expected):
        """`args` fail with exit 2, no stdout and exactly `expected`."""
        code, out, err = run(*args)
        self.assertEqual(code, 2, err)
        self.assertEqual(out, "")
        self.assertEqual(err, "error: " + expected + "\n")

    def test_a100_layout_is_placed(self):
        code, out, err = run("mig", "validate", "--gpu", "A100-40GB",
                             "3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        self.assertTrue(out.startswith("valid MIG layout on A100-40GB: "), out)
        self.assertIn("3g.20gb@4", out)
        rows = instance_rows(out)
        self.assertEqual(sorted(r.split("@")[0] for r in rows),
                         ["1g.5gb", "1g.5gb", "2g.10gb", "3g.20gb"])
        # Distinct starts, and the summary line adds up.
        self.assertEqual(len({r.split("@")[1] for r in rows}), 4)
        self.assertIn("4 instances of at most 7; compute slices 7 of 7; "
                      "memory slices 8 of 8", out)

    def test_single_instance_summary_is_singular(self):
        code, out, err = run("mig", "validate", "--gpu", "A100-40GB",
                             "7g.40gb")
        self.assertEqual(code, 0, err)
        self.assertEqual(instance_rows(out), ["7g.40gb@0"])
        self.assertIn("\n1 instance of at most 7; compute slices 7 of 7; "
                      "memory slices 8 of 8\n", out)
        self.assertNotIn("1 instances", out)

    def test_two_instances_summary_is_plural(self):
        code, out, err = run("mig", "validate", "--gpu", "A100-40GB",
                             "3g.20gb", "4g.20gb")
        self.assertEqual(code, 0, err)
        self.assertIn("\n2 instances of at most 7; ", out)

    def test_fixed_start_not_allowed(self):
        self.assert_error(
            ("mig", "validate", "--gpu", "H100-80GB", "3g.40gb@2"),
            "3g.40gb cannot start at 2 on H100-80GB (allowed starts: 0, 4)")

    def test_fixed_instances_overlap(self):
        self.assert_error(
            ("mig", "validate", "--gpu", "H100-80GB", "4g.40gb@0",
             "3g.40gb@0"),
            "4g.40gb@0 and 3g.40gb@0 overlap memory positions 0-3")

    def test_count_over_the_profile_maximum(self):
        self.assert_error(
            ("mig", "validate", "--gpu", "H100-80GB", "4g.40gb:2"),
            "max 1 x 4g.40gb on H100-80GB (layout has 2)")

    def test_comma_separated_counts(self):
        code, comma, err = run("mig", "validate", "--gpu", "H100-80GB",
                               "3g.40gb:1,2g.20gb:1")
        self.assertEqual(code, 0, err)
        self.assertTrue(comma.startswith("valid MIG layout on H100-80GB: "),
                        comma)
        self.assertEqual(
            sorted(r.split("@")[0] for r in instance_rows(comma)),
            ["2g.20gb", "3g.40gb"])
        # The same layout as separate items.
        code, separate, err = run("mig", "validate", "--gpu", "H100-80GB",
                                  "3g.40gb:1", "2g.20gb:1")
        self.assertEqual(code, 0, err)
        self.assertEqual(comma, separate)

    def test_alias_and_fixed_start(self):
        code, out, err = run("mig", "validate", "--gpu",
                             "nvidia-h100-80gb-hbm3", "3g.40gb@4", "1g.10gb")
        self.assertEqual(code, 0, err)
        self.assertTrue(out.startswith("valid MIG layout on H100-80GB: "), out)
        self.assertIn("3g.40gb@4", instance_rows(out))

    def test_unknown_profile(self):
        code, out, err = run("mig", "validate", "--gpu", "H100-80GB",
                             "3g.45gb")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(
            err.startswith("error: unknown MIG profile '3g.45gb' on "
                           "H100-80GB; did you mean 3g.40gb"), err)
        self.assertIn("did you mean", err)

    def test_model_without_mig(self):
        code, out, err = run("mig", "validate", "--gpu", "L4", "1g.5gb")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: L4 does not support MIG"), err)

    def test_unknown_model(self):
        code, out, err = run("mig", "validate", "--gpu", "A100-41GB",
                             "1g.5gb")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: unknown GPU model 'A100-41GB'"),
                        err)

    def test_item_syntax_errors(self):
        cases = (
            ("3g.40gb@9",
             "MIG layout item '3g.40gb@9': start '9' is not an integer in "
             "0..7"),
            ("1g.10gb@1:2",
             "MIG layout item '1g.10gb@1:2': use profile@start or "
             "profile:count, not both"),
            ("3g.40gb,",
             "empty MIG layout item (expected profile, profile@start or "
             "profile:count)"),
            ("1g.10gb:0", "empty MIG layout: give at least one profile"),
        )
        for item, expected in cases:
            with self.subTest(item=item):
                self.assert_error(
                    ("mig", "validate", "--gpu", "H100-80GB", item), expected)

    def test_layout_limits(self):
        cases = (
            (("1g.10gb:8",), "max 7 x 1g.10gb on H100-80GB (layout has 8)"),
            (("7g.80gb", "1g.10gb"),
             "compute slices add up to 8, more than the 7 of H100-80GB"),
            (("1g.10gb+me", "1g.10gb+me"),
             "max 1 x 1g.10gb+me on H100-80GB (layout has 2)"),
        )
        for items, expected in cases:
            with self.subTest(items=items):
                self.assert_error(
                    ("mig", "validate", "--gpu", "H100-80GB", *items),
                    expected)

    def test_missing_gpu_is_a_usage_error(self):
        code, out, err = run("mig", "validate", "1g.5gb")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)
        self.assertIn("--gpu", err)
        self.assertIn("--help", err)

    def test_missing_layout_is_a_usage_error(self):
        code, out, err = run("mig", "validate", "--gpu", "A30")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)


class MigLayoutsTest(unittest.TestCase):

    def test_a30_counts(self):
        # A30: each half of the 4 memory positions holds a 2g or two 1g
        # instances, or one 4g fills the GPU: 5 layouts without +me. With at
        # most one +me instance (replacing one 1g or 2g instance): 12 more.
        code, out, err = run("mig", "layouts", "--gpu", "A30")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        self.assertEqual(out.splitlines()[0],
                         "A30-24GB: 17 distinct maximal MIG layouts "
                         "(placements) in 8 profile combinations")
        self.assertIn("4g.24gb@0", out)
        self.assertIn("1g.6gb+me@", out)

    def test_a30_without_media_extensions(self):
        code, out, err = run("mig", "layouts", "--gpu", "A30", "--without-me")
        self.assertEqual(code, 0, err)
        self.assertTrue(
            out.startswith("A30-24GB: 5 distinct maximal MIG layouts "
                           "(placements) in 4 profile combinations"), out)
        self.assertNotIn("+me@", out)

    def test_a100_counts(self):
        # Speed is measured in bench/ (BM_EnumerateMaximalMigLayouts), not
        # here.
        code, out, err = run("mig", "layouts", "--gpu", "A100-40GB")
        self.assertEqual(code, 0, err)
        self.assertEqual(
            out.splitlines()[0],
            "A100-40GB: 239 distinct maximal MIG layouts (placements) in 64 "
            "profile combinations")

    def test_every_listed_layout_validates(self):
        # Each placement line of `mig layouts` is a valid fixed layout.
        code, out, err = run("mig", "layouts", "--gpu", "A30")
        self.assertEqual(code, 0, err)
        layouts = re.findall(r"((?:\S+@\d+ ?)+)$", out, re.MULTILINE)
        self.assertEqual(len(layouts), 17)
        for layout in layouts:
            with self.subTest(layout=layout):
                code, _, err = run("mig", "validate", "--gpu", "A30",
                                   *layout.split())
                self.assertEqual(code, 0, err)

    def test_model_without_mig(self):
        code, out, err = run("mig", "layouts", "--gpu", "L4")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: L4 does not support MIG"), err)

    def test_missing_gpu_is_a_usage_error(self):
        code, out, err = run("mig", "layouts")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertTrue(err.startswith("error: "), err)
        self.assertIn("--gpu", err)


class SubcommandTest(unittest.TestCase):

    def test_no_subcommand(self):
        code, out, _ = run()
        self.assertNotEqual(code, 0)
        self.assertEqual(out, "")

    def test_mig_without_subcommand(self):
        code, out, _ = run("mig")
        self.assertNotEqual(code, 0)
        self.assertEqual(out, "")




if __name__ == "__main__":
    main()
