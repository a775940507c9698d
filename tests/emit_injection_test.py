"""End-to-end: the files `emit k8s` and `plan --out` write resist hostile
names (docs/emit.md, "What is quoted and what is refused").

Scenario HOSTILE has a name made of shell and YAML injection ($(...),
backticks, quotes, `; rm -rf`, `#`, `: `, U+2028; line breaks and other
control characters are refused at load, which is checked too) and pool, class, queue and namespace names, label and
taint values that Kubernetes accepts but YAML reads as booleans, nulls or
numbers when plain (true, 012, 1e5, yes, null, 0x1). Scenario IMPORTED reads
kubectl nodes named alike and pods whose tenant class and toleration are
hostile (kubectl pod fields are not validated, only quoted). For each output
folder: every *.sh passes `sh -n`; node-setup.sh runs against a fake
cluster (tests/fake_cluster.py: a stand-in kubectl first on PATH that keeps
the nodes in a file) and must leave exactly the expected labels and taints,
every string intact, while no injected command runs; every YAML file parses with PyYAML (YAML 1.1, the
strictest reader about booleans) and the names read back as strings; the
HAMi node config parses as JSON; the scenario name shows only on comment
lines. A kubectl node name that is not a DNS-1123 subdomain is refused (exit
2, nothing written).

Run as: python3 tests/emit_injection_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import re
import subprocess
import unittest

import yaml

from cli_harness import TempDirTestCase, main, run
from fake_cluster import FakeCluster, kubectl_nodes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HOSTILE_NAME = ("evil'$(touch pwned) `touch pwned`\"; rm -rf pwned-dir "
                "# x\u2028y: z ${HOME} *")
# Line breaks and control characters in names are refused at load
# (docs/reliability.md), so they never reach an emitted file.
BROKEN_NAME = "evil\n$(touch pwned)"

# The scenario as YAML: the name in a double-quoted scalar (json.dumps
# writes one, escaping the control characters).
HOSTILE = """\
name: {name}
seed: 3
horizon_s: 600
cluster:
  pools:
    - name: "true"
      gpu: L4
      nodes: 1
      labels: {{team: "yes", example.com/x-1: "0x1"}}
      taints: [{{key: dedicated, value: "null", effect: NoSchedule}}]
      sharing: {{scheme: time-slicing, replicas: 2}}
    - name: "1e5"
      gpu: A30
      nodes: 1
      sharing: {{scheme: mig, mig_config: all-1g.6gb}}
    - name: "012"
      gpu: A100-80GB
      nodes: 1
      sharing: {{scheme: hami}}
    - name: "on"
      gpu: A100-80GB
      nodes: 1
      sharing: {{scheme: hami, hami: {{split_count: 4}}}}
workload:
  horizon_s: 300
  classes:
    - name: "null"
      class: batch
      count: 4
      work_s: 60
      tenants: ["1e3"]
      queue: "y"
      node_selector: {{team: "yes"}}
      tolerations:
        - {{key: dedicated, operator: Equal, value: "null", effect: NoSchedule}}
    - {{name: "no", class: batch, count: 4, work_s: 60}}
queues:
  resource_flavors: [{{name: "off", node_labels: {{team: "yes"}}}}]
  cluster_queues:
    - name: "123"
      cohort: "0x1"
      resource_groups:
        - flavors:
            - name: "off"
              resources:
                - {{name: cpu, nominal_quota: 10}}
                - {{name: memory, nominal_quota: 100Gi}}
                - {{name: nvidia.com/gpu, nominal_quota: 4}}
  local_queues:
    - {{name: "y", namespace: "1e3", cluster_queue: "123"}}
"""

# The nodes of HOSTILE's pools in the fake cluster (found by the pool label,
# named unlike the simulator's nodes), and what node-setup.sh must leave on
# them, every string intact.
HOSTILE_NODES = {"yes": "true", "0x10": "1e5", "null": "012", "on": "on"}
HOSTILE_LABELS = {
    "yes": {"gpushare.io/node-pool": "true", "example.com/x-1": "0x1",
            "team": "yes", "nvidia.com/device-plugin.config": "true",
            "nvidia.com/gpu.deploy.device-plugin": "true"},
    "0x10": {"gpushare.io/node-pool": "1e5",
             "nvidia.com/device-plugin.config": "1e5",
             "nvidia.com/gpu.deploy.device-plugin": "true",
             "nvidia.com/mig.config": "all-1g.6gb",
             "nvidia.com/mig.config.state": "success"},
    "null": {"gpushare.io/node-pool": "012", "gpu": "on",
             "nvidia.com/gpu.deploy.device-plugin": "false"},
    "on": {"gpushare.io/node-pool": "on", "gpu": "on",
           "nvidia.com/gpu.deploy.device-plugin": "false"},
}

# examples/kubectl's nodes renamed to names YAML misreads when plain.
NODE_RENAMES = {"gpu-a100-0": "0x10", "gpu-l4-0": "yes", "gpu-l4-1": "1e5",
                "gpu-a10-0": "on", "cpu-0": "null"}
HOSTILE_CLASS = "notebooks $(touch pwned)`touch pwned`'\"; rm -rf pwned-dir"
HOSTILE_TOLERATION = "research - key: x\"$(touch pwned)\": 'y' #"

IMPORTED = """\
name: {name}
seed: 7
horizon_s: 600
cluster:
  import: {{format: kubectl, file: nodes.json}}
workload:
  trace:
    format: kubectl
    file: pods.json
    tenant_class_label: tenant-class
    defaults: {{lifetime_s: 600, gpu_memory_mib: 12000,
               workload_class: inference}}
"""

class EmitInjectionTest(TempDirTestCase):

    def scenario(self, text, name="scenario.yaml"):
        return self.write(name, text.format(name=json.dumps(HOSTILE_NAME)))

    def imported_scenario(self):
        with open(os.path.join(ROOT, "examples", "kubectl", "nodes.json"),
                  encoding="utf-8") as f:
            nodes = f.read()
        with open(os.path.join(ROOT, "examples", "kubectl", "pods.json"),
                  encoding="utf-8") as f:
            pods_text = f.read()
        for old, new in NODE_RENAMES.items():
            nodes = nodes.replace(f'"{old}"', f'"{new}"')
            pods_text = pods_text.replace(f'"{old}"', f'"{new}"')
        pods = json.loads(pods_text)
        for pod in pods["items"]:
            labels = pod["metadata"].get("labels") or {}
            if labels.get("tenant-class") == "notebooks":
                labels["tenant-class"] = HOSTILE_CLASS
            if pod["metadata"]["name"] == "train-b":
                pod["spec"]["tolerations"] = [
                    {"key": "dedicated", "operator": "Equal",
                     "value": HOSTILE_TOLERATION, "effect": "NoSchedule"}]
        self.write("nodes.json", nodes)
        self.write("pods.json", json.dumps(pods, indent=1))
        return self.scenario(IMPORTED, "imported.yaml")

    def files(self, folder):
        with open(os.path.join(folder, ".gpushare-sim-files"),
                  encoding="utf-8") as f:
            names = [line for line in f.read().splitlines()
                     if line and not line.startswith("#")]
        out = {}
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8",
                      newline="") as f:
                out[name] = f.read()
        return out

    def run_node_setup(self, folder, nodes):
        """Runs node-setup.sh against a fake cluster of `nodes` (name →
        {labels, taints}; tests/fake_cluster.py) in a fresh working folder;
        returns the cluster's nodes afterwards and the changes made."""
        cluster = FakeCluster(self.path("cluster-" + os.path.basename(folder)),
                              nodes)
        work = self.path("work-" + os.path.basename(folder))
        os.makedirs(os.path.join(work, "pwned-dir"))
        result = subprocess.run(
            ["sh", os.path.join(folder, "node-setup.sh")], cwd=work,
            env=dict(cluster.env(), HOME=work), capture_output=True,
            timeout=60, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse(os.path.exists(os.path.join(work, "pwned")))
        self.assertTrue(os.path.isdir(os.path.join(work, "pwned-dir")))
        self.assertEqual(sorted(os.listdir(work)), ["pwned-dir"])
        state = cluster.state()
        self.assertEqual(state["violations"], [])
        return state["nodes"], state["mutations"]

    def hostile_nodes(self):
        return {n: {"labels": {"gpushare.io/node-pool": pool}}
                for n, pool in HOSTILE_NODES.items()}

    def check_folder(self, folder):
        """The checks every output folder passes; returns its files."""
        files = self.files(folder)
        for name, text in files.items():
            if name.endswith(".sh"):
                result = subprocess.run(
                    ["sh", "-n", os.path.join(folder, name)],
                    capture_output=True, timeout=60, check=False)
                self.assertEqual(result.returncode, 0, result.stderr)
            if name.endswith(".yaml"):
                docs = list(yaml.safe_load_all(text))
                self.assertTrue(docs, name)
                for doc in docs:
                    self.assertIsInstance(doc, dict, name)
            # No stray line break: the hostile text shows on comment lines
            # (a Markdown heading in README.md) or as one double-quoted YAML
            # scalar on its line.
            self.assertNotIn("\r", text, name)
            self.assertNotIn("\u2028", text, name)
            for line in text.split("\n"):
                if "pwned" not in line:
                    continue
                quoted = (name.endswith(".yaml")
                          and re.fullmatch(r'\s*(- )?[\w.-]+: ".*"', line))
                self.assertTrue(line.lstrip().startswith("#") or quoted,
                                f"{name}: {line!r}")
        return files

    def test_emit_k8s_hostile_names(self):
        scenario = self.scenario(HOSTILE)
        out = self.path("k8s")
        code, _, stderr = run("emit", "k8s", "--scenario", scenario, "--out",
                              out)
        self.assertEqual(code, 0, stderr)
        nodes, _ = self.run_node_setup(out, self.hostile_nodes())
        self.assertEqual({n: v["labels"] for n, v in nodes.items()},
                         HOSTILE_LABELS)
        self.assertEqual(nodes["yes"]["taints"],
                         [{"key": "dedicated", "value": "null",
                           "effect": "NoSchedule"}])
        files = self.check_folder(out)
        self.assertIn("# Node changes of scenario 'evil'$(touch "
                      "pwned) `touch pwned`\"; rm -rf pwned-dir # "
                      "x\\u2028y: z ${HOME} *' (written",
                      files["node-setup.sh"])
        device = yaml.safe_load(files["device-plugin-config.yaml"])
        self.assertEqual(sorted(device["data"]), ["1e5", "default", "true"])
        mig = yaml.safe_load(yaml.safe_load(
            files["mig-parted-config.yaml"])["data"]["config.yaml"])
        self.assertIn("all-1g.6gb", mig["mig-configs"])
        hami = yaml.safe_load(files["hami-values.yaml"])
        nodeconfig = json.loads(
            hami["devicePlugin"]["nodeConfiguration"]["config"])
        self.assertEqual([n["name"] for n in nodeconfig["nodeconfig"]],
                         ["on-0"])
        kueue = list(yaml.safe_load_all(files["kueue-queues.yaml"]))
        self.assertEqual([d["metadata"]["name"] for d in kueue],
                         ["off", "123", "y"])
        self.assertEqual(kueue[0]["spec"]["nodeLabels"], {"team": "yes"})
        self.assertEqual(kueue[1]["spec"]["cohortName"], "0x1")
        self.assertEqual(kueue[1]["spec"]["resourceGroups"][0]["flavors"][0]
                         ["name"], "off")
        self.assertEqual(kueue[2]["metadata"]["namespace"], "1e3")
        self.assertEqual(kueue[2]["spec"]["clusterQueue"], "123")
        patches = [d for d in yaml.safe_load_all(files["pod-patches.yaml"])
                   if d]
        tolerated = [p["spec"]["template"] for p in patches
                     if p["spec"]["template"]["spec"].get("tolerations")]
        self.assertTrue(tolerated)
        for t in tolerated:
            # The scenario has a HAMi pool: pods of the others opt out of
            # its webhook.
            self.assertEqual(t["metadata"]["labels"],
                             {"kueue.x-k8s.io/queue-name": "y",
                              "hami.io/webhook": "ignore"})
            self.assertEqual(t["spec"]["nodeSelector"]["team"], "yes")
            self.assertEqual(t["spec"]["tolerations"],
                             [{"key": "dedicated", "operator": "Equal",
                               "value": "null", "effect": "NoSchedule"}])
        readme = files["README.md"].split("\n")
        self.assertTrue(readme[0].startswith(
            "# Kubernetes configuration of scenario 'evil'$(touch"))

    def test_emit_k8s_imported_hostile_names(self):
        scenario = self.imported_scenario()
        out = self.path("imported")
        code, _, stderr = run("emit", "k8s", "--scenario", scenario, "--out",
                              out)
        self.assertEqual(code, 0, stderr)
        before = kubectl_nodes(self.path("nodes.json"))
        nodes, changes = self.run_node_setup(out, before)
        files = self.check_folder(out)
        self.assertEqual(sorted({c[1] for c in changes}),
                         sorted(n for n in NODE_RENAMES.values()
                                if n != "null"))
        for name, node in nodes.items():
            # The imported nodes keep their own labels; GPU nodes get
            # their pool's.
            self.assertLessEqual(
                {k: v for k, v in before[name]["labels"].items()
                 if not k.startswith("nvidia.com/")}.items(),
                node["labels"].items())
            self.assertEqual("gpushare.io/node-pool" in node["labels"],
                             name != "null", name)
        patches = list(yaml.safe_load_all(files["pod-patches.yaml"]))
        values = [t.get("value") for d in patches if d
                  for t in d["spec"]["template"]["spec"].get("tolerations",
                                                             [])]
        self.assertIn(HOSTILE_TOLERATION, values)
        # The hostile class shows in comments, escaped.
        self.assertIn("# class notebooks $(touch pwned)`touch pwned`'\"; "
                      "rm -rf pwned-dir", files["pod-patches.yaml"])
        device = yaml.safe_load(files["device-plugin-config.yaml"])
        for key in device["data"]:
            self.assertIsInstance(key, str)

    def test_line_breaks_in_names_are_refused_at_load(self):
        scenario = self.write("broken.yaml", HOSTILE.format(
            name=json.dumps(BROKEN_NAME)))
        out = self.path("broken")
        code, stdout, stderr = run("emit", "k8s", "--scenario", scenario,
                                   "--out", out)
        self.assertEqual(code, 2, stderr)
        self.assertEqual(stdout, "")
        self.assertIn("control character U+000A", stderr)
        self.assertFalse(os.path.exists(out))

    def test_plan_out_hostile_names(self):
        scenario = self.scenario(HOSTILE)
        out = self.path("plan")
        code, _, stderr = run("plan", scenario, "--quiet", "--out", out,
                              "--seeds", "1", "--force")
        # 3: no plan meets every constraint; --force writes the outputs.
        self.assertIn(code, (0, 3), stderr)
        nodes, changes = self.run_node_setup(out, self.hostile_nodes())
        files = self.check_folder(out)
        self.assertTrue(changes)
        for change in changes:
            self.assertIn(change[0], ("label", "taint", "cordon", "drain",
                                      "uncordon"))
        for name, pool in HOSTILE_NODES.items():
            self.assertEqual(nodes[name]["labels"]["gpushare.io/node-pool"],
                             pool)
        plan = yaml.safe_load(files["scenario.yaml"])
        self.assertEqual(plan["name"], HOSTILE_NAME)
        self.assertEqual([p["name"] for p in plan["cluster"]["pools"]],
                         ["true", "1e5", "012", "on"])
        self.assertEqual(plan["cluster"]["pools"][0]["labels"],
                         {"team": "yes", "example.com/x-1": "0x1"})
        # The plan's scenario.yaml replays: the emitted files, a change
        # from the scenario planned, come back.
        again = self.path("again")
        code, _, stderr = run("emit", "k8s", "--scenario",
                              os.path.join(out, "scenario.yaml"), "--from",
                              scenario, "--out", again)
        self.assertEqual(code, 0, stderr)
        for name, text in self.files(again).items():
            self.assertEqual(text, files[name], name)

    def test_refused_node_names(self):
        for name in ("GPU-Node-1", "n1\n$(touch pwned)", "-n1", "a..b",
                     "x" * 254):
            with self.subTest(name=name):
                with open(os.path.join(ROOT, "examples", "kubectl",
                                       "nodes.json"), encoding="utf-8") as f:
                    nodes = json.load(f)
                nodes["items"][0]["metadata"]["name"] = name
                self.write("nodes.json", json.dumps(nodes, indent=1))
                scenario = self.write("bad.yaml", (
                    "name: bad\ncluster:\n  import: {format: kubectl, file: "
                    "nodes.json}\nworkload:\n  classes:\n    - {name: a, "
                    "class: batch, count: 1}\n"))
                out = self.path("refused")
                code, stdout, stderr = run("emit", "k8s", "--scenario",
                                           scenario, "--out", out)
                self.assertEqual(code, 2, stderr)
                self.assertEqual(stdout, "")
                self.assertRegex(stderr, r"nodes\.json:[0-9]+:[0-9]+: ")
                if "\n" in name:  # control characters first
                    self.assertIn("items[0].metadata.name: control "
                                  "character U+000A", stderr)
                else:
                    self.assertIn("items[0].metadata.name: invalid node "
                                  "name", stderr)
                    self.assertIn("DNS-1123 subdomain", stderr)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    main()
