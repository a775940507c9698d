"""End-to-end: the pod patches of a change from today (`emit k8s --from
TODAY`, `plan --out`) applied, as `kubectl patch --type strategic` applies
them, to the pod templates the workloads have today (docs/emit.md, "What
the pod patches remove" and "HAMi's webhook").

Today the cluster runs three HAMi pools, a MIG pool, a DRA pool and a
renamed time-sliced pool, one class on each, and each workload's template
is today's patch of its class applied to a plain Deployment. The plan moves
one class from HAMi to MIG, one from HAMi to time-slicing, the MIG class to
whole GPUs, the DRA class to the device plugin, and keeps two. Checks, per
class: today's template really asks today's scheme; the planned patch
applied to it asks exactly the planned GPU resources in limits and requests
(none of today's left), the planned scheduler, no DRA claim where the class
leaves DRA, and is the same template the patch makes of a plain Deployment
(so the result does not depend on the scheme the workload had); a pod made
from it passes HAMi's admission webhook (a model of Project-HAMi/HAMi
pkg/scheduler/webhook.go Handle and the chart's objectSelector) with the
scheduler the plan needs, so no class is left to hami-scheduler on a pool
HAMi does not run. The applier is tests/strategic_merge.py (kubernetes/
apimachinery strategicpatch), checked here on upstream's rules first.

Run as: python3 tests/hami_move_test.py --binary /path/to/gpushare-sim
"""

import copy
import os
import re

import yaml

from cli_harness import TempDirTestCase, main, run
from strategic_merge import apply, normalize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

POOL = "{{name: {name}, gpu: {gpu}, nodes: 1, {spec}}}"
HAMI = "sharing: {scheme: hami}"
MIG = "sharing: {scheme: mig, mig_strategy: mixed, mig_config: all-1g.10gb}"
EXCLUSIVE = "sharing: {scheme: exclusive}"
SLICED = "sharing: {scheme: time-slicing, replicas: 4}"
RENAMED = ("sharing: {scheme: time-slicing, replicas: 4, "
           "rename_by_default: true}")
DRA = "devices: dra, sharing: {scheme: exclusive}"

# pool: (GPU, today's scheme, the plan's scheme); one class `<pool>-jobs`
# per pool, selecting it.
POOLS = {
    "vgpu-a": ("A100-80GB", HAMI, MIG),
    "vgpu-b": ("A100-80GB", HAMI, SLICED),
    "vgpu-c": ("L4", HAMI, HAMI),
    "mig": ("A100-80GB", MIG, EXCLUSIVE),
    "dra": ("A100-80GB", DRA, EXCLUSIVE),
    "ts": ("L4", RENAMED, RENAMED),
}

# The GPU resources each class's template asks after the plan: 8 GB and
# 30 % of the SMs of a quarter GPU.
PLANNED = {
    "vgpu-a-jobs": {"nvidia.com/mig-1g.10gb": 1},
    "vgpu-b-jobs": {"nvidia.com/gpu": 1},
    "vgpu-c-jobs": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 8000,
                    "nvidia.com/gpucores": 30},
    "mig-jobs": {"nvidia.com/gpu": 1},
    "dra-jobs": {"nvidia.com/gpu": 1},
    "ts-jobs": {"nvidia.com/gpu.shared": 1},
}
# Today's, for the check that the test starts from them.
TODAY = {
    "vgpu-a-jobs": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 8000,
                    "nvidia.com/gpucores": 30},
    "vgpu-b-jobs": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 8000,
                    "nvidia.com/gpucores": 30},
    "vgpu-c-jobs": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 8000,
                    "nvidia.com/gpucores": 30},
    "mig-jobs": {"nvidia.com/mig-1g.10gb": 1},
    "dra-jobs": {},
    "ts-jobs": {"nvidia.com/gpu.shared": 1},
}
CPU_MEMORY = {"cpu": "2", "memory": "4Gi"}


def scenario(name, which):
    pools = "\n".join(
        "    - " + POOL.format(name=pool, gpu=gpu, spec=specs[which])
        for pool, (gpu, *specs) in POOLS.items())
    classes = "\n".join(
        f"    - {{name: {pool}-jobs, class: batch, count: 4, gpus: 0.25,\n"
        f"       gpu_memory_mib: 8000, sm_demand: 0.3,\n"
        f"       node_selector: {{gpushare.io/node-pool: {pool}}}}}"
        for pool in POOLS)
    return (f"name: {name}\nseed: 1\ncluster:\n  pools:\n{pools}\n"
            f"workload:\n  classes:\n{classes}\n")


def deployment(name):
    """A plain Deployment of one container `main` (the patches' name)."""
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": {"app": name}}, "template": {
            "metadata": {"labels": {"app": name}},
            "spec": {"containers": [{
                "name": "main", "image": "registry.example/app:1",
                "resources": {"limits": dict(CPU_MEMORY),
                              "requests": dict(CPU_MEMORY)}}]}}},
    }


CLASS_LINE = re.compile(
    r"^# class (\S+) \(\w+\) on pool (\S+) \((.+)\): \d+ of its", re.M)


def patches(text):
    """{class: (pool, scheme, patch)} of a pod-patches.yaml."""
    out = {}
    for doc in text.split("\n---\n")[1:]:
        m = CLASS_LINE.search(doc)
        assert m, doc
        assert m.group(1) not in out, f"two patches of {m.group(1)}"
        out[m.group(1)] = (m.group(2), m.group(3), yaml.safe_load(doc))
    return out


def gpu_resources(resource_list):
    return {k: v for k, v in (resource_list or {}).items()
            if k not in ("cpu", "memory")}


def hami_webhook_scheduler(template, force_overwrite_default=True):
    """The schedulerName a pod made from `template` has after HAMi's
    admission webhook (chart 2.10 defaults): its objectSelector skips pods
    labelled hami.io/webhook=ignore (charts/hami/templates/scheduler/
    webhook.yaml); Handle keeps a scheduler that is neither default-scheduler
    (with forceOverwriteDefaultScheduler) nor its own, and sends a pod
    whose container limits name nvidia.com/gpu — or gpumem, gpucores,
    gpumem-percentage, which get the default count of 1 — to
    hami-scheduler (pkg/scheduler/webhook.go Handle; pkg/device/nvidia/
    device.go mutateContainerResource)."""
    labels = template.get("metadata", {}).get("labels", {})
    spec = template["spec"]
    name = spec.get("schedulerName", "")
    if labels.get("hami.io/webhook") == "ignore":
        return name
    if name and (name != "default-scheduler" or not force_overwrite_default) \
            and name != "hami-scheduler":
        return name
    for c in spec["containers"]:
        limits = c.get("resources", {}).get("limits", {})
        if any(k in limits for k in (
                "nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpucores",
                "nvidia.com/gpumem-percentage")):
            return "hami-scheduler"
    return name or "default-scheduler"


class StrategicMergeRulesTest(TempDirTestCase):
    """The applier on upstream's rules (apimachinery strategicpatch
    patch.go): so that the checks below can fail."""

    def test_rules(self):
        orig = {"spec": {"template": {"spec": {
            "schedulerName": "hami-scheduler",
            "tolerations": [{"key": "a", "operator": "Exists"}],
            "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "t"},
                               {"name": "scratch", "resourceClaimName": "s"}],
            "containers": [
                {"name": "main", "resources": {
                    "limits": {"cpu": "1", "nvidia.com/gpu": 1},
                    "claims": [{"name": "gpu"}, {"name": "scratch"}]}},
                {"name": "side", "image": "x"}]}}}}
        # Maps merge key by key: a patch that only adds keeps the old key.
        added = apply(orig, {"spec": {"template": {"spec": {"containers": [
            {"name": "main", "resources": {"limits": {
                "nvidia.com/mig-1g.10gb": 1}}}]}}}})
        main = added["spec"]["template"]["spec"]["containers"][0]
        self.assertEqual(main["resources"]["limits"], {
            "cpu": "1", "nvidia.com/gpu": 1, "nvidia.com/mig-1g.10gb": 1})
        self.assertEqual(added["spec"]["template"]["spec"]["schedulerName"],
                         "hami-scheduler")
        self.assertEqual(len(added["spec"]["template"]["spec"]["containers"]),
                         2)
        # null deletes; $patch: delete removes the list element by its
        # merge key; a list without a patch strategy is replaced.
        out = apply(orig, {"spec": {"template": {"spec": {
            "tolerations": [{"key": "b", "operator": "Exists"}],
            "resourceClaims": [{"name": "gpu", "$patch": "delete"}],
            "containers": [{"name": "main", "resources": {
                "limits": {"nvidia.com/gpu": None, "nvidia.com/x": None},
                "claims": [{"name": "scratch"}]}}]}}}})
        spec = out["spec"]["template"]["spec"]
        self.assertEqual(spec["tolerations"], [{"key": "b",
                                               "operator": "Exists"}])
        self.assertEqual(spec["resourceClaims"],
                         [{"name": "scratch", "resourceClaimName": "s"}])
        self.assertEqual(spec["containers"][0]["resources"],
                         {"limits": {"cpu": "1"},
                          "claims": [{"name": "scratch"}]})
        # A key the original lacks takes the patch value without its nulls
        # and directives.
        fresh = apply({"spec": {}}, {"spec": {
            "nodeSelector": {"a": "b", "c": None},
            "resourceClaims": [{"name": "gpu", "$patch": "delete"}]}})
        self.assertEqual(normalize(fresh), {"spec": {"nodeSelector":
                                                     {"a": "b"}}})
        # The originals are left as they were.
        self.assertEqual(
            orig["spec"]["template"]["spec"]["containers"][0]["resources"]
            ["limits"], {"cpu": "1", "nvidia.com/gpu": 1})


class HamiMoveTest(TempDirTestCase):

    def emit(self):
        """(today's patches, the plan's patches from emit k8s --from)."""
        today = self.write("today.yaml", scenario("today", 0))
        plan = self.write("plan.yaml", scenario("plan", 1))
        code, today_text, err = run("emit", "pod-patches", "--scenario",
                                    today)
        self.assertEqual(code, 0, err)
        out = self.path("k8s")
        code, _, err = run("emit", "k8s", "--scenario", plan, "--from", today,
                           "--out", out)
        self.assertEqual(code, 0, err)
        with open(os.path.join(out, "pod-patches.yaml"),
                  encoding="utf-8") as f:
            plan_text = f.read()
        return patches(today_text), patches(plan_text), plan_text

    def test_patches_replace_todays_scheme(self):
        before, after, text = self.emit()
        self.assertEqual(sorted(after), sorted(PLANNED), text)
        for cls, want in PLANNED.items():
            with self.subTest(cls=cls):
                base = deployment(cls)
                today = apply(base, before[cls][2])
                tspec = today["spec"]["template"]["spec"]
                limits = tspec["containers"][0]["resources"]["limits"]
                # Today's template asks today's scheme.
                self.assertEqual(gpu_resources(limits), TODAY[cls])
                if cls == "dra-jobs":
                    self.assertEqual(tspec["resourceClaims"][0]["name"], "gpu")
                    self.assertEqual(
                        tspec["containers"][0]["resources"]["claims"],
                        [{"name": "gpu"}])

                moved = normalize(apply(today, after[cls][2]))
                # The same template as the patch makes of a plain workload.
                self.assertEqual(moved, normalize(apply(base, after[cls][2])))
                spec = moved["spec"]["template"]["spec"]
                res = spec["containers"][0]["resources"]
                self.assertEqual(gpu_resources(res["limits"]), want)
                self.assertEqual(gpu_resources(res.get("requests")), want)
                # cpu and memory as the workload has them.
                self.assertEqual(res["limits"]["cpu"], "2")
                self.assertEqual(res["requests"]["memory"], "4Gi")
                self.assertNotIn("claims", res)
                self.assertNotIn("resourceClaims", spec)
                self.assertEqual(spec["containers"][0]["image"],
                                 "registry.example/app:1")
                self.assertEqual(spec["nodeSelector"],
                                 {"gpushare.io/node-pool": cls[:-5]})
                labels = moved["spec"]["template"]["metadata"]["labels"]
                self.assertEqual(labels["app"], cls)
                hami = after[cls][1] == "vGPU (HAMi)"
                scheduler = "hami-scheduler" if hami else "default-scheduler"
                self.assertEqual(spec["schedulerName"], scheduler)
                self.assertEqual(labels.get("hami.io/webhook"),
                                 None if hami else "ignore")
                # A pod made from it keeps that scheduler through HAMi's
                # webhook.
                self.assertEqual(
                    hami_webhook_scheduler(moved["spec"]["template"]),
                    scheduler)
        self.assertIn("# hami.io/webhook: ignore keeps HAMi's admission "
                      "webhook", text)

    def test_old_patches_strand_pods(self):
        """The failure the patches fix, reproduced with this test's tools:
        a patch that only sets the planned limits (as the patches did
        before) leaves HAMi's keys beside the MIG profile, and its pods
        go to hami-scheduler."""
        before, after, _ = self.emit()
        today = apply(deployment("vgpu-a-jobs"), before["vgpu-a-jobs"][2])
        only_adds = copy.deepcopy(after["vgpu-a-jobs"][2])
        tmpl = only_adds["spec"]["template"]
        del tmpl["metadata"]
        del tmpl["spec"]["schedulerName"]
        res = tmpl["spec"]["containers"][0]["resources"]
        res["limits"] = {k: v for k, v in res["limits"].items()
                         if v is not None}
        del res["requests"]
        moved = apply(today, only_adds)
        limits = moved["spec"]["template"]["spec"]["containers"][0][
            "resources"]["limits"]
        self.assertIn("nvidia.com/gpumem", limits)
        self.assertEqual(hami_webhook_scheduler(moved["spec"]["template"]),
                         "hami-scheduler")
        # The emitted patch of the time-sliced class without its label:
        # HAMi's webhook takes its pods (forceOverwriteDefaultScheduler).
        sliced = apply(deployment("vgpu-b-jobs"), after["vgpu-b-jobs"][2])
        del sliced["spec"]["template"]["metadata"]["labels"]["hami.io/webhook"]
        self.assertEqual(hami_webhook_scheduler(sliced["spec"]["template"]),
                         "hami-scheduler")
        self.assertEqual(hami_webhook_scheduler(
            sliced["spec"]["template"], force_overwrite_default=False),
            "default-scheduler")

    def test_plan_out(self):
        """`plan --out` writes the change from the scenario it planned:
        whatever it chose, every patch applied to today's template gives
        the template it makes of a plain workload, without today's keys
        where the class's scheme changed, and only HAMi pools' pods reach
        hami-scheduler."""
        # HAMi is not among the schemes the plan may choose, so the plan
        # moves every HAMi pool off it (at a tie it keeps today's setting).
        off_hami = "plan:\n  pools:\n" + "".join(
            f"    {pool}: {{schemes: [exclusive, time-slicing, mig]}}\n"
            for pool in POOLS)
        today = self.write("today.yaml", scenario("today", 0) + off_hami)
        out = self.path("plan")
        code, _, err = run("plan", today, "--out", out, "--quiet", "--force",
                           "--seeds", "1")
        self.assertEqual(code, 0, err)
        code, today_text, err = run("emit", "pod-patches", "--scenario",
                                    today)
        self.assertEqual(code, 0, err)
        before = patches(today_text)
        with open(os.path.join(out, "pod-patches.yaml"),
                  encoding="utf-8") as f:
            after = patches(f.read())
        # The plan moves classes off HAMi (the test's point).
        self.assertTrue(any(after[c][1] != before[c][1] and
                            before[c][1] == "vGPU (HAMi)" for c in after))
        for cls, (_, scheme, patch) in after.items():
            with self.subTest(cls=cls, scheme=scheme):
                base = deployment(cls)
                moved = normalize(apply(apply(base, before[cls][2]), patch))
                self.assertEqual(moved, normalize(apply(base, patch)))
                hami = scheme == "vGPU (HAMi)"
                self.assertEqual(
                    hami_webhook_scheduler(moved["spec"]["template"]),
                    "hami-scheduler" if hami else "default-scheduler")


if __name__ == "__main__":
    main()
