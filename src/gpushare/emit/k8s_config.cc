#include "gpushare/emit/k8s_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "gpushare/emit/apply_script.h"
#include "gpushare/emit/autoscaler_files.h"
#include "gpushare/emit/device_plugin_config.h"
#include "gpushare/emit/dra_driver_release.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/dra_objects.h"
#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/hami_values.h"
#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/kai_queue_manifests.h"
#include "gpushare/emit/kube_object_ref.h"
#include "gpushare/emit/kube_scheduler_config.h"
#include "gpushare/emit/kueue_manifests.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_setup_script.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/emit/pool_node_set.h"
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
          "--ignore-daemonsets --delete-emptydir-data` (it refuses pods "
          "without a controller; `--force` deletes them for good), then "
          "remove it from its node group.\n",
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
  const HelmRelease gpu_operator = GpuOperatorRelease(scenario.platform);
  const HelmRelease hami_release = HamiRelease(scenario.platform);
  std::vector<EmittedFile> files;
  std::string steps;
  int step = 0;
  // What apply.sh runs, in README order (emit/apply_script.h).
  ClusterChange change;
  change.scenario_name = scenario.name;
  auto add = [&](std::string path, std::string text, std::string what,
                 std::string command) {
    steps += fmt::format("{}. `{}` — {}\n\n   ```sh\n   {}\n   ```\n\n", ++step,
                         path, what, command);
    files.push_back({std::move(path), std::move(text)});
  };
  auto apply_file = [&](std::string path, std::string text, std::string what,
                        bool server_side, bool device_plugin_config) {
    ApplyStep s;
    s.title = "`" + path + "`: " + what;
    s.file = path;
    s.server_side = server_side;
    s.objects = KubeObjectsOf(text, path);
    s.device_plugin_config = device_plugin_config;
    change.steps.push_back(std::move(s));
    add(path, std::move(text), std::move(what),
        std::string("kubectl apply ") + (server_side ? "--server-side " : "") +
            "-f " + path);
  };
  auto helm_values = [&](std::string path, std::string text, std::string what,
                         const HelmRelease& release) {
    ApplyStep s;
    s.kind = ApplyStep::Kind::kHelmUpgrade;
    s.title = "`" + path + "`: " + what;
    s.file = path;
    s.release = release;
    change.steps.push_back(std::move(s));
    const std::string args = HelmChartArguments(release);
    add(path, std::move(text), std::move(what),
        fmt::format("helm upgrade {0} {1} --reuse-values -f {2}\n   # not "
                    "installed yet:\n   helm upgrade --install {0} {1} "
                    "--create-namespace -f {2}",
                    ShellWord(release.release), args, path));
  };
  auto uninstall = [&](const HelmRelease& release, std::string why,
                       std::string scheduler) {
    ApplyStep s;
    s.kind = ApplyStep::Kind::kHelmUninstall;
    s.title = why;
    s.release = release;
    s.wait_for_scheduler = scheduler;
    change.steps.push_back(std::move(s));
    steps += fmt::format(
        "{}. {}{}\n\n   ```sh\n   helm uninstall {} -n {} --keep-history\n"
        "   ```\n\n",
        ++step, CommentText(why),
        scheduler.empty()
            ? std::string()
            : fmt::format(
                  ", once no pod runs under `{0}` any more (patch their "
                  "workloads with `pod-patches.yaml` first: apply.sh stops "
                  "and names them while any is left; `kubectl get pods -A "
                  "--field-selector=status.phase!=Succeeded,status.phase!="
                  "Failed -o jsonpath='{{range .items[?(@.spec.schedulerName"
                  "==\"{0}\")]}}{{.metadata.namespace}}/{{.metadata.name}}"
                  "{{\"\\n\"}}{{end}}'`)",
                  scheduler),
        ShellWord(release.release), ShellWord(release.namespace_name));
  };
  if (nvidia) {
    DevicePluginConfigMapOptions options;
    options.namespace_name = gpu_operator.namespace_name;
    apply_file("device-plugin-config.yaml",
               DevicePluginConfigMap(scenario, catalog, options),
               "the NVIDIA device plugin's configs per pool (time-slicing, "
               "MPS, MIG strategy), which the GPU Operator's values below "
               "name",
               false, true);
  }
  if (mig) {
    MigPartedConfigMapOptions options;
    options.namespace_name = gpu_operator.namespace_name;
    options.today = today;
    apply_file("mig-parted-config.yaml",
               MigPartedConfigMap(scenario, catalog, options),
               "the MIG layouts for the MIG manager, which the GPU Operator's "
               "values below name",
               false, false);
  }
  if (gpus) {
    GpuOperatorValuesOptions options;
    options.namespace_name = gpu_operator.namespace_name;
    helm_values("gpu-operator-values.yaml",
                GpuOperatorValuesYaml(scenario, catalog, options),
                "the GPU Operator's Helm values: the ConfigMaps above, the MIG "
                "strategy and its DaemonSets' and NFD worker's tolerations of "
                "the pools' taints, each only where the plan needs it (the "
                "file's header says what it leaves to the release)",
                gpu_operator);
  }
  if (hami) {
    helm_values("hami-values.yaml", HamiValuesYaml(scenario, catalog),
                "HAMi's Helm values for the vGPU pools", hami_release);
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
  const HelmRelease dra_release =
      DraDriverHelmRelease(dra || today == nullptr ? dra_scenario : *today);
  if (dra_today && !dra) {
    uninstall(dra_release,
              "No pool hands out its GPUs through DRA any more: uninstall "
              "NVIDIA's DRA driver before the device plugin returns to its "
              "nodes",
              "");
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
      "manager reports success (pods without a controller stop it, named; "
      "DRAIN_FORCE=1 deletes them; a failed MIG change stops it, the node "
      "cordoned, and a second run retries). Check it with --dry-run first",
      "sh node-setup.sh --dry-run\n   sh node-setup.sh");
  ApplyStep node_setup;
  node_setup.kind = ApplyStep::Kind::kNodeSetup;
  node_setup.title = "node-setup.sh: the nodes' labels, taints and MIG layouts";
  change.steps.push_back(std::move(node_setup));
  if (dra) {
    std::string class_changes;
    for (const std::string& c :
         DraDeviceClassChanges(dra_scenario, catalog)) {
      class_changes += " " + CommentText(c) + ".";
    }
    helm_values(
        "dra-driver-values.yaml", DraDriverValuesYaml(dra_scenario),
        fmt::format(
            "the Helm values of NVIDIA's DRA driver for the DRA pools: its "
            "kubelet plugin on their nodes (by the pool label node-setup.sh "
            "sets), the alpha feature gates they need, chart version {} "
            "pinned, release `{}` in namespace `{}`. The file's header says "
            "the Kubernetes version and feature gates it needs; the GPU "
            "Operator's toolkit must run on those nodes",
            CommentText(dra_release.version), CommentText(dra_release.release),
            CommentText(dra_release.namespace_name)),
        dra_release);
    apply_file("dra-objects.yaml", DraObjectsYaml(dra_scenario, catalog),
               "the DeviceClasses of the MIG profiles the DRA pools' pods ask "
               "and, per tenant class and namespace, the "
               "ResourceClaimTemplates the pod patches name." + class_changes,
               false, false);
  }
  if (nvidia) {
    ApplyStep restart;
    restart.kind = ApplyStep::Kind::kRestartDevicePlugin;
    restart.title =
        "the device plugin's restart, when its ConfigMap's data changed";
    restart.release = gpu_operator;
    change.steps.push_back(std::move(restart));
    steps += fmt::format(
        "{}. The GPU Operator does not watch the device plugin's ConfigMap: "
        "after a change to its data, restart the plugin (running pods keep "
        "running). apply.sh does so only when `device-plugin-config.yaml` "
        "changed the data (a plan that changes no pool's config restarts "
        "nothing)\n\n   ```sh\n   kubectl rollout restart -n {} "
        "daemonset/{}\n   ```\n\n",
        ++step, ShellWord(gpu_operator.namespace_name),
        kDevicePluginDaemonSet);
  }
  if (NeedsKubeSchedulerConfig(scenario.scheduler)) {
    add("kube-scheduler-config.yaml",
        KubeSchedulerConfigYaml(scenario.scheduler, hami),
        "the scheduler profile's scoring (NodeResourcesFit scoringStrategy); "
        "not run by apply.sh",
        "kube-scheduler --config kube-scheduler-config.yaml   # or your "
        "distribution's way to set it");
  }
  if (scenario.queues.enabled()) {
    apply_file("kueue-queues.yaml", KueueManifestsYaml(scenario),
               "Kueue's ResourceFlavors, ClusterQueues and LocalQueues (" +
                   CommentText(KueueManifestsNeed(scenario)) +
                   "; install Kueue first); pods name their LocalQueue with "
                   "the kueue.x-k8s.io/queue-name label the pod patches set",
               true, false);
  }
  if (scenario.kai_queues.enabled()) {
    apply_file("kai-queues.yaml", KaiQueueManifestsYaml(scenario),
               "KAI-Scheduler's Queues (install KAI-Scheduler first); pods "
               "name their leaf queue with the kai.scheduler/queue label and "
               "schedulerName kai-scheduler, which the pod patches set",
               false, false);
  }
  const bool autoscaled = std::any_of(
      scenario.pools.begin(), scenario.pools.end(), [](const NodePoolSpec& p) {
        return p.gpus_per_node > 0 &&
               p.autoscaling.provider != AutoscalerProvider::kNone;
      });
  if (autoscaled) {
    for (EmittedFile& f :
         AutoscalerFiles(scenario, catalog, AutoscalerEmitOptions{})) {
      if (f.path == "karpenter-nodepools.yaml") {
        apply_file(f.path, std::move(f.text),
                   "the Karpenter NodePools of the pools that scale with "
                   "Karpenter (cluster-scoped; install Karpenter and its "
                   "node class first)",
                   false, false);
      } else if (f.path == "karpenter-node-overlays.yaml") {
        add(f.path, std::move(f.text),
            "Karpenter NodeOverlays: what a shared-GPU node advertises, for "
            "Karpenter's simulation; alpha, read only with its feature gate "
            "NodeOverlay=true (not run by apply.sh)",
            "kubectl apply -f " + f.path);
      } else if (f.path == "cluster-autoscaler-values.yaml") {
        add(f.path, std::move(f.text),
            "cluster-autoscaler's flags for the pools that scale with it, as "
            "its Helm chart's values (not run by apply.sh: the release holds "
            "cloud credentials and settings these files do not know)",
            "helm upgrade RELEASE autoscaler/cluster-autoscaler -n NAMESPACE "
            "--reuse-values -f " +
                f.path);
      } else if (f.path == "cluster-autoscaler-asg-tags.yaml") {
        add(f.path, std::move(f.text),
            "on AWS, the Auto Scaling groups' node-template tags that "
            "cluster-autoscaler reads to scale a group from zero (not run "
            "by apply.sh: AWS, not the cluster)",
            "aws autoscaling create-or-update-tags --cli-input-yaml file://" +
                f.path);
      } else {
        add(f.path, std::move(f.text),
            "on Cluster API, the MachineDeployments' size and capacity "
            "annotations that cluster-autoscaler reads (not run by apply.sh: "
            "the management cluster, not this one)",
            "NAMESPACE=NS sh " + f.path);
      }
    }
  }
  add("pod-patches.yaml",
      PodTemplatePatchesYaml(scenario, catalog, kPodPatchesPerClass, today),
      "per tenant class, what its workloads' pod templates request; patch "
      "each workload with the document of its class (not run by apply.sh)",
      "kubectl patch deployment NAME --type strategic --patch-file PATCH.yaml");
  if (gpus && !hami) {
    uninstall(hami_release,
              "No pool runs HAMi: where HAMi is installed, uninstall it (its "
              "admission webhook would send every GPU pod to its scheduler, "
              "which has no node left)",
              kHamiSchedulerName);
  }
  files.push_back({"apply.sh", ApplyScript(change)});
  std::string releases;
  for (const ApplyStep& s : change.steps) {
    if (s.kind != ApplyStep::Kind::kHelmUpgrade) continue;
    releases += fmt::format(
        "- {}: release `{}` in namespace `{}`, chart `{}` `{}` "
        "(`platform.{}`)\n",
        s.release.what, CommentText(s.release.release),
        CommentText(s.release.namespace_name),
        CommentText(s.release.chart_name), CommentText(s.release.version),
        s.release.platform_key);
  }
  std::string readme = fmt::format(
      "# Kubernetes configuration of scenario '{}'\n\n"
      "Written by gpushare-sim: the node pools as the simulation ran them, "
      "for NVIDIA's GPU Operator (device plugin, MIG manager) and HAMi, as "
      "a change from the cluster's configuration today. Every field and its "
      "upstream source: docs/emit.md of gpushare-sim.\n\n"
      "## Apply\n\n```sh\nsh apply.sh --dry-run   # reads and checks "
      "everything, changes nothing\nsh apply.sh\n```\n\n"
      "`apply.sh` runs the steps below in order (but those marked not run "
      "by it). Before changing anything it checks that `kubectl` and `helm` "
      "are there, that `node-setup.sh --dry-run` passes, and that each Helm "
      "release it upgrades is not installed or runs the chart version these "
      "files are written for, which every helm command pins:\n\n{}\n"
      "A release at another version stops it: emit the files again with "
      "`platform.<release>.chart_version` set to the version it runs "
      "(docs/scenario.md, \"platform\"), or upgrade the chart first. Its "
      "first run saves today's state into `before/`: per Helm "
      "release its revision, chart version and values; each object the "
      "files write, without the fields the API server sets, or that it did "
      "not exist. A later run keeps that copy, skips a Helm upgrade it has "
      "made already and changes nothing. Keep `before/` until the change is "
      "to stay (rollback.sh reads it; gpushare-sim will not write into a "
      "folder that holds it).\n\n"
      "By hand, save first: `helm history RELEASE -n NAMESPACE --max 1` and "
      "`helm get values RELEASE -n NAMESPACE -o yaml` of each release, and "
      "`kubectl get KIND NAME -n NAMESPACE -o yaml` of each object, "
      "without `metadata.resourceVersion`, `uid`, `creationTimestamp`, "
      "`managedFields` and `status` (a stale resourceVersion makes the "
      "restore fail).\n\n### The steps, in this order\n\n{}",
      CommentText(scenario.name), releases, steps);
  const std::string counts = NodeCountChanges(scenario, changes, today);
  if (!counts.empty()) {
    readme += "## Nodes to provision or take out\n\n" + counts + "\n";
  }
  const std::optional<std::string> node_rollback =
      RollbackScript(scenario, catalog, today);
  std::string unknown;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node > 0 && !PoolNodeSetOf(p).by_name() &&
        FindPoolSpec(today, p.name) == nullptr) {
      unknown += (unknown.empty() ? "" : ", ") + p.name;
    }
  }
  const std::string nodes_unknown =
      node_rollback ? std::string()
                    : "the nodes keep the labels and taints node-setup.sh "
                      "gave them: today's configuration of pool(s) " +
                          unknown +
                          " is not known (emit k8s --from TODAY.yaml writes "
                          "node-rollback.sh, which restores them)";
  files.push_back({"rollback.sh", RollbackAllScript(change, nodes_unknown)});
  if (node_rollback) files.push_back({"node-rollback.sh", *node_rollback});
  readme +=
      "## Roll back\n\n```sh\nsh rollback.sh --dry-run\nsh rollback.sh\n```\n\n"
      "`rollback.sh` undoes the steps in reverse order from `before/`: each "
      "object is put back as saved (`kubectl replace -f before/objects/...` "
      "where it differs, `kubectl create` where it is missing, `kubectl "
      "delete` where it did not exist before), each Helm release goes back "
      "to its saved revision (`helm rollback RELEASE REVISION -n NAMESPACE`: "
      "that revision's chart and values exactly, also for a release apply.sh "
      "uninstalled with `--keep-history`; a release apply.sh installed is "
      "uninstalled), and the device plugin restarts when its ConfigMap "
      "changed back. ";
  if (node_rollback) {
    readme +=
        "Then `node-rollback.sh` gives the nodes back today's labels, "
        "taints and MIG layouts (it cordons, drains and waits as "
        "node-setup.sh does). A second run changes nothing. It does not "
        "remove nodes a plan added.\n";
  } else {
    readme += "The nodes are not rolled back: today's configuration of "
              "pool(s) " +
              CommentText(unknown) +
              " is not known, so rollback.sh restores the rest and exits 1 "
              "saying so. Pass the scenario of the cluster as it runs today "
              "(`emit k8s --from TODAY.yaml`; `plan --out` uses the planned "
              "scenario) to get node-rollback.sh.\n";
  }
  files.insert(files.begin(), {"README.md", readme});
  return files;
}

}  // namespace gpushare
