// apply.sh and rollback.sh (emit/apply_script.h), the pinned Helm releases
// (emit/helm_release.h) and the objects of a manifest
// (emit/kube_object_ref.h); tests/cluster_change_test.py runs the scripts.

#include "gpushare/emit/apply_script.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/k8s_config.h"
#include "gpushare/emit/kube_object_ref.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

using emit_test::TestCatalog;

std::string FileOf(const std::vector<EmittedFile>& files,
                   const std::string& path) {
  for (const EmittedFile& f : files) {
    if (f.path == path) return f.text;
  }
  return "";
}

size_t Find(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what << "\nin:\n" << text;
  return at;
}

TEST(HelmReleaseTest, DefaultsAndThePlatformsOverrides) {
  PlatformSpec platform;
  const HelmRelease op = GpuOperatorRelease(platform);
  EXPECT_EQ(op.release, "gpu-operator");
  EXPECT_EQ(op.namespace_name, "gpu-operator");
  EXPECT_EQ(op.version, kGpuOperatorChartVersion);
  EXPECT_EQ(HelmChartArguments(op),
            "gpu-operator --repo https://helm.ngc.nvidia.com/nvidia -n "
            "gpu-operator --version v26.7.0");
  EXPECT_EQ(HelmChartArguments(HamiRelease(platform)),
            "hami --repo https://project-hami.github.io/HAMi/ -n kube-system "
            "--version 2.10.0");
  Scenario with_platform;
  with_platform.platform = platform;
  const HelmRelease dra = DraDriverHelmRelease(with_platform);
  EXPECT_TRUE(dra.repo.empty());
  EXPECT_EQ(dra.chart_name, "dra-driver-nvidia-gpu");
  EXPECT_EQ(HelmChartArguments(dra).find("--repo"), std::string::npos);

  platform.hami = {"vgpu", "hami-system", "v2.9.0"};
  platform.gpu_operator.chart_version = "v25.10.1";
  const HelmRelease hami = HamiRelease(platform);
  EXPECT_EQ(hami.release, "vgpu");
  EXPECT_EQ(hami.namespace_name, "hami-system");
  EXPECT_EQ(hami.version, "v2.9.0");
  EXPECT_EQ(hami.chart, "hami");
  EXPECT_EQ(GpuOperatorRelease(platform).version, "v25.10.1");
  EXPECT_EQ(GpuOperatorRelease(platform).release, "gpu-operator");
}

TEST(KubeObjectRefTest, EveryDocumentByKindAndName) {
  const std::vector<KubeObjectRef> objects = KubeObjectsOf(
      "# a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
      "  name: a\n  namespace: gpu-operator\n---\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
      "metadata: {name: team-a}\nspec: {}\n",
      "f.yaml");
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[0],
            (KubeObjectRef{"v1", "ConfigMap", "a", "gpu-operator"}));
  EXPECT_EQ(KubectlResource(objects[0]), "configmap");
  EXPECT_EQ(objects[1].namespace_name, "");
  EXPECT_EQ(KubectlResource(objects[1]), "clusterqueue.kueue.x-k8s.io");
  EXPECT_THROW(KubeObjectsOf("apiVersion: v1\nkind: ConfigMap\n", "f.yaml"),
               InputError);
  EXPECT_THROW(KubeObjectsOf("a: [", "f.yaml"), InputError);
}

ClusterChange TwoStepChange() {
  ClusterChange change;
  change.scenario_name = "it's";
  ApplyStep map;
  map.title = "the map";
  map.file = "device-plugin-config.yaml";
  map.objects = {{"v1", "ConfigMap", "dp", "gpu-operator"},
                 {"resource.k8s.io/v1", "DeviceClass", "x.nvidia.com", ""}};
  map.device_plugin_config = true;
  change.steps.push_back(map);
  ApplyStep values;
  values.kind = ApplyStep::Kind::kHelmUpgrade;
  values.title = "the values";
  values.file = "gpu-operator-values.yaml";
  values.release = GpuOperatorRelease({});
  change.steps.push_back(values);
  ApplyStep nodes;
  nodes.kind = ApplyStep::Kind::kNodeSetup;
  nodes.title = "the nodes";
  change.steps.push_back(nodes);
  ApplyStep restart;
  restart.kind = ApplyStep::Kind::kRestartDevicePlugin;
  restart.title = "the restart";
  restart.release = GpuOperatorRelease({});
  change.steps.push_back(restart);
  ApplyStep hami;
  hami.kind = ApplyStep::Kind::kHelmUninstall;
  hami.title = "no HAMi";
  hami.release = HamiRelease({});
  hami.wait_for_scheduler = kHamiSchedulerName;
  change.steps.push_back(hami);
  return change;
}

// Checks, then the save (once), then the steps in order.
TEST(ApplyScriptTest, ChecksSavesOnceThenAppliesInOrder) {
  const std::string s = ApplyScript(TwoStepChange());
  EXPECT_EQ(s.rfind("#!/bin/sh\n# Applies scenario 'it's' to", 0), 0u);
  const size_t check =
      Find(s,
           "check_release gpu-operator gpu-operator gpu-operator v26.7.0 'the "
           "GPU Operator' gpu_operator upgrade\n");
  const size_t check_hami =
      Find(s,
           "check_release hami kube-system hami 2.10.0 'HAMi' hami "
           "uninstall\n");
  const size_t dry_nodes = Find(s, "out=$(sh node-setup.sh --dry-run 2>&1)");
  const size_t once = Find(s, "if [ -f before/saved ]; then");
  const size_t save_map =
      Find(s, "  save_object 01-configmap-dp configmap dp 'gpu-operator'\n");
  const size_t save_class =
      Find(s,
           "  save_object 02-deviceclass-x.nvidia.com "
           "deviceclass.resource.k8s.io x.nvidia.com ''\n");
  const size_t save_release =
      Find(s, "  save_release gpu-operator gpu-operator gpu-operator\n");
  Find(s, "  save_release hami hami kube-system\n");
  const size_t saved = Find(s, "    : > before/saved\n");
  const size_t compare = Find(
      s,
      "mark_if_data_changes configmap dp 'gpu-operator' "
      "device-plugin-config.yaml\nkube apply -f device-plugin-config.yaml\n");
  const size_t upgrade =
      Find(s,
           "helm_apply gpu-operator gpu-operator gpu-operator "
           "gpu-operator-values.yaml gpu-operator --repo "
           "https://helm.ngc.nvidia.com/nvidia -n gpu-operator --version "
           "v26.7.0\n");
  const size_t nodes = Find(s, "\nsh node-setup.sh $dry_run\n");
  const size_t restart = Find(s,
                              "\nrestart_device_plugin gpu-operator "
                              "nvidia-device-plugin-daemonset\n");
  const size_t remove =
      Find(s, "\nhelm_remove hami kube-system 'hami-scheduler' 'HAMi'\n");
  EXPECT_LT(check, check_hami);
  EXPECT_LT(check_hami, dry_nodes);
  EXPECT_LT(dry_nodes, once);
  EXPECT_LT(once, save_map);
  EXPECT_LT(save_map, save_class);
  EXPECT_LT(save_class, save_release);
  EXPECT_LT(save_release, saved);
  EXPECT_LT(saved, compare);
  EXPECT_LT(compare, upgrade);
  EXPECT_LT(upgrade, nodes);
  EXPECT_LT(nodes, restart);
  EXPECT_LT(restart, remove);
  // The release is upgraded with the release's values kept, installed at
  // the pinned version where it is missing, uninstalled keeping history.
  Find(s,
       "helm upgrade \"$rel\" \"$@\" --reuse-values -f \"$file\" "
       "$helm_dry");
  Find(s,
       "helm upgrade --install \"$rel\" \"$@\" --create-namespace -f "
       "\"$file\" $helm_dry");
  Find(s, "helm uninstall \"$1\" -n \"$2\" --keep-history $helm_undo_dry");
  // No helm command in it without the pinned version.
  std::istringstream lines(s);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("helm_apply ", 0) == 0) {
      EXPECT_NE(line.find(" --version "), std::string::npos) << line;
    }
  }
}

TEST(ApplyScriptTest, RollbackUndoesInReverseThenTheNodes) {
  const std::string s = RollbackAllScript(TwoStepChange(), "");
  const size_t hami = Find(s, "  restore_release hami hami kube-system\n");
  const size_t op =
      Find(s, "  restore_release gpu-operator gpu-operator gpu-operator\n");
  const size_t device_class =
      Find(s,
           "  restore_object 02-deviceclass-x.nvidia.com "
           "deviceclass.resource.k8s.io x.nvidia.com ''\n");
  const size_t map =
      Find(s,
           "  restore_object 01-configmap-dp configmap dp 'gpu-operator'\n"
           "  if [ -n \"$restored\" ]; then mark_restart; fi\n");
  const size_t nodes = Find(s, "\nsh node-rollback.sh $dry_run\n");
  const size_t restart = Find(s,
                              "\nrestart_device_plugin gpu-operator "
                              "nvidia-device-plugin-daemonset\n");
  EXPECT_LT(hami, op);
  EXPECT_LT(op, device_class);
  EXPECT_LT(device_class, map);
  EXPECT_LT(map, nodes);
  EXPECT_LT(nodes, restart);
  Find(s,
       "helm rollback \"$2\" \"$saved_revision\" -n \"$3\" "
       "$helm_undo_dry");
  Find(s, "kube replace -f \"$f.yaml\"");
  EXPECT_EQ(s.find("node-setup.sh"), std::string::npos);
  EXPECT_EQ(s.find("\nfail "), std::string::npos);

  const std::string unknown =
      RollbackAllScript(TwoStepChange(), "pool p's nodes are not known");
  EXPECT_EQ(unknown.find("sh node-rollback.sh"), std::string::npos);
  const size_t end =
      Find(unknown, "\nfail 'pool p'\\''s nodes are not known'\n");
  EXPECT_LT(Find(unknown, "\nrestart_device_plugin "), end);
}

TEST(ApplyScriptTest, BadArgumentsAndNamesAreQuoted) {
  ClusterChange change = TwoStepChange();
  change.scenario_name = "a\nrm -rf /";
  const std::string s = ApplyScript(change);
  EXPECT_EQ(s.find("\nrm -rf /"), std::string::npos);
  Find(s, "  *) echo 'usage: sh apply.sh [--dry-run]' >&2; exit 2 ;;\n");
  Find(RollbackAllScript(change, ""),
       "echo 'usage: sh rollback.sh [--dry-run]' >&2; exit 2");
}

// The folder: the README runs apply.sh and rollback.sh, every helm command
// pins its chart version, the platform's release, namespace and version
// are the ones used, the ConfigMaps live in the operator's namespace.
TEST(ApplyScriptTest, TheFolderPinsWhatThePlatformSays) {
  const Scenario plan = emit_test::PoolsScenario(
      "p",
      "    - {name: v, gpu: A100-80GB, nodes: 1, sharing: {scheme: hami}}\n"
      "    - {name: m, gpu: A30, nodes: 1,\n"
      "       sharing: {scheme: mig, mig_config: all-1g.6gb}}\n",
      "platform:\n  gpu_operator: {namespace: nvidia, chart_version: "
      "v25.10.1}\n  hami: {release: vgpu}\n");
  const std::vector<EmittedFile> files = K8sConfigFiles(plan, TestCatalog());
  const std::string readme = FileOf(files, "README.md");
  Find(readme, "sh apply.sh --dry-run");
  Find(readme, "sh rollback.sh --dry-run");
  std::istringstream lines(readme);
  int helm = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("helm upgrade") != std::string::npos ||
        line.find("helm install") != std::string::npos) {
      ++helm;
      EXPECT_NE(line.find(" --version "), std::string::npos) << line;
    }
  }
  EXPECT_EQ(helm, 4);
  Find(readme,
       "helm upgrade gpu-operator gpu-operator --repo "
       "https://helm.ngc.nvidia.com/nvidia -n nvidia --version "
       "v25.10.1 --reuse-values -f gpu-operator-values.yaml");
  Find(readme,
       "helm upgrade vgpu hami --repo https://project-hami.github.io/"
       "HAMi/ -n kube-system --version 2.10.0 --reuse-values -f "
       "hami-values.yaml");
  Find(readme,
       "kubectl rollout restart -n nvidia "
       "daemonset/nvidia-device-plugin-daemonset");
  Find(FileOf(files, "device-plugin-config.yaml"), "  namespace: nvidia\n");
  Find(FileOf(files, "mig-parted-config.yaml"), "  namespace: nvidia\n");
  const std::string apply = FileOf(files, "apply.sh");
  Find(apply, "check_release gpu-operator nvidia gpu-operator v25.10.1 ");
  Find(apply,
       "save_object 01-configmap-gpushare-device-plugin-config "
       "configmap gpushare-device-plugin-config 'nvidia'\n");
  // A HAMi pool: HAMi is upgraded, not uninstalled.
  EXPECT_EQ(apply.find("helm_remove vgpu"), std::string::npos);
  // No written pool of today: rollback.sh restores the rest and says so.
  EXPECT_EQ(FileOf(files, "node-rollback.sh"), "");
  Find(FileOf(files, "rollback.sh"),
       "\nfail 'the nodes keep the labels and taints node-setup.sh gave "
       "them: today'\\''s configuration of pool(s) v, m is not known");
  Find(readme,
       "The nodes are not rolled back: today's configuration of "
       "pool(s) v, m is not known");
}

TEST(ApplyScriptTest, NoHamiPoolUninstallsHamiOnceItsPodsAreGone) {
  const Scenario plan =
      emit_test::PoolsScenario("p", "    - {name: t, gpu: L4, nodes: 1}\n");
  const std::vector<EmittedFile> files =
      K8sConfigFiles(plan, TestCatalog(), &plan);
  Find(FileOf(files, "apply.sh"),
       "\nhelm_remove hami kube-system 'hami-scheduler' 'HAMi'\n");
  Find(FileOf(files, "rollback.sh"),
       "  restore_release hami hami "
       "kube-system\n");
  Find(FileOf(files, "README.md"),
       "helm uninstall hami -n kube-system --keep-history");
  EXPECT_NE(FileOf(files, "node-rollback.sh"), "");
}

}  // namespace
}  // namespace gpushare
