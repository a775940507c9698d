"""The bad-input corpus (tests/bad_inputs/, docs/reliability.md).

Each case of tests/bad_inputs/cases.json is a malformed file or command line.
gpushare-sim must answer every one with exit status 2, `error: ` and the
expected location (`file:line:col` for a file, the flag for a command line)
and phrase on stderr, nothing on stdout, and no output file: the case's
{out} folder stays empty.

A case's fields:
  name       what it is
  args       the command line; {bad} is tests/bad_inputs, {data} tests/data,
             {examples} examples/, {tmp} a fresh folder, {out} a folder that
             must stay empty, {scenario} the wrapper scenario below
  wrap       optional {kind, file}: a scenario that reads file as its
             kubectl nodes or pods, openb or job-list trace, KAI Queues or
             Kueue ClusterQueues, written to {tmp}/scenario.yaml
  generate   optional: an input made at run time instead of kept in git
             (long_line_csv, long_line_yaml: a 50 MB line; huge_value_yaml:
             a 50 MB value an error quotes; huge_gpu_name_yaml: a 5 MB
             unknown GPU model; huge_sweep_value: a sweep grid with a
             value of 1 MiB + 1 byte; huge_sweep_grid: a sweep grid of
             17 MiB; many_keys_sweep_grid: a grid of 1,001 keys; fifo;
             directory;
             csv_dir_with_pods_folder; socket; dangling_link; foreign_folder:
             a folder holding a file gpushare-sim did not write;
             link_in_set_folder: k8s/cluster.yaml, a link to {tmp}/victim;
             planted_links: {tmp}/sticky, mode 1777, holding r.json and k8s,
             links that user 65534 made to {tmp}/victim and {tmp}/secret;
             needs root, else the case is skipped;
             huge_claim_json: a kubectl List whose ResourceClaimTemplate
             has 200,000 requests, huge_claim.json)
  where      the location stderr must show, e.g. "x.yaml:3:12"
  message    a phrase of the message
"""

import json
import os
import socket
import subprocess
import tempfile
import unittest

import cli_harness
from cli_harness import main

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad_inputs")
DATA = os.path.join(HERE, "data")
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")

TINY_CLUSTER = """cluster:
  pools:
    - {name: gpu, gpu: A100-40GB, nodes: 2, gpus_per_node: 2}
"""
TINY_WORKLOAD = """workload:
  classes:
    - {name: jobs, class: batch, count: 5, work_s: 60}
"""
HEADER = "name: bad-input\nseed: 1\n"


def wrapper(kind, path):
    """The scenario text that reads `path` as input of `kind`."""
    if kind == "kubectl_nodes":
        return (HEADER + f"cluster:\n  import: {{format: kubectl, file: '{path}'}}\n"
                + TINY_WORKLOAD)
    trace = {"kubectl_pods": "kubectl", "openb_pods": "openb", "jobs": "jobs"}
    if kind in trace:
        return (HEADER + TINY_CLUSTER + "workload:\n  trace: "
                f"{{format: {trace[kind]}, file: '{path}'}}\n")
    if kind == "kai_queues":
        return (HEADER + TINY_CLUSTER + TINY_WORKLOAD
                + f"kai_queues: {{import: '{path}'}}\n")
    if kind == "kueue_cluster_queues":
        kueue = os.path.join(DATA, "kueue")
        return (HEADER + TINY_CLUSTER + TINY_WORKLOAD + "queues:\n  import:\n"
                f"    resource_flavors: '{kueue}/resourceflavors.json'\n"
                f"    cluster_queues: '{path}'\n"
                f"    local_queues: '{kueue}/localqueues.json'\n")
    raise ValueError(f"cases.json: unknown wrap kind {kind!r}")


def generate(kind, tmp):
    """Makes a run-time input in `tmp`; returns nothing (args name it)."""
    line = "x" * (50 * 1024 * 1024)
    if kind == "long_line_csv":
        with open(os.path.join(tmp, "long_line.csv"), "w") as f:
            f.write("name,tenant_class,workload_class,arrival_s,gpus,"
                    "gpu_memory_mib,sm_demand,duty,work_s,lifetime_s,cpu_milli,"
                    "memory_mib,priority,node_selector\n" + line + "\n")
    elif kind == "long_line_yaml":
        with open(os.path.join(tmp, "long_line.yaml"), "w") as f:
            f.write("name: " + line + "\nseed: [\n")
    elif kind == "huge_value_yaml":
        with open(os.path.join(tmp, "huge_value.yaml"), "w") as f:
            f.write("name: huge\nseed: " + "9" * 50_000_000 + "\n")
    elif kind == "huge_gpu_name_yaml":
        with open(os.path.join(BAD, "scenario_unknown_gpu.yaml")) as f:
            text = f.read().replace("H100-40GB", "H" * 5_000_000)
        with open(os.path.join(tmp, "huge_gpu_name.yaml"), "w") as f:
            f.write(text)
    elif kind == "huge_sweep_value":
        with open(os.path.join(tmp, "huge_value_grid.yaml"), "w") as f:
            f.write("cross:\n  seed: [1]\nset:\n  name: "
                    + "x" * (1024 * 1024 + 1) + "\n")
    elif kind == "huge_sweep_grid":
        mib = 1024 * 1024
        with open(os.path.join(tmp, "huge_grid.yaml"), "w") as f:
            f.write("cross:\n  seed: [1]\n")
            for _ in range(17):
                f.write("#" + "x" * (mib - 2) + "\n")
    elif kind == "many_keys_sweep_grid":
        with open(os.path.join(tmp, "many_keys_grid.yaml"), "w") as f:
            f.write("cross:\n  seed: [1]\nset:\n")
            f.write("".join(f"  labels.k{i}: 1\n" for i in range(1001)))
    elif kind == "fifo":
        os.mkfifo(os.path.join(tmp, "fifo.yaml"))
    elif kind == "directory":
        os.mkdir(os.path.join(tmp, "a-directory.yaml"))
    elif kind == "csv_dir_with_pods_folder":
        os.makedirs(os.path.join(tmp, "csv", "pods.csv"))
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(os.path.join(tmp, "socket"))
        sock.close()
    elif kind == "dangling_link":
        os.symlink(os.path.join(tmp, "missing"),
                   os.path.join(tmp, "dangling.json"))
    elif kind == "huge_claim_json":
        requests = ",".join(
            '{"name": "r%d", "exactly": {"deviceClassName": "gpu.nvidia.com"}}'
            % i for i in range(200_000))
        with open(os.path.join(tmp, "huge_claim.json"), "w") as f:
            f.write('{"kind": "List", "items": [{"kind": "Pod", "metadata": '
                    '{"name": "a"}, "spec": {"containers": [{"name": "c"}], '
                    '"resourceClaims": [{"name": "gpu", '
                    '"resourceClaimTemplateName": "t"}]}}, {"kind": '
                    '"ResourceClaimTemplate", "apiVersion": '
                    '"resource.k8s.io/v1", "metadata": {"name": "t"}, '
                    '"spec": {"spec": {"devices": {"requests": ['
                    + requests + ']}}}}]}\n')
    elif kind == "foreign_folder":
        os.mkdir(os.path.join(tmp, "k8s"))
        with open(os.path.join(tmp, "k8s", "quota.yaml"), "w") as f:
            f.write("kind: ResourceQuota\n")
    elif kind == "link_in_set_folder":
        os.mkdir(os.path.join(tmp, "k8s"))
        with open(os.path.join(tmp, "victim"), "w") as f:
            f.write("precious")
        os.symlink(os.path.join(tmp, "victim"),
                   os.path.join(tmp, "k8s", "cluster.yaml"))
    elif kind == "planted_links":
        plant_links_as_nobody(tmp)
    else:
        raise ValueError(f"cases.json: unknown generate kind {kind!r}")


def plant_links_as_nobody(tmp):
    """{tmp}/sticky (1777) with links r.json and k8s that user 65534 made."""
    if os.geteuid() != 0:
        raise unittest.SkipTest("planting a link as another user needs root")
    os.chmod(tmp, 0o755)
    sticky = os.path.join(tmp, "sticky")
    os.mkdir(sticky)
    os.chmod(sticky, 0o1777)
    os.mkdir(os.path.join(tmp, "secret"), 0o700)
    with open(os.path.join(tmp, "victim"), "w") as f:
        f.write("precious")
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            os.symlink(os.path.join(tmp, "victim"),
                       os.path.join(sticky, "r.json"))
            os.symlink(os.path.join(tmp, "secret"), os.path.join(sticky, "k8s"))
            os._exit(0)
        except BaseException:  # pylint: disable=broad-except
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        raise RuntimeError("could not plant the links as user 65534")


def load_cases():
    with open(os.path.join(BAD, "cases.json")) as f:
        return json.load(f)


class BadInputCorpusTest(unittest.TestCase):

    def test_corpus_is_large_and_every_file_is_used(self):
        cases = load_cases()
        self.assertGreaterEqual(len(cases), 60)
        self.assertEqual(len({c["name"] for c in cases}), len(cases),
                         "case names must be unique")
        used = set()
        for c in cases:
            text = json.dumps(c)
            used.update(f for f in os.listdir(BAD) if f in text)
        unused = set(os.listdir(BAD)) - used - {"cases.json"}
        self.assertEqual(unused, set(), "files no case reads")
        for c in cases:
            self.assertNotIn(os.path.dirname(HERE), c["where"] + c["message"],
                             c["name"] + ": expectations must not name the "
                             "checkout's absolute path (CI clones elsewhere)")

    def test_every_case_is_a_located_error_with_no_output(self):
        for c in load_cases():
            with self.subTest(c["name"]):
                self.check(c)

    def check(self, c):
        result, stderr, left = run_case(c)
        self.assertEqual(result.returncode, 2, stderr)
        self.assertEqual(result.stdout, b"", "output before the error")
        self.assertIn("error: ", stderr)
        self.assertIn(c["where"], stderr)
        self.assertIn(c["message"], stderr)
        self.assertNotIn("internal error", stderr)
        # An error quotes at most a bounded part of a value, and no control
        # character reaches the terminal.
        self.assertLess(len(stderr), 8192, "an error longer than 8 KiB")
        self.assertFalse(any(ord(ch) < 0x20 and ch != "\n" for ch in stderr),
                         "a control character in the error")
        self.assertEqual(left, [], "an output file was left")


def run_case(c):
    """Runs case `c`; returns (CompletedProcess, stderr text with the
    temporary folder written {tmp}, files left in {out})."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        scenario = os.path.join(tmp, "scenario.yaml")
        names = dict(bad=BAD, data=DATA, examples=EXAMPLES, tmp=tmp, out=out,
                     scenario=scenario)
        if "generate" in c:
            generate(c["generate"], tmp)
        if "wrap" in c:
            with open(scenario, "w") as f:
                f.write(wrapper(c["wrap"]["kind"],
                                c["wrap"]["file"].format(**names)))
        args = [a.format(**names) for a in c["args"]]
        result = subprocess.run([cli_harness.binary(), *args],
                                capture_output=True, timeout=120, check=False)
        stderr = result.stderr.decode("utf-8", "replace").replace(tmp, "{tmp}")
        return result, stderr, sorted(os.listdir(out))


if __name__ == "__main__":
    main()
