#include "gpushare/emit/k8s_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "gpushare/emit/device_plugin_config.h"
#include "gpushare/emit/dra_driver_release.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/dra_objects.h"
#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/hami_values.h"
#include "gpushare/emit/kai_queue_manifests.h"
#include "gpushare/emit/kube_scheduler_config.h"
#include "gpushare/emit/kueue_manifests.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_setup_script.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

// Labels a new node gets without the user: the kubelet's and cloud's
// well-known labels (kubernetes.io/..., topology, instance type), the node
// group's own (EKS, GKE, AKS, Karpenter) and those NVIDIA's GPU Feature
// Discovery and GPU Operator set (nvidia.com/..., feature.node...).
bool SetByTheCluster(const std::string& key) {
  const std::string prefix = key.substr(0, key.find('/') + 1);
  static const char* const kClusterDomains[] = {
      "kubernetes.io/", "k8s.io/", "nvidia.com/", "eks.amazonaws.com/",
      "cloud.google.com/", "kubernetes.azure.com/", "karpenter.sh/",
      "karpenter.k8s.aws/"};
  for (const char* s : kClusterDomains) {
    const std::string suffix = s;
    if (prefix.size() >= suffix.size() &&
        prefix.compare(prefix.size() - suffix.size(), suffix.size(),
                       suffix) == 0 &&
        (prefix.size() == suffix.size() ||
         prefix[prefix.size() - suffix.size() - 1] == '.')) {
      return true;
    }
  }
  return false;
}

std::string TaintList(const std::vector<Taint>& taints) {
  std::string out;
  for (const Taint& t : taints) {
    out += fmt::format("{}`{}{}{}:{}`", out.empty() ? "" : ", ", t.key,
                       t.value.empty() ? "" : "=", t.value,
                       TaintEffectName(t.effect));
  }
  return out.empty() ? "none" : out;
}

// The README's section on nodes to provision and to take out: pools that
// have more or fewer nodes than today.
std::string NodeCountChanges(const Scenario& scenario,
                             const std::vector<NodeChange>& changes,
                             const Scenario* today) {
  std::string out;
  for (const NodeChange& c : changes) {
    const NodePoolSpec* pool = FindPoolSpec(&scenario, c.nodes.pool);
    const NodePoolSpec* before = FindPoolSpec(today, c.nodes.pool);
    std::string labels;
    for (const auto& [k, v] : c.target.set) {
      labels += fmt::format("{}`{}={}`", labels.empty() ? "" : ", ", k, v);
    }
    if (!c.target.mig_config.empty()) {
      labels += fmt::format(", `nvidia.com/mig.config={}`", c.target.mig_config);
    }
    int provision = c.nodes.to_provision;
    int remove = 0;
    std::vector<std::string> removed;
    if (c.nodes.by_name() && before != nullptr) {
      std::set<std::string> kept(c.nodes.names.begin(), c.nodes.names.end());
      for (const NodeIdentity& m : before->members) {
        if (kept.count(m.name) == 0) removed.push_back(m.name);
      }
      remove = static_cast<int>(removed.size());
    } else if (!c.nodes.by_name() && before != nullptr) {
      provision = std::max(0, pool->nodes - before->nodes);
      remove = std::max(0, before->nodes - pool->nodes);
    }
    if (provision > 0) {
      // A new node of an imported pool carries what all its nodes share
      // (its node group's label among them) besides the pool's labels.
      std::vector<Taint> taints = pool->new_node_taints;
      for (const Taint& t : c.target.taints) AddTaintOnce(&taints, t);
      for (const auto& [k, v] : pool->new_node_labels) {
        if (c.target.set.count(k) == 0 && !SetByTheCluster(k)) {
          labels += fmt::format(", `{}={}`", k, v);
        }
      }
      const std::string group =
          pool->node_group_label_key.empty()
              ? std::string()
              : fmt::format(" in its node group (`{}={}`)",
                            pool->node_group_label_key,
                            pool->node_group_label_value);
      out += fmt::format(
          "- Pool `{}`: provision {} more node{}{} like its others, "
          "labelled {} and tainted {} (besides what the kubelet, the cloud "
          "and the GPU Operator set){}.\n",
          CommentText(pool->name), provision, provision == 1 ? "" : "s",
          CommentText(group), CommentText(labels),
          CommentText(TaintList(taints)),
          c.nodes.by_name()
              ? ""
              : "; then run node-setup.sh again (it selects them by their "
                "labels)");
    }
    if (remove > 0) {
      std::string which;
      for (const std::string& r : removed) {
        which += (which.empty() ? " " : ", ") + ("`" + CommentText(r) + "`");
      }
      out += fmt::format(
          "- Pool `{}`: take {} node{} out{}: `kubectl drain NODE "
          "--ignore-daemonsets --delete-emptydir-data`, then remove it from "
          "its node group.\n",
          CommentText(pool->name), remove, remove == 1 ? "" : "s",
          which.empty() ? " (any of the pool's)" : ":" + which);
    }
  }
  return out;
}

}  // namespace

std::vector<EmittedFile> K8sConfigFiles(const Scenario& scenario,
                                        const Catalog& catalog,
                                        const Scenario* today) {
  bool gpus = false;
  bool nvidia = false;
  bool mig = false;
  bool hami = false;
  bool dra = false;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    const bool is_hami = p.sharing.sharing == DeviceSharing::kHami;
    const bool is_dra = p.devices == PoolDevices::kDra;
    gpus = true;
    hami = hami || is_hami;
    dra = dra || is_dra;
    nvidia = nvidia || (!is_hami && !is_dra);
    // (Dynamic MIG needs no mig-parted layout: the DRA driver makes it.)
    mig = mig || (p.sharing.mig_enabled && !p.sharing.mig.dynamic);
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
  if (nvidia) {
    add("device-plugin-config.yaml", DevicePluginConfigMap(scenario, catalog),
        "the NVIDIA device plugin's configs per pool (time-slicing, MPS, MIG "
        "strategy), which the GPU Operator's values below name",
        "kubectl apply -f device-plugin-config.yaml");
  }
  if (mig) {
    add("mig-parted-config.yaml", MigPartedConfigMap(scenario, catalog),
        "the MIG layouts for the MIG manager, which the GPU Operator's values "
        "below name",
        "kubectl apply -f mig-parted-config.yaml");
  }
  if (gpus) {
    add("gpu-operator-values.yaml", GpuOperatorValuesYaml(scenario, catalog),
        "the GPU Operator's Helm values: the ConfigMaps above, the MIG "
        "strategy and its DaemonSets' tolerations of the pools' taints",
        "helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator "
        "--reuse-values -f gpu-operator-values.yaml");
  }
  if (hami) {
    add("hami-values.yaml", HamiValuesYaml(scenario, catalog),
        "HAMi's Helm values for the vGPU pools",
        "helm repo add hami-charts https://project-hami.github.io/HAMi/\n   "
        "helm upgrade --install hami hami-charts/hami -n kube-system -f "
        "hami-values.yaml");
  }
  const std::vector<NodeChange> changes =
      NodeChanges(scenario, catalog, today);
  // DRA pools today and none in the scenario: the driver's kubelet plugin
  // would stay beside the device plugin node-setup.sh turns back on.
  const bool dra_today =
      today != nullptr &&
      std::any_of(today->pools.begin(), today->pools.end(),
                  [](const NodePoolSpec& p) {
                    return p.devices == PoolDevices::kDra &&
                           p.gpus_per_node > 0;
                  });
  // NVIDIA's DRA driver's release: the scenario's, completed with what
  // today's import read, else today's (emit/dra_driver_release.h).
  const Scenario dra_scenario = WithTodaysPlatform(scenario, today);
  const HelmReleaseSpec dra_release =
      DraDriverRelease(dra || today == nullptr ? dra_scenario : *today);
  if (dra_today && !dra) {
    steps += fmt::format(
        "{}. No pool hands out its GPUs through DRA any more: uninstall "
        "NVIDIA's DRA driver before the device plugin returns to its "
        "nodes\n\n   ```sh\n   helm uninstall {} -n {}\n   ```\n\n",
        ++step, ShellWord(dra_release.release),
        ShellWord(dra_release.namespace_name));
  }
  add("node-setup.sh", NodeSetupScript(scenario, catalog, today),
      std::string("labels and taints each pool's nodes, which selects "
                  "their device-plugin config, MIG layout and HAMi") +
          (dra ? " (and turns the GPU Operator's device plugin off on the "
                 "DRA pools' nodes, where the DRA driver's kubelet plugin "
                 "runs)"
               : "") +
          "; a node whose MIG layout "
      "changes is cordoned and drained first and uncordoned once the MIG "
      "manager reports success. Check it with --dry-run first",
      "sh node-setup.sh --dry-run\n   sh node-setup.sh");
  if (dra) {
    const std::string repo_add = DraDriverRepoAdd(dra_release.chart_version);
    add("dra-driver-values.yaml", DraDriverValuesYaml(dra_scenario),
        fmt::format(
            "the Helm values of NVIDIA's DRA driver for the DRA pools: its "
            "kubelet plugin on their nodes (by the pool label node-setup.sh "
            "sets), the alpha feature gates they need, chart version {} "
            "pinned, release `{}` in namespace `{}`. The file's header says "
            "the Kubernetes version and feature gates it needs; the GPU "
            "Operator's toolkit must run on those nodes",
            CommentText(dra_release.chart_version),
            CommentText(dra_release.release),
            CommentText(dra_release.namespace_name)),
        (repo_add.empty() ? "" : repo_add + "\n   ") +
            DraDriverHelmUpgrade(dra_scenario, "dra-driver-values.yaml"));
    std::string class_changes;
    for (const std::string& c :
         DraDeviceClassChanges(dra_scenario, catalog)) {
      class_changes += " " + CommentText(c) + ".";
    }
    add("dra-objects.yaml", DraObjectsYaml(dra_scenario, catalog),
        "the DeviceClasses of the MIG profiles the DRA pools' pods ask and, "
        "per tenant class and namespace, the ResourceClaimTemplates the pod "
        "patches name." + class_changes,
        "kubectl apply -f dra-objects.yaml");
  }
  if (nvidia) {
    steps += fmt::format(
        "{}. The GPU Operator does not watch the device plugin's ConfigMap: "
        "after a change to it, restart the plugin (running pods keep "
        "running)\n\n   ```sh\n   kubectl rollout restart -n gpu-operator "
        "daemonset/nvidia-device-plugin-daemonset\n   ```\n\n",
        ++step);
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
  std::string save =
      "kubectl get configmap -n gpu-operator -o yaml > "
      "before-gpu-operator-configmaps.yaml\nhelm get values gpu-operator "
      "-n gpu-operator -o yaml > before-gpu-operator-values.yaml";
  if (hami) {
    save += "\nhelm get values hami -n kube-system -o yaml > "
            "before-hami-values.yaml   # if HAMi runs today";
  }
  if (dra || dra_today) {
    save += fmt::format(
        "\nhelm get values {} -n {} -o yaml > before-dra-driver-values.yaml"
        "   # if the DRA driver runs today",
        ShellWord(dra_release.release), ShellWord(dra_release.namespace_name));
  }
  std::string readme = fmt::format(
      "# Kubernetes configuration of scenario '{}'\n\n"
      "Written by gpushare-sim: the node pools as the simulation ran them, "
      "for NVIDIA's GPU Operator (device plugin, MIG manager) and HAMi, as "
      "a change from the cluster's configuration today. Every field and its "
      "upstream source: docs/emit.md of gpushare-sim.\n\n"
      "## Save today's configuration\n\n```sh\n{}\n```\n\n"
      "## Apply, in this order\n\n{}",
      CommentText(scenario.name), save, steps);
  const std::string counts = NodeCountChanges(scenario, changes, today);
  if (!counts.empty()) {
    readme += "## Nodes to provision or take out\n\n" + counts + "\n";
  }
  const std::optional<std::string> rollback =
      RollbackScript(scenario, catalog, today);
  readme += "## Roll back\n\n";
  if (rollback) {
    files.push_back({"rollback.sh", *rollback});
    readme +=
        "Restore the saved ConfigMaps and Helm values, then the nodes' "
        "labels, taints and MIG layouts (rollback.sh cordons, drains and "
        "waits as node-setup.sh does):\n\n```sh\n"
        "kubectl apply -f before-gpu-operator-configmaps.yaml\n"
        "helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator "
        "--reuse-values -f before-gpu-operator-values.yaml\n" +
        std::string(hami ? "helm upgrade hami hami-charts/hami -n kube-system "
                           "-f before-hami-values.yaml   # or helm uninstall "
                           "hami -n kube-system\n"
                         : "") +
        (dra || dra_today
             ? DraDriverHelmUpgrade(dra || today == nullptr ? dra_scenario
                                                          : *today,
                                    "before-dra-driver-values.yaml") +
                   "   # or helm uninstall " + ShellWord(dra_release.release) +
                   " -n " + ShellWord(dra_release.namespace_name) + "\n"
             : std::string()) +
        "sh rollback.sh --dry-run\nsh rollback.sh\n```\n";
  } else {
    readme +=
        "No rollback.sh: today's configuration of a written pool is not "
        "known. Pass the scenario of the cluster as it runs today (`emit k8s "
        "--from TODAY.yaml`; `plan --out` uses the planned scenario) to get "
        "one.\n";
  }
  files.insert(files.begin(), {"README.md", readme});
  return files;
}

}  // namespace gpushare
