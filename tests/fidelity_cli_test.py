"""End-to-end tests of the fidelity check where decisions are made (issue
52): `compare` and `plan` of an imported cluster with recorded dcgm-exporter
series show today's replay against the recording per pool, in the terminal,
JSON and HTML, and warn about pools modelled too far from it
(workload.trace.metrics_warn_points, docs/output.md "Fidelity").

Run as: python3 tests/fidelity_cli_test.py --binary /path/to/gpushare-sim
"""

import json
import os

from cli_harness import TempDirTestCase, main, run

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        os.pardir, "examples")
SCENARIO = os.path.join(EXAMPLES, "kubectl-metrics.yaml")


class FidelityWhereDecisionsAreMadeTest(TempDirTestCase):

    def scenario(self, extra):
        """kubectl-metrics.yaml with `extra` under workload.trace, its
        relative paths made absolute."""
        with open(SCENARIO, encoding="utf-8") as f:
            text = f.read()
        kubectl = os.path.join(os.path.abspath(EXAMPLES), "kubectl")
        text = text.replace("kubectl/", kubectl + "/")
        text = text.replace("    defaults:\n", extra + "    defaults:\n")
        path = self.path("s.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def check_command(self, command):
        j, h = self.path(command + ".json"), self.path(command + ".html")
        status, out, err = run(command, SCENARIO, "--quiet", "--json", j,
                               "--html", h)
        self.assertEqual(status, 0, err)
        with open(j, encoding="utf-8") as f:
            fidelity = json.load(f)["metrics_fidelity"]
        with open(h, encoding="utf-8") as f:
            html = f.read()
        pools = [p["pool"] for p in fidelity["pools"]]
        self.assertEqual(pools, ["a100-80gb-x2-mig", "l4-x4-time-slicing",
                                 "a10-x2-hami"])
        # The HAMi pool is simulated at 50 % GPU util against 4.4 % recorded.
        hami = [w for w in fidelity["warnings"]
                if w.startswith("pool a10-x2-hami:")]
        self.assertEqual(len(hami), 1, fidelity["warnings"])
        self.assertIn("GPU util by 45.6 points (simulated 50.0%, recorded "
                      "4.4%)", hami[0])
        self.assertIn("warning: pool a10-x2-hami: the replay is off its "
                      "recorded series", out)
        self.assertIn("Fidelity against recorded dcgm-exporter series", out)
        self.assertIn('id="fidelity"', html)
        self.assertIn("Warning: pool a10-x2-hami", html)

    def test_compare_shows_fidelity_and_warns(self):
        self.check_command("compare")

    def test_plan_shows_fidelity_and_warns(self):
        self.check_command("plan")

    def test_the_limit_is_the_scenarios(self):
        path = self.scenario("    metrics_warn_points: 100\n")
        j = self.path("loose.json")
        status, out, err = run("compare", path, "--quiet", "--json", j)
        self.assertEqual(status, 0, err)
        with open(j, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["metrics_fidelity"]["warnings"], [])
        self.assertNotIn("warning: pool", out)

    def test_without_metrics_there_is_no_fidelity(self):
        j = self.path("plain.json")
        status, _, err = run("compare", os.path.join(EXAMPLES,
                                                     "kubectl-import.yaml"),
                             "--quiet", "--json", j)
        self.assertEqual(status, 0, err)
        with open(j, encoding="utf-8") as f:
            self.assertNotIn("metrics_fidelity", json.load(f))

    def test_the_limit_needs_metrics_and_a_range(self):
        path = self.scenario("    metrics_warn_points: 0\n")
        status, out, err = run("compare", path, "--quiet")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("metrics_warn_points", err)


if __name__ == "__main__":
    main()
