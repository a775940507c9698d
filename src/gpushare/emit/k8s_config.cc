#include "gpushare/emit/k8s_config.h"

#include <fmt/format.h>

#include "gpushare/emit/device_plugin_config.h"
#include "gpushare/emit/hami_values.h"
#include "gpushare/emit/kai_queue_manifests.h"
#include "gpushare/emit/kube_scheduler_config.h"
#include "gpushare/emit/kueue_manifests.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_setup_script.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {

std::vector<EmittedFile> K8sConfigFiles(const Scenario& scenario,
                                        const Catalog& catalog) {
  bool nvidia = false;
  bool mig = false;
  bool hami = false;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    const bool is_hami = p.sharing.sharing == DeviceSharing::kHami;
    hami = hami || is_hami;
    nvidia = nvidia || !is_hami;
    mig = mig || p.sharing.mig_enabled;
  }
  std::vector<EmittedFile> files;
  std::string steps;
  int step = 0;
  auto add = [&](std::string path, std::string text, std::string what,
                 std::string command) {
    steps += fmt::format("{}. `{}` — {}\n\n   ```sh\n   {}\n   ```\n\n", ++step,
                         path, what, command);
    files.push_back({std::move(path), std::move(text)});
  };
  add("node-setup.sh", NodeSetupScript(scenario, catalog),
      "labels and taints every node as the simulation has it, and selects "
      "its device-plugin, MIG and HAMi configuration",
      "sh node-setup.sh");
  if (nvidia) {
    add("device-plugin-config.yaml", DevicePluginConfigMap(scenario, catalog),
        "the NVIDIA device plugin's configs per pool (time-slicing, MPS, MIG "
        "strategy); then patch the ClusterPolicy as its header says. The GPU "
        "Operator does not watch this ConfigMap: after a change, restart the "
        "plugin",
        "kubectl apply -f device-plugin-config.yaml\n   kubectl rollout "
        "restart -n gpu-operator daemonset/nvidia-device-plugin-daemonset");
  }
  if (mig) {
    add("mig-parted-config.yaml", MigPartedConfigMap(scenario, catalog),
        "the MIG layouts for the MIG manager; then patch the ClusterPolicy "
        "(spec.migManager.config.name, spec.mig.strategy) as its header says "
        "and wait for nvidia.com/mig.config.state=success on the MIG nodes",
        "kubectl apply -f mig-parted-config.yaml");
  }
  if (hami) {
    add("hami-values.yaml", HamiValuesYaml(scenario, catalog),
        "HAMi's Helm values for the vGPU pools",
        "helm repo add hami-charts https://project-hami.github.io/HAMi/\n   "
        "helm upgrade --install hami hami-charts/hami -n kube-system -f "
        "hami-values.yaml");
  }
  if (NeedsKubeSchedulerConfig(scenario.scheduler)) {
    add("kube-scheduler-config.yaml",
        KubeSchedulerConfigYaml(scenario.scheduler, hami),
        "the scheduler profile's scoring (NodeResourcesFit scoringStrategy)",
        "kube-scheduler --config kube-scheduler-config.yaml   # or your "
        "distribution's way to set it");
  }
  if (scenario.queues.enabled()) {
    add("kueue-queues.yaml", KueueManifestsYaml(scenario),
        "Kueue's ResourceFlavors, ClusterQueues and LocalQueues (install "
        "Kueue first); pods name their LocalQueue with the "
        "kueue.x-k8s.io/queue-name label the pod patches set",
        "kubectl apply --server-side -f kueue-queues.yaml");
  }
  if (scenario.kai_queues.enabled()) {
    add("kai-queues.yaml", KaiQueueManifestsYaml(scenario),
        "KAI-Scheduler's Queues (install KAI-Scheduler first); pods name "
        "their leaf queue with the kai.scheduler/queue label and "
        "schedulerName kai-scheduler, which the pod patches set",
        "kubectl apply -f kai-queues.yaml");
  }
  add("pod-patches.yaml", PodTemplatePatchesYaml(scenario, catalog),
      "per tenant class, what its workloads' pod templates request; patch "
      "each workload with the document of its class",
      "kubectl patch deployment NAME --type strategic --patch-file PATCH.yaml");
  std::string readme = fmt::format(
      "# Kubernetes configuration of scenario '{}'\n\n"
      "Written by `gpushare-sim emit k8s`: the node pools as the simulation "
      "ran them, for NVIDIA's GPU Operator (device plugin, MIG manager) and "
      "HAMi. Every field and its upstream source: docs/emit.md of "
      "gpushare-sim. Apply in this order:\n\n{}",
      CommentText(scenario.name), steps);
  files.insert(files.begin(), {"README.md", readme});
  return files;
}

}  // namespace gpushare
