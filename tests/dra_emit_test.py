"""End-to-end tests of what emit writes for DRA pools (`devices: dra`,
docs/emit.md "DRA pools"): `emit k8s` and `plan --out` of examples/dra.yaml
write the DRA driver's Helm values and the resource.k8s.io/v1 objects its
pods need, and the pod patches name them. Every written object is checked
against the rules of the upstream types, written here from them and not from
our output: kubernetes/api resource/v1/types.go (as vendored by
kubernetes-sigs/dra-driver-nvidia-gpu 95932046, vendor/k8s.io/api/resource/
v1/types.go: DeviceRequestsMaxSize 32, DeviceSelectorsMaxSize 32,
DeviceConfigMaxSize 32, CELSelectorExpressionMaxLength 10Ki,
OpaqueParametersMaxLength 10Ki, DriverNameMaxLength 63), core/v1 PodSpec
resourceClaims, the driver's chart values.yaml and templates/validation.yaml,
pkg/featuregates/featuregates.go and api/nvidia.com/resource/v1beta1.

Run as: python3 tests/dra_emit_test.py --binary /path/to/gpushare-sim
"""

import json
import os
import re

import yaml

from cli_harness import TempDirTestCase, main, run_raw
from strategic_merge import apply, normalize

# A workload the pod patches apply to: one container `main`, no resources.
PLAIN_WORKLOAD = {"spec": {"template": {"spec": {"containers": [
    {"name": "main", "image": "registry.example/app:1"}]}}}}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "dra.yaml")

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS_SUBDOMAIN = re.compile(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
QUANTITY = re.compile(r"^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$")

# The chart's DeviceClasses (templates/deviceclass-gpu.yaml, -mig.yaml).
CHART_CLASSES = {"gpu.nvidia.com", "mig.nvidia.com"}
# pkg/featuregates/featuregates.go, the driver's gates.
DRIVER_GATES = {"TimeSlicingSettings", "MPSSupport", "IMEXDaemonsWithDNSNames",
                "PassthroughSupport", "DynamicMIG", "ComputeDomainCliques",
                "CrashOnNVLinkFabricErrors", "NVMLDeviceHealthCheck",
                "HostManagedIMEXDaemon", "DRAListTypeAttributes",
                "ConsumableShares"}


def is_dns_label(s):
    return isinstance(s, str) and len(s) <= 63 and DNS_LABEL.match(s)


def is_dns_subdomain(s):
    return isinstance(s, str) and len(s) <= 253 and DNS_SUBDOMAIN.match(s)


def is_qualified_name(s):
    if not isinstance(s, str):
        return False
    prefix, _, name = s.rpartition("/")
    if prefix and not is_dns_subdomain(prefix):
        return False
    return len(name) <= 63 and bool(QUALIFIED_NAME.match(name))


class Checker:
    """Collects every violation of the upstream rules."""

    def __init__(self, test):
        self.test = test
        self.errors = []

    def need(self, cond, where, what):
        if not cond:
            self.errors.append(f"{where}: {what}")

    def keys(self, obj, allowed, where, required=()):
        if not isinstance(obj, dict):
            self.errors.append(f"{where}: not a mapping")
            return False
        for k in obj:
            self.need(k in allowed, where, f"unknown field {k!r}")
        for k in required:
            self.need(k in obj, where, f"missing required field {k!r}")
        return True

    def cel_selectors(self, selectors, where):
        self.need(isinstance(selectors, list) and len(selectors) <= 32, where,
                  "selectors: a list of at most 32")
        for i, sel in enumerate(selectors or []):
            w = f"{where}[{i}]"
            if self.keys(sel, {"cel"}, w, ["cel"]):
                if self.keys(sel["cel"], {"expression"}, w + ".cel",
                             ["expression"]):
                    e = sel["cel"]["expression"]
                    self.need(isinstance(e, str) and 0 < len(e) <= 10 * 1024,
                              w, "expression: 1..10Ki characters")

    def opaque(self, opaque, where):
        if not self.keys(opaque, {"driver", "parameters"}, where,
                         ["driver", "parameters"]):
            return
        driver = opaque["driver"]
        self.need(is_dns_subdomain(driver) and len(driver) <= 63, where,
                  f"driver {driver!r}: a DNS subdomain of at most 63")
        params = opaque["parameters"]
        self.need(isinstance(params, dict), where,
                  "parameters: a JSON object")
        self.need(len(json.dumps(params)) <= 10 * 1024, where,
                  "parameters: at most 10Ki")
        if driver == "gpu.nvidia.com" and isinstance(params, dict):
            # api/nvidia.com/resource/v1beta1: GpuConfig, sharing.go.
            self.keys(params, {"apiVersion", "kind", "sharing"}, where,
                      ["apiVersion", "kind"])
            self.need(params.get("apiVersion") == "resource.nvidia.com/v1beta1",
                      where, "apiVersion resource.nvidia.com/v1beta1")
            self.need(params.get("kind") == "GpuConfig", where,
                      "kind GpuConfig")
            sharing = params.get("sharing", {})
            self.keys(sharing, {"strategy", "timeSlicingConfig", "mpsConfig"},
                      where + ".sharing", ["strategy"])
            self.need(sharing.get("strategy") in ("TimeSlicing", "MPS"),
                      where, "strategy TimeSlicing or MPS")
            if sharing.get("strategy") == "MPS":
                # GetMpsConfig: "cannot use TimeSlicingConfig with the 'MPS'
                # strategy"; MpsConfig's fields.
                self.need("timeSlicingConfig" not in sharing, where,
                          "MPS with timeSlicingConfig")
                mps = sharing.get("mpsConfig", {})
                self.keys(mps, {"defaultActiveThreadPercentage",
                                "defaultPinnedDeviceMemoryLimit",
                                "defaultPerDevicePinnedMemoryLimit",
                                "multiUser"}, where + ".mpsConfig")
                pct = mps.get("defaultActiveThreadPercentage", 100)
                self.need(isinstance(pct, int) and 0 <= pct <= 100, where,
                          "defaultActiveThreadPercentage 0..100")
                lim = mps.get("defaultPinnedDeviceMemoryLimit", "1Mi")
                self.need(isinstance(lim, str) and QUANTITY.match(lim), where,
                          f"defaultPinnedDeviceMemoryLimit {lim!r}")
            elif sharing:
                self.need("mpsConfig" not in sharing, where,
                          "TimeSlicing with mpsConfig")
            ts = sharing.get("timeSlicingConfig")
            if ts is not None:
                self.keys(ts, {"interval"}, where + ".timeSlicingConfig")
                self.need(ts.get("interval") in
                          ("Default", "Short", "Medium", "Long"), where,
                          "interval Default|Short|Medium|Long")

    def device_class(self, doc, where):
        self.keys(doc, {"apiVersion", "kind", "metadata", "spec"}, where,
                  ["apiVersion", "kind", "metadata", "spec"])
        meta = doc["metadata"]
        self.keys(meta, {"name", "labels", "annotations"}, where + ".metadata",
                  ["name"])
        self.need(is_dns_subdomain(meta.get("name")), where,
                  "name: a DNS subdomain")
        spec = doc["spec"]
        self.keys(spec, {"selectors", "config", "extendedResourceName"},
                  where + ".spec")
        self.cel_selectors(spec.get("selectors", []), where + ".selectors")
        for i, c in enumerate(spec.get("config", [])):
            if self.keys(c, {"opaque"}, f"{where}.config[{i}]", ["opaque"]):
                self.opaque(c["opaque"], f"{where}.config[{i}].opaque")
        ern = spec.get("extendedResourceName")
        if ern is not None:
            # An extended resource name: qualified, with a domain outside
            # kubernetes.io, and "requests." + it qualified too.
            self.need(is_qualified_name(ern) and "/" in ern and
                      not ern.split("/")[0].endswith("kubernetes.io") and
                      is_qualified_name("requests." + ern), where,
                      f"extendedResourceName {ern!r}")

    def claim_template(self, doc, where, shared=False):
        """A ResourceClaimTemplate, or with `shared` a ResourceClaim (its
        spec is the template's spec.spec)."""
        self.keys(doc, {"apiVersion", "kind", "metadata", "spec"}, where,
                  ["apiVersion", "kind", "metadata", "spec"])
        meta = doc["metadata"]
        self.keys(meta, {"name", "namespace", "labels", "annotations"},
                  where + ".metadata", ["name", "namespace"])
        self.need(is_dns_subdomain(meta.get("name")), where,
                  "name: a DNS subdomain")
        self.need(is_dns_label(meta.get("namespace")), where,
                  "namespace: a DNS label")
        if shared:
            claim_spec = doc["spec"]
        else:
            if not self.keys(doc["spec"], {"metadata", "spec"},
                             where + ".spec", ["spec"]):
                return
            claim_spec = doc["spec"]["spec"]
        if not self.keys(claim_spec, {"devices"}, where + ".spec",
                         ["devices"]):
            return
        devices = claim_spec["devices"]
        self.keys(devices, {"requests", "constraints", "config"},
                  where + ".devices")
        requests = devices.get("requests", [])
        self.need(isinstance(requests, list) and 1 <= len(requests) <= 32,
                  where, "requests: 1..32")
        names = set()
        for i, r in enumerate(requests):
            w = f"{where}.requests[{i}]"
            if not self.keys(r, {"name", "exactly", "firstAvailable"}, w,
                             ["name"]):
                continue
            self.need(is_dns_label(r["name"]), w, "name: a DNS label")
            self.need(r["name"] not in names, w, "duplicate name")
            names.add(r["name"])
            self.need(("exactly" in r) != ("firstAvailable" in r), w,
                      "exactly one of exactly and firstAvailable")
            ex = r.get("exactly")
            if ex is None:
                continue
            self.keys(ex, {"deviceClassName", "selectors", "allocationMode",
                           "count", "adminAccess", "tolerations", "capacity"},
                      w + ".exactly", ["deviceClassName"])
            self.need(is_dns_subdomain(ex.get("deviceClassName")), w,
                      "deviceClassName: a DNS subdomain")
            mode = ex.get("allocationMode", "ExactCount")
            self.need(mode in ("ExactCount", "All"), w, "allocationMode")
            if mode == "ExactCount":
                count = ex.get("count", 1)
                self.need(isinstance(count, int) and not isinstance(count, bool)
                          and count >= 1, w, "count must be greater than zero")
            else:
                self.need("count" not in ex, w, "count with All")
            self.cel_selectors(ex.get("selectors", []), w + ".selectors")
            cap = ex.get("capacity")
            if cap is not None and self.keys(cap, {"requests"}, w + ".capacity"):
                for k, v in cap.get("requests", {}).items():
                    self.need(is_qualified_name(k), w, f"capacity key {k!r}")
                    self.need(isinstance(v, str) and QUANTITY.match(v), w,
                              f"capacity {v!r}: a quantity")
        config = devices.get("config", [])
        self.need(len(config) <= 32, where, "config: at most 32")
        for i, c in enumerate(config):
            w = f"{where}.config[{i}]"
            if not self.keys(c, {"requests", "opaque"}, w, ["opaque"]):
                continue
            for req in c.get("requests", []):
                self.need(req.split("/")[0] in names, w,
                          f"config names unknown request {req!r}")
            self.opaque(c["opaque"], w + ".opaque")

    def driver_values(self, values, where):
        # deployments/helm/dra-driver-nvidia-gpu/values.yaml: the keys the
        # emitter may set.
        self.keys(values, {"nvidiaDriverRoot", "nameOverride", "resources",
                           "gpuResourcesEnabledOverride",
                           "consumableShares", "featureGates",
                           "kubeletPlugin"}, where)
        root = values.get("nvidiaDriverRoot", "/")
        self.need(isinstance(root, str) and root.startswith("/"), where,
                  f"nvidiaDriverRoot {root!r}: an absolute path")
        gpus = values.get("resources", {}).get("gpus", {}).get("enabled", True)
        # templates/validation.yaml refuses resources.gpus.enabled without
        # the override.
        self.need(not gpus or values.get("gpuResourcesEnabledOverride") is True,
                  where, "resources.gpus.enabled needs "
                  "gpuResourcesEnabledOverride")
        shares = values.get("consumableShares", "")
        self.need(isinstance(shares, str) and
                  (shares in ("", "disabled", "memory", "unlimited") or
                   (shares.isdigit() and int(shares) > 0)), where,
                  f"consumableShares {shares!r}")
        for gate, on in values.get("featureGates", {}).items():
            self.need(gate in DRIVER_GATES, where, f"unknown gate {gate!r}")
            self.need(isinstance(on, bool), where, f"gate {gate}: a bool")
        plugin = values.get("kubeletPlugin", {})
        self.keys(plugin, {"affinity", "tolerations", "nodeSelector"},
                  where + ".kubeletPlugin")
        terms = (plugin.get("affinity", {}).get("nodeAffinity", {})
                 .get("requiredDuringSchedulingIgnoredDuringExecution", {})
                 .get("nodeSelectorTerms", []))
        self.need(len(terms) >= 1, where, "no nodeSelectorTerms")
        for i, t in enumerate(terms):
            w = f"{where}.nodeSelectorTerms[{i}]"
            self.keys(t, {"matchExpressions", "matchFields"}, w)
            self.need(t, w, "an empty term matches no node")
            for r in t.get("matchExpressions", []) + t.get("matchFields", []):
                self.need(is_qualified_name(r.get("key")), w, "key")
                self.need(r.get("operator") in ("In", "NotIn", "Exists",
                                                "DoesNotExist", "Gt", "Lt"),
                          w, "operator")
                if r.get("operator") in ("In", "NotIn"):
                    self.need(r.get("values"), w, "In needs values")
            for r in t.get("matchFields", []):
                self.need(r.get("key") == "metadata.name", w,
                          "matchFields only metadata.name")
        for i, t in enumerate(plugin.get("tolerations", [])):
            self.keys(t, {"key", "operator", "value", "effect"},
                      f"{where}.tolerations[{i}]")

    def done(self):
        self.test.assertEqual(self.errors, [])


def load_docs(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def class_tenants(scenario_path):
    with open(scenario_path, encoding="utf-8") as f:
        s = yaml.safe_load(f)
    return {c["name"]: c.get("tenants", ["default"])
            for c in s["workload"]["classes"]}


class DraEmitTest(TempDirTestCase):

    def check_dir(self, out, scenario_path):
        """Every DRA file of `out` against the upstream rules, and the pod
        patches' references to them."""
        check = Checker(self)
        values = load_docs(os.path.join(out, "dra-driver-values.yaml"))
        self.assertEqual(len(values), 1)
        check.driver_values(values[0], "dra-driver-values.yaml")
        classes = set(CHART_CLASSES)
        templates = set()
        shared = set()
        for i, doc in enumerate(load_docs(os.path.join(out,
                                                       "dra-objects.yaml"))):
            where = f"dra-objects.yaml[{i}]"
            check.need(doc.get("apiVersion") == "resource.k8s.io/v1", where,
                       "apiVersion resource.k8s.io/v1")
            if doc.get("kind") == "DeviceClass":
                check.device_class(doc, where)
                classes.add(doc["metadata"]["name"])
            elif doc.get("kind") == "ResourceClaimTemplate":
                check.claim_template(doc, where)
                templates.add((doc["metadata"]["namespace"],
                               doc["metadata"]["name"]))
            elif doc.get("kind") == "ResourceClaim":
                check.claim_template(doc, where, shared=True)
                shared.add((doc["metadata"]["namespace"],
                            doc["metadata"]["name"]))
            else:
                check.need(False, where, f"kind {doc.get('kind')!r}")
        for i, doc in enumerate(load_docs(os.path.join(out,
                                                       "dra-objects.yaml"))):
            spec = doc.get("spec", {})
            spec = spec if doc.get("kind") == "ResourceClaim" else spec.get(
                "spec", {})
            for r in spec.get("devices", {}).get("requests", []):
                name = r.get("exactly", {}).get("deviceClassName")
                check.need(name in classes, f"dra-objects.yaml[{i}]",
                           f"class {name!r} neither the chart's nor written")
        # Pod patches: the claims they name exist in every namespace of
        # their class.
        tenants = class_tenants(scenario_path)
        with open(os.path.join(out, "pod-patches.yaml"),
                  encoding="utf-8") as f:
            chunks = f.read().split("\n---\n")[1:]
        named = 0
        for chunk in chunks:
            m = re.search(r"^# class (\S+) ", chunk, re.M)
            doc = yaml.safe_load(chunk)
            if m is None or not isinstance(doc, dict):
                continue
            # As the patch leaves a workload (its nulls and $patch
            # directives delete what other schemes set).
            doc = normalize(apply(PLAIN_WORKLOAD, doc))
            spec = doc["spec"]["template"]["spec"]
            claims = spec.get("resourceClaims", [])
            pod_claims = set()
            for c in claims:
                w = f"pod-patches class {m.group(1)}"
                check.keys(c, {"name", "resourceClaimName",
                               "resourceClaimTemplateName"}, w, ["name"])
                check.need(is_dns_label(c["name"]), w, "claim name")
                check.need(c["name"] not in pod_claims, w, "duplicate claim")
                pod_claims.add(c["name"])
                check.need(("resourceClaimName" in c) !=
                           ("resourceClaimTemplateName" in c), w,
                           "exactly one of resourceClaimName and "
                           "resourceClaimTemplateName")
                t = c.get("resourceClaimTemplateName",
                          c.get("resourceClaimName"))
                objects = (templates if "resourceClaimTemplateName" in c
                           else shared)
                check.need(is_dns_subdomain(t), w, "claim or template name")
                for ns in tenants[m.group(1)]:
                    check.need((ns, t) in objects, w,
                               f"no claim or template {t!r} in namespace "
                               f"{ns!r}")
                named += 1
            for ctr in spec.get("containers", []):
                for c in ctr.get("resources", {}).get("claims", []):
                    check.need(c["name"] in pod_claims, "pod-patches",
                               f"container claim {c['name']!r} not in "
                               "resourceClaims")
                if claims:
                    check.need("limits" not in ctr.get("resources", {}),
                               "pod-patches", "DRA pods ask no limits")
        check.done()
        self.assertGreater(named, 0)
        for name in os.listdir(out):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                self.assertNotIn("deviceclass.resource.kubernetes.io",
                                 f.read(), name)

    def test_emit_k8s_writes_valid_dra_objects(self):
        out = self.path("k8s")
        result = run_raw("emit", "k8s", "--scenario", EXAMPLE, "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.check_dir(out, EXAMPLE)
        docs = load_docs(os.path.join(out, "dra-objects.yaml"))
        # Hand-derived from examples/dra.yaml: `training` asks 1, 2 or 4
        # whole GPUs in namespace ml; `services` asks 30000 MiB (its 95th
        # percentile), which only 3g.40gb of H100 all-balanced holds, in
        # namespaces search and shop.
        self.assertEqual(
            [(d["kind"], d["metadata"].get("namespace"), d["metadata"]["name"])
             for d in docs],
            [("DeviceClass", None, "mig-3g-40gb.gpu.nvidia.com"),
             ("ResourceClaimTemplate", "ml", "training-train-gpu"),
             ("ResourceClaimTemplate", "ml", "training-train-gpu-x2"),
             ("ResourceClaimTemplate", "ml", "training-train-gpu-x4"),
             ("ResourceClaimTemplate", "research", "notebooks-notebooks-gpu"),
             ("ResourceClaimTemplate", "search",
              "services-inference-mig-3g-40gb"),
             ("ResourceClaimTemplate", "shop",
              "services-inference-mig-3g-40gb")])
        values = load_docs(os.path.join(out, "dra-driver-values.yaml"))[0]
        # The notebooks pool: consumable shares 4 (its replicas) and the
        # Short TimeSlicing interval, both behind alpha gates.
        self.assertEqual(values["featureGates"],
                         {"ConsumableShares": True,
                          "TimeSlicingSettings": True})
        self.assertEqual(values["consumableShares"], "4")
        # So every device is published with 4 shares: the claims of the
        # pools that do not share (train, inference) take all four, the
        # notebooks' one (the default).
        shares = {d["metadata"]["name"]: d["spec"]["spec"]["devices"][
            "requests"][0]["exactly"].get("capacity", {}).get(
                "requests", {}).get("shares")
                  for d in docs if d["kind"] == "ResourceClaimTemplate"}
        self.assertEqual(shares, {
            "training-train-gpu": "4", "training-train-gpu-x2": "4",
            "training-train-gpu-x4": "4", "notebooks-notebooks-gpu": None,
            "services-inference-mig-3g-40gb": "4"})
        # The kubelet plugin by the pool label node-setup.sh sets on every
        # node of the DRA pools.
        terms = values["kubeletPlugin"]["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"][
            "nodeSelectorTerms"]
        self.assertEqual(terms, [{"matchExpressions": [{
            "key": "gpushare.io/node-pool", "operator": "In",
            "values": ["train", "inference", "notebooks"]}]}])
        with open(os.path.join(out, "node-setup.sh"), encoding="utf-8") as f:
            setup = f.read()
        self.assertIn("gpushare.io/node-pool=train "
                      "nvidia.com/gpu.deploy.device-plugin=false", setup)
        # The platform pool runs HAMi, the others DRA: no device-plugin
        # ConfigMap.
        self.assertFalse(os.path.exists(
            os.path.join(out, "device-plugin-config.yaml")))
        again = self.path("k8s-again")
        run_raw("emit", "k8s", "--scenario", EXAMPLE, "--out", again)
        for name in os.listdir(out):
            with open(os.path.join(out, name), "rb") as a, \
                    open(os.path.join(again, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_plan_out_writes_the_dra_files(self):
        out = self.path("plan")
        result = run_raw("plan", EXAMPLE, "--quiet", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.check_dir(out, EXAMPLE)
        replay = run_raw("run", os.path.join(out, "scenario.yaml"), "--quiet")
        self.assertEqual(replay.returncode, 0, replay.stderr)

    def test_device_plugin_skips_dra_pools(self):
        scenario = self.write("mixed.yaml", MIXED)
        result = run_raw("emit", "device-plugin", "--scenario", scenario)
        self.assertEqual(result.returncode, 0, result.stderr)
        docs = load_docs_text(result.stdout.decode())
        self.assertEqual(sorted(docs[0]["data"]), ["default", "plugin"])
        self.assertIn(b"#    Not here: dra (devices: dra)", result.stdout)
        # Only DRA and HAMi pools: nothing to write, exit 2.
        result = run_raw("emit", "device-plugin", "--scenario", EXAMPLE)
        self.assertEqual(result.returncode, 2)
        self.assertIn(b"runs HAMi or hands out its GPUs through DRA",
                      result.stderr)

    def test_pod_patches_name_templates(self):
        result = run_raw("emit", "pod-patches", "--scenario", EXAMPLE)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b"resourceClaimTemplateName: training-train-gpu-x4\n",
                      result.stdout)
        self.assertNotIn(b"deviceclass.resource", result.stdout)

    def test_differing_consumable_shares_write_nothing(self):
        scenario = self.write("differ.yaml", DIFFERING_SHARES)
        out = self.path("differ")
        result = run_raw("emit", "k8s", "--scenario", scenario, "--out", out)
        skip_until_the_reader_reads_dra(self, result)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(b"one consumable-shares mode", result.stderr)
        self.assertFalse(os.path.exists(out))

    def test_unlimited_shares_beside_an_exclusive_pool_write_nothing(self):
        scenario = self.write("unlimited.yaml", UNLIMITED_BESIDE_EXCLUSIVE)
        out = self.path("unlimited")
        result = run_raw("emit", "k8s", "--scenario", scenario, "--out", out)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(b"pool 'b' could not hand a claim a device of its own",
                      result.stderr)
        self.assertFalse(os.path.exists(out))

    def test_consumable_memory_shares_and_interval(self):
        scenario = self.write("shares.yaml", SHARES)
        out = self.path("shares")
        result = run_raw("emit", "k8s", "--scenario", scenario, "--out", out)
        skip_until_the_reader_reads_dra(self, result)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.check_dir(out, scenario)
        values = load_docs(os.path.join(out, "dra-driver-values.yaml"))[0]
        self.assertEqual(values["consumableShares"], "memory")
        self.assertEqual(values["featureGates"],
                         {"ConsumableShares": True,
                          "TimeSlicingSettings": True})
        docs = load_docs(os.path.join(out, "dra-objects.yaml"))
        self.assertEqual(len(docs), 1)
        devices = docs[0]["spec"]["spec"]["devices"]
        # The class asks 12000 MiB per GPU (a constant: every percentile).
        self.assertEqual(docs[0]["metadata"]["name"], "nb-shared-gpu-12000mi")
        self.assertEqual(
            devices["requests"][0]["exactly"]["capacity"]["requests"],
            {"memory": "12000Mi"})
        self.assertEqual(
            devices["config"][0]["opaque"]["parameters"]["sharing"],
            {"strategy": "TimeSlicing",
             "timeSlicingConfig": {"interval": "Short"}})


class DraSharedClaimsEmitTest(TempDirTestCase):
    """examples/dra-mps.yaml: classes sharing claims get ResourceClaims their
    pod patches name; the DRA MPS pool's claims carry the driver's MPS
    GpuConfig and the driver's values turn MPSSupport on."""

    def test_shared_claims_and_dra_mps(self):
        example = os.path.join(ROOT, "examples", "dra-mps.yaml")
        out = self.path("k8s")
        result = run_raw("emit", "k8s", "--scenario", example, "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        DraEmitTest.check_dir(self, out, example)
        values = load_docs(os.path.join(out, "dra-driver-values.yaml"))[0]
        self.assertEqual(values["featureGates"], {"MPSSupport": True})
        with open(os.path.join(out, "dra-driver-values.yaml"),
                  encoding="utf-8") as f:
            self.assertIn("MPSSupport: the claims'", f.read())
        docs = {(d["kind"], d["metadata"]["name"]): d
                for d in load_docs(os.path.join(out, "dra-objects.yaml"))}
        chat = docs[("ResourceClaim", "chat-mps-gpu-shared")]
        self.assertEqual(chat["metadata"]["namespace"], "apps")
        self.assertEqual(chat["spec"]["devices"]["config"][0]["opaque"][
            "parameters"]["sharing"],
            {"strategy": "MPS",
             "mpsConfig": {"defaultActiveThreadPercentage": 25,
                           "defaultPinnedDeviceMemoryLimit": "5120Mi"}})
        embed = docs[("ResourceClaim", "embed-shared-gpu-shared")]
        self.assertNotIn("config", embed["spec"]["devices"])
        self.assertIn(("ResourceClaimTemplate", "jobs-shared-gpu"), docs)
        with open(os.path.join(out, "pod-patches.yaml"),
                  encoding="utf-8") as f:
            patches = f.read()
        self.assertIn("resourceClaimName: chat-mps-gpu-shared", patches)
        self.assertIn("resourceClaimTemplateName: jobs-shared-gpu", patches)


class DraEmitQuotingTest(TempDirTestCase):

    def test_names_that_read_as_other_types_stay_strings(self):
        # A pool `true`, a class `null`, namespaces `yes` and `0x1f`, a
        # selector value `on`: YAML 1.1 would read them as a bool, null, a
        # bool, an int and a bool.
        scenario = self.write("types.yaml", TYPES)
        out = self.path("types")
        result = run_raw("emit", "k8s", "--scenario", scenario, "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        DraEmitTest.check_dir(self, out, scenario)
        docs = load_docs(os.path.join(out, "dra-objects.yaml"))
        self.assertEqual(
            sorted((d["metadata"]["namespace"], d["metadata"]["name"])
                   for d in docs),
            [("0x1f", "null-true-gpu"), ("yes", "null-true-gpu")])
        values = load_docs(os.path.join(out, "dra-driver-values.yaml"))[0]
        term = values["kubeletPlugin"]["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"][
            "nodeSelectorTerms"][0]["matchExpressions"][0]
        self.assertEqual((term["key"], term["values"]),
                         ("gpushare.io/node-pool", ["true"]))


TYPES = """\
name: "types # not a comment"
cluster:
  pools:
    - {name: "true", gpu: A100-80GB, nodes: 1, devices: dra,
       match_labels: {"example.com/k": "on"}}
workload:
  classes:
    - {name: "null", class: batch, tenants: ["yes", "0x1f"], count: 6,
       gpus: 1}
"""


def skip_until_the_reader_reads_dra(test, result):
    """Skips while the scenario reader refuses the pool key `dra:` (it is
    read from engineer A's branch dra-A on; then these cases run)."""
    if result.returncode == 2 and b"unknown key 'dra'" in result.stderr:
        test.skipTest("the scenario reader does not read the pool key dra: "
                      "yet (branch dra-A)")


def load_docs_text(text):
    return [d for d in yaml.safe_load_all(text) if d is not None]


MIXED = """\
name: mixed
cluster:
  pools:
    - {name: dra, gpu: A100-80GB, nodes: 1, devices: dra}
    - name: plugin
      gpu: A100-80GB
      nodes: 1
      sharing: {scheme: time-slicing, replicas: 2}
workload:
  classes:
    - {name: a, class: batch, count: 1}
"""

SHARES = """\
name: shares
platform: {dra_driver: {chart_version: 0.5.0-dev-95932046}}
cluster:
  pools:
    - name: shared
      gpu: A100-80GB
      nodes: 1
      devices: dra
      sharing: {scheme: time-slicing, replicas: 4}
      dra: {consumable_shares: memory, time_slicing_interval: Short}
workload:
  classes:
    - name: nb
      class: batch
      tenants: [team-a]
      count: 4
      gpus: 0.25
      gpu_memory_mib: 12000
      node_selector: {gpushare.io/node-pool: shared}
"""

DIFFERING_SHARES = """\
name: differ
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1, devices: dra,
       sharing: {scheme: time-slicing, replicas: 4},
       dra: {consumable_shares: memory}}
    - {name: b, gpu: A100-80GB, nodes: 1, devices: dra,
       sharing: {scheme: time-slicing, replicas: 4},
       dra: {consumable_shares: unlimited}}
workload:
  classes:
    - {name: a, class: batch, count: 1}
"""

UNLIMITED_BESIDE_EXCLUSIVE = """\
name: unlimited
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1, devices: dra,
       sharing: {scheme: time-slicing, replicas: 4},
       dra: {consumable_shares: unlimited}}
    - {name: b, gpu: A100-80GB, nodes: 1, devices: dra}
workload:
  classes:
    - {name: a, class: batch, count: 1}
"""

if __name__ == "__main__":
    main()
