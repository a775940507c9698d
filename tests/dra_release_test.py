"""End-to-end tests of the DRA files written for the driver and the
Kubernetes that run (issue 53, point 7; docs/emit.md "DRA pools"):

- the files are written for one chart version of NVIDIA's DRA driver, pinned
  in every helm command; a plan needing a driver feature that version lacks
  (consumable shares: no release has it) is refused, naming where it is and
  the key to change, and nothing is written;
- the Kubernetes version (platform.kubernetes.version, else the lowest
  kubelet version of an imported dump's nodes) refuses what it lacks or has
  off, unless platform.kubernetes.feature_gates turns it on;
- nvidiaDriverRoot follows who installs the GPU driver;
- the kubelet plugin selects the DRA pools' nodes by the pool label, which
  node-setup.sh sets: a node provisioned into a pool as the README says gets
  the plugin (checked on a stand-in cluster after node-setup.sh ran);
- the release and namespace installed today (the dump's pods) are upgraded
  in place, not installed a second time;
- a class's claim template is the pool its pods ran on (a Running pod's
  node), not the first DRA pool serving its class;
- a DeviceClass the cluster has with another spec is said.

Facts the expectations are written from (not from our output): the driver's
tags v25.8.1, v25.12.0, v0.4.1 and commit 95932046 (pkg/featuregates/
featuregates.go, deployments/helm/*/values.yaml and templates/
kubeletplugin.yaml, docs/upgrade.md), kubernetes/kubernetes staging/src/
k8s.io/kube-scheduler/pkg/features/kube_features.go and the KEPs' kep.yaml.

Run as: python3 tests/dra_release_test.py --binary /path/to/gpushare-sim
"""

import copy
import json
import os
import re
import subprocess

import yaml

from cli_harness import TempDirTestCase, main, run
from fake_cluster import FakeCluster

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DUMP = os.path.join(ROOT, "examples", "kubectl", "dra-today.json")
DRA_EXAMPLE = os.path.join(ROOT, "examples", "dra.yaml")
NODEPOOL = "gpushare.io/node-pool"

SHARED_L4 = """\
name: shared
{platform}
cluster:
  pools:
    - name: nb
      gpu: L4
      nodes: 1
      devices: dra
      sharing: {{scheme: time-slicing, replicas: 4}}
      dra: {{consumable_shares: memory}}
workload:
  classes:
    - {{name: nb, class: batch, tenants: [team-a], count: 4, gpus: 0.25,
       gpu_memory_mib: 6000}}
"""

WHOLE = """\
name: whole
{platform}
cluster:
  pools:
    - {{name: w, gpu: A100-80GB, nodes: 1, devices: dra}}
workload:
  classes:
    - {{name: w, class: batch, tenants: [ml], count: 2, gpus: 1}}
"""


def load(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def dump_items():
    with open(DUMP, encoding="utf-8") as f:
        return json.load(f)


def selected(values, labels):
    """Whether a node of `labels` satisfies the kubelet plugin's required
    node affinity (core/v1 NodeSelector: terms ORed, expressions ANDed)."""
    terms = values["kubeletPlugin"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    for term in terms:
        assert "matchFields" not in term, term
        if all(e["operator"] == "In" and labels.get(e["key"]) in e["values"]
               for e in term.get("matchExpressions", [])):
            return True
    return False


class DraReleaseTest(TempDirTestCase):

    def dump(self, name, change=None):
        """A copy of examples' dra-today dump, changed by `change(items)`."""
        data = dump_items()
        if change:
            change(data["items"])
        return self.write(name, json.dumps(data, indent=1))

    def scenario(self, name, dump, extra="", pools=""):
        """Today's cluster of `dump`, its A100 pool given whole GPUs (the
        driver refuses MPS beside the L4s' consumable shares), as a plan
        does."""
        return self.write(name, f"""name: {name[:-5]}
seed: 52
horizon_s: 3600
{extra}
cluster:
  import:
    format: kubectl
    file: {dump}
    pools:
      a100-80gb-x4-mps-dra: {{sharing: {{scheme: exclusive}}}}
{pools}
workload:
  trace:
    format: kubectl
    file: {dump}
    system_namespaces: [kube-system, nvidia-dra-driver-gpu]
    defaults: {{lifetime_s: 3600, gpu_memory_mib: 12000}}
""")

    def emit(self, scenario, out):
        return run("emit", "k8s", "--scenario", scenario, "--out",
                   self.path(out))

    # -- the driver release ------------------------------------------------

    def test_a_released_chart_refuses_consumable_shares(self):
        s = self.write("s.yaml", SHARED_L4.format(platform=""))
        code, _, err = self.emit(s, "k8s")
        self.assertEqual(code, 2, err)
        for part in ("DRA pool 'nb' needs consumable shares",
                     "chart 0.4.1 (gpushare-sim's default, the newest "
                     "release)", "commit c38ce5b5",
                     "platform.dra_driver.chart_version"):
            self.assertIn(part, err)
        self.assertFalse(os.path.exists(self.path("k8s")))
        # A 0.5 development chart has the gate and the chart value.
        s = self.write("dev.yaml", SHARED_L4.format(
            platform="platform: {dra_driver: {chart_version: "
                     "0.5.0-dev-95932046}}"))
        code, _, err = self.emit(s, "dev")
        self.assertEqual(code, 0, err)
        values = load(self.path("dev/dra-driver-values.yaml"))[0]
        self.assertEqual(values["featureGates"], {"ConsumableShares": True})
        self.assertEqual(values["consumableShares"], "memory")
        readme = read(self.path("dev/README.md"))
        self.assertIn(
            "helm upgrade --install dra-driver-nvidia-gpu oci://us-central1-"
            "docker.pkg.dev/k8s-staging-images/dra-driver-nvidia/charts/"
            "dra-driver-nvidia-gpu -n dra-driver-nvidia-gpu --version "
            "0.5.0-dev-95932046 --create-namespace -f "
            "dra-driver-values.yaml", readme)

    def test_every_helm_command_pins_the_version(self):
        s = self.write("w.yaml", WHOLE.format(platform=""))
        code, _, err = self.emit(s, "k8s")
        self.assertEqual(code, 0, err)
        readme = read(self.path("k8s/README.md"))
        commands = [line for line in readme.splitlines()
                    if "helm upgrade" in line and "dra-driver" in line]
        self.assertTrue(commands)
        for line in commands:
            self.assertIn(" --version 0.4.1 ", line)
            self.assertIn("oci://registry.k8s.io/dra-driver-nvidia/charts/"
                          "dra-driver-nvidia-gpu", line)
        values = load(self.path("k8s/dra-driver-values.yaml"))[0]
        self.assertNotIn("featureGates", values)
        self.assertNotIn("consumableShares", values)
        # The 25.x releases come from NGC's repository under the old name.
        s = self.write("old.yaml", WHOLE.format(
            platform="platform: {dra_driver: {chart_version: 25.12.0}}"))
        code, _, err = self.emit(s, "old")
        self.assertEqual(code, 0, err)
        readme = read(self.path("old/README.md"))
        self.assertIn("helm upgrade dra-driver-nvidia-gpu nvidia-dra-driver-gpu "
                      "--repo https://helm.ngc.nvidia.com/nvidia -n "
                      "dra-driver-nvidia-gpu --version 25.12.0 ", readme)

    # -- Kubernetes versions and gates -------------------------------------

    def test_kubernetes_version_and_gates(self):
        dev = "dra_driver: {chart_version: 0.5.0-dev-95932046}"
        cases = [
            # (pools, kubernetes, exit status, phrase)
            (WHOLE, '{version: "1.33"}', 2, "does not have it"),
            (WHOLE, '{version: "1.34"}', 0, ""),
            (SHARED_L4, '{version: "1.34"}', 2,
             "it is off by default in Kubernetes 1.34"),
            (SHARED_L4, '{version: "1.35"}', 2, "DRAConsumableCapacity"),
            (SHARED_L4,
             '{version: "1.35", feature_gates: {DRAConsumableCapacity: true}}',
             0, ""),
            (SHARED_L4, '{version: "1.36"}', 0, ""),
            (SHARED_L4,
             '{version: "1.36", feature_gates: {DRAConsumableCapacity: false}}',
             2, "feature_gates turns it off"),
        ]
        for i, (pools, k8s, status, phrase) in enumerate(cases):
            s = self.write(f"k{i}.yaml", pools.format(
                platform=f"platform: {{kubernetes: {k8s}, {dev}}}"))
            code, _, err = self.emit(s, f"k{i}")
            self.assertEqual(code, status, (k8s, err))
            self.assertIn(phrase, err)
            self.assertEqual(os.path.exists(self.path(f"k{i}")), status == 0)
        header = read(self.path("k5/dra-objects.yaml"))
        self.assertIn("# Checked against Kubernetes 1.36 "
                      "(platform.kubernetes.version)", header)
        self.assertIn("#   DRAConsumableCapacity (KEP-5075", header)

    def test_plan_reads_the_kubelet_version_of_the_dump(self):
        def kubelets(items):
            for i, item in enumerate(items):
                if item["kind"] == "Node":
                    item["status"]["nodeInfo"] = {
                        "kubeletVersion": "v1.35.3" if i == 3 else "v1.36.1"}
        dump = self.dump("d.json", kubelets)
        low = next(n["metadata"]["name"] for i, n in
                   enumerate(dump_items()["items"]) if i == 3)
        s = self.scenario("p.yaml", dump)
        out = self.path("plan")
        code, _, err = run("plan", s, "--quiet", "--out", out)
        self.assertEqual(code, 2, err)
        self.assertIn("DRAConsumableCapacity", err)
        self.assertIn(f"Kubernetes 1.35 (the lowest kubelet version of the "
                      f"nodes in {dump}, node {low})", err)
        self.assertFalse(os.path.exists(out))
        s = self.scenario(
            "g.yaml", dump,
            "platform: {kubernetes: {feature_gates: "
            "{DRAConsumableCapacity: true}}}")
        code, _, err = run("plan", s, "--quiet", "--out", out)
        self.assertEqual(code, 0, err)
        self.assertIn("# Checked against Kubernetes 1.35 (the lowest kubelet",
                      read(os.path.join(out, "dra-driver-values.yaml")))
        # The scenario's version wins over the dump's.
        s = self.scenario("v.yaml", dump,
                          'platform: {kubernetes: {version: "1.36"}}')
        code, _, err = run("plan", s, "--quiet", "--out", self.path("v"))
        self.assertEqual(code, 0, err)

    # -- the release installed today ---------------------------------------

    def test_the_installed_release_is_upgraded_in_place(self):
        out = self.path("plan")
        code, _, err = run("plan", os.path.join(ROOT, "examples",
                                                "dra-today.yaml"),
                           "--quiet", "--out", out)
        self.assertEqual(code, 0, err)
        values = load(os.path.join(out, "dra-driver-values.yaml"))[0]
        # The dump's kubelet plugin: DaemonSet nvidia-dra-driver-gpu-kubelet-
        # plugin in namespace nvidia-dra-driver-gpu, image tag
        # v0.5.0-dev-95932046; the 0.4+ chart keeps those objects only with
        # nameOverride (docs/upgrade.md).
        self.assertEqual(values["nameOverride"], "nvidia-dra-driver-gpu")
        readme = read(os.path.join(out, "README.md"))
        helm = [line.strip() for line in readme.splitlines()
                if "dra-driver" in line and line.strip().startswith("helm ")]
        self.assertTrue(helm)
        for line in helm:
            words = line.split()
            after = (words[words.index("upgrade") + 1:] if "upgrade" in words
                     else words[words.index("values") + 1:])
            release = [w for w in after if not w.startswith("-")][0]
            self.assertEqual(release, "nvidia-dra-driver-gpu", line)
            self.assertEqual(words[words.index("-n") + 1]
                             if "-n" in words else
                             words[words.index("--namespace") + 1],
                             "nvidia-dra-driver-gpu", line)
            if "upgrade" in words:
                self.assertEqual(words[words.index("--version") + 1],
                                 "0.5.0-dev-95932046", line)
        self.assertNotIn("helm upgrade --install dra-driver-nvidia-gpu", readme)
        # The scenario's release wins.
        s = self.scenario("r.yaml", DUMP,
                          "platform: {dra_driver: {release: gpu-dra, "
                          "namespace: dra}}")
        code, _, err = self.emit(s, "r")
        self.assertEqual(code, 0, err)
        self.assertIn("helm upgrade --install gpu-dra ",
                      read(self.path("r/README.md")))

    def test_driver_root_follows_the_gpu_operators_driver(self):
        def operator(driver):
            def change(items):
                pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {
                    "name": "toolkit-x", "namespace": "gpu-operator",
                    "ownerReferences": [{
                        "apiVersion": "apps/v1", "kind": "DaemonSet",
                        "name": "nvidia-container-toolkit-daemonset",
                        "uid": "u1", "controller": True}]},
                    "spec": {"nodeName": "l4-0", "containers": [
                        {"name": "c", "image": "nvcr.io/t:1"}]},
                    "status": {"phase": "Running"}}
                items.append(pod)
                if driver:
                    d = copy.deepcopy(pod)
                    d["metadata"]["name"] = "driver-x"
                    d["metadata"]["ownerReferences"][0]["name"] = \
                        "nvidia-driver-daemonset"
                    items.append(d)
            return change
        for driver, root in ((True, "/run/nvidia/driver"), (False, "/")):
            dump = self.dump(f"o{driver}.json", operator(driver))
            s = self.scenario(f"o{driver}.yaml", dump,
                              "platform: {dra_driver: "
                              "{chart_version: 0.5.0-dev-95932046}}")
            code, _, err = self.emit(s, f"o{driver}")
            self.assertEqual(code, 0, err)
            values = load(self.path(f"o{driver}/dra-driver-values.yaml"))[0]
            self.assertEqual(values["nvidiaDriverRoot"], root)

    # -- the kubelet plugin's nodes ----------------------------------------

    def test_a_node_added_to_an_imported_pool_gets_the_plugin(self):
        # The L4 pool grows by one node (import.pools), which the README says
        # to provision with the pool's labels.
        s = self.scenario("grow.yaml", DUMP,
                          pools="      l4-x4-time-slicing-dra: {nodes: 3}")
        code, _, err = self.emit(s, "k8s")
        self.assertEqual(code, 0, err)
        readme = read(self.path("k8s/README.md"))
        line = next(l for l in readme.splitlines()
                    if l.startswith("- Pool `l4-x4-time-slicing-dra`: "
                                    "provision"))
        labels = dict(kv.split("=", 1) for kv in re.findall(r"`([^`=]+=[^`]*)`",
                                                            line))
        self.assertEqual(labels.get(NODEPOOL), "l4-x4-time-slicing-dra")
        nodes = {n["metadata"]["name"]: {"labels": n["metadata"]["labels"],
                                         "taints": []}
                 for n in dump_items()["items"] if n["kind"] == "Node"}
        nodes["l4-new"] = {"labels": labels, "taints": []}
        cluster = FakeCluster(self.tmp.name, nodes)
        result = subprocess.run(
            ["sh", self.path("k8s/node-setup.sh")], cwd=self.tmp.name,
            env=cluster.env(), capture_output=True, text=True, timeout=120,
            check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        values = load(self.path("k8s/dra-driver-values.yaml"))[0]
        for name, node in cluster.nodes().items():
            gpu = name != "cpu-0"
            self.assertEqual(selected(values, node["labels"]), gpu,
                             (name, node["labels"]))

    # -- a class's template is its pods' pool ------------------------------

    def test_a_running_pods_template_is_its_nodes_pool(self):
        # Without the productName selectors, gpu.nvidia.com is served by the
        # L4 and the A100 pools; the fine-tune Job Running on a100-0 must get
        # the A100 pool's template, as it ran there in the simulation.
        def no_selectors(items):
            for item in items:
                if item["kind"] not in ("ResourceClaim",
                                        "ResourceClaimTemplate"):
                    continue
                spec = item["spec"]
                if item["kind"] == "ResourceClaimTemplate":
                    spec = spec["spec"]
                for r in spec["devices"]["requests"]:
                    r["exactly"].pop("selectors", None)
        dump = self.dump("n.json", no_selectors)
        s = self.scenario("n.yaml", dump)
        code, _, err = self.emit(s, "k8s")
        self.assertEqual(code, 0, err)
        docs = load(self.path("k8s/dra-objects.yaml"))
        ml = {d["metadata"]["name"]: d for d in docs
              if d["metadata"].get("namespace") == "ml"}
        two = [d for d in ml.values() if d["spec"].get("spec", {}).get(
            "devices", {}).get("requests", [{}])[0].get("exactly", {}).get(
                "count") == 2]
        self.assertEqual([d["metadata"]["name"] for d in two],
                         ["ml-a100-80gb-x4-mps-dra-gpu-x2"], list(ml))
        patches = read(self.path("k8s/pod-patches.yaml"))
        self.assertIn("resourceClaimTemplateName: "
                      "ml-a100-80gb-x4-mps-dra-gpu-x2", patches)
        # (The Pending eval Job, bound to no node, goes where the simulation
        # routes it: the first pool serving the class, the L4s.)
        self.assertNotIn("ml-l4-x4-time-slicing-dra-gpu-x2", patches)

    # -- DeviceClasses the cluster has -------------------------------------

    def test_a_device_class_of_another_spec_is_said(self):
        # Today's class lacks extendedResourceName (as an API server with
        # DRAExtendedResource off keeps it).
        def other_class(items):
            for item in items:
                if (item["kind"] == "DeviceClass" and
                        item["metadata"]["name"] ==
                        "mig-1g-10gb.gpu.nvidia.com"):
                    del item["spec"]["extendedResourceName"]
        s = self.scenario("c.yaml", self.dump("c.json", other_class))
        code, _, err = self.emit(s, "k8s")
        self.assertEqual(code, 0, err)
        objects = read(self.path("k8s/dra-objects.yaml"))
        self.assertIn("# Changes today's cluster: DeviceClass "
                      "mig-1g-10gb.gpu.nvidia.com exists in the", objects)
        readme = read(self.path("k8s/README.md"))
        self.assertIn("DeviceClass mig-1g-10gb.gpu.nvidia.com exists in the "
                      "cluster today with another spec: kubectl apply "
                      "replaces its extendedResourceName (none today; "
                      "nvidia.com/mig-1g.10gb in the file)", readme)
        # The dump as it is: its classes are the file's.
        s = self.scenario("same.yaml", DUMP)
        code, _, err = self.emit(s, "same")
        self.assertEqual(code, 0, err)
        self.assertNotIn("Changes today's cluster",
                         read(self.path("same/dra-objects.yaml")))


if __name__ == "__main__":
    main()
