"""Suspicious dcgm-exporter recordings run, with warnings (issue 52, point
6; docs/scenario.md "Measured needs"): NaN / +Inf / -Inf samples skipped
and counted, SM_ACTIVE above GR_ENGINE_ACTIVE by more than 0.02 counted,
and a recording that ends before the dump's earliest pod time. Each is a
note of the run's report and an entry of `metrics_fidelity.warnings` in
--json; a clean recording has none. (Impossible recordings are errors:
tests/bad_inputs/cases.json, the dcgm_* cases.)

Run as: python3 tests/dcgm_recording_warnings_test.py --binary PATH
"""

import json
import os

from cli_harness import TempDirTestCase, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
SCENARIO = os.path.join(EXAMPLES, "kubectl-metrics.yaml")
START = 1733500800  # kubectl/dcgm-range.json's first time


def series(name, gpu, values, pod=None):
    metric = {"__name__": name, "gpu": str(gpu), "modelName": "NVIDIA L4",
              "Hostname": "gpu-l4-0"}
    if pod:
        metric.update({"namespace": "ml", "pod": pod})
    return {"metric": metric,
            "values": [[START + 60 * i, v] for i, v in enumerate(values)]}


def recording(*result):
    return json.dumps({"status": "success",
                       "data": {"resultType": "matrix", "result": result}})


class DcgmRecordingWarningsTest(TempDirTestCase):

    def run_json(self, *args):
        out = self.path("r.json")
        code, stdout, stderr = run("run", *args, "--json", out)
        self.assertEqual(code, 0, stderr)
        with open(out, encoding="utf-8") as f:
            return stdout, json.load(f)["metrics_fidelity"]["recording_warnings"]

    def test_clean_recording_has_no_warning(self):
        stdout, warnings = self.run_json(SCENARIO)
        self.assertEqual(warnings, [])
        # Only the pools' fidelity warnings (metrics_warn_points) remain.
        self.assertEqual(
            [line for line in stdout.splitlines()
             if "warning:" in line and not line.startswith("warning: pool ")],
            [])

    def test_non_finite_samples_are_skipped_and_counted(self):
        path = self.write("nan.json", recording(
            series("DCGM_FI_DEV_GPU_UTIL", 1,
                   ["10", "NaN", "+Inf", "12", "-Inf"]),
            series("DCGM_FI_DEV_FB_USED", 1, ["100", "NaN", "100", "100",
                                               "100"])))
        stdout, warnings = self.run_json(SCENARIO, "--compare-metrics", path)
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("4 NaN/Inf sample(s) of 2 series skipped (first: "
                      "DCGM_FI_DEV_GPU_UTIL at " + path + ":1:", warnings[0])
        self.assertIn("compared metrics: warning: 4 NaN/Inf sample(s)",
                      " ".join(stdout.split()))

    def test_sm_active_above_engine_activity_is_counted(self):
        # 0.30 vs 0.29 is within the 0.02 tolerance; 0.5 vs 0.3 and 0.9 vs
        # 0.4 are not.
        path = self.write("sm.json", recording(
            series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", 1, ["0.29", "0.3", "0.4"]),
            series("DCGM_FI_PROF_SM_ACTIVE", 1, ["0.30", "0.5", "0.9"])))
        stdout, warnings = self.run_json(SCENARIO, "--compare-metrics", path)
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("SM_ACTIVE above GR_ENGINE_ACTIVE by more than 0.02 at "
                      f"2 sample(s) of 1 device(s) (first: gpu-l4-0 gpu 1 at "
                      f"time {START + 60}, SM active 0.5 against 0.3",
                      warnings[0])
        self.assertIn("warning: SM_ACTIVE above", " ".join(stdout.split()))

    def scenario_with_pod_times(self, start_time, created):
        with open(os.path.join(EXAMPLES, "kubectl", "pods.json"),
                  encoding="utf-8") as f:
            pods = json.load(f)
        for item in pods["items"]:
            item["metadata"]["creationTimestamp"] = created
            if item["status"].get("phase") == "Running":
                item["status"]["startTime"] = start_time
        self.write("pods.json", json.dumps(pods))
        with open(SCENARIO, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("kubectl/", os.path.join(EXAMPLES, "kubectl") + "/")
        text = text.replace(os.path.join(EXAMPLES, "kubectl", "pods.json"),
                            self.path("pods.json"))
        return self.write("s.yaml", text)

    def test_recording_before_the_dump_is_a_warning(self):
        # The recording is 16:00 to 17:00 on 2024-12-06; every pod of this
        # dump started or was created on 2024-12-07.
        scenario = self.scenario_with_pod_times("2024-12-07T09:00:00Z",
                                                "2024-12-07T08:30:00Z")
        stdout, warnings = self.run_json(scenario)
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn(f"the recording ({START} to {START + 3600}, Unix "
                      "seconds) ends 55800 s before the earliest pod of the "
                      "dump started or was created (ml/pending-d at "
                      "1733560200)", warnings[0])
        self.assertIn("metrics: warning: the recording", " ".join(stdout.split()))

    def test_recording_within_the_dump_time_has_no_warning(self):
        scenario = self.scenario_with_pod_times("2024-12-06T15:00:00Z",
                                                "2024-12-06T14:00:00+00:00")
        _, warnings = self.run_json(scenario)
        self.assertEqual(warnings, [])

    def test_malformed_pod_time_is_an_error(self):
        scenario = self.scenario_with_pod_times("yesterday", "2024-12-06Z")
        code, stdout, stderr = run("run", scenario)
        self.assertEqual(code, 2, stderr)
        self.assertEqual(stdout, "")
        self.assertIn("pods.json:", stderr)
        self.assertIn("status.startTime: expected an RFC 3339 time", stderr)


if __name__ == "__main__":
    main()
