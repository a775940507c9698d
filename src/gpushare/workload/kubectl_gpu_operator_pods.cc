#include "gpushare/workload/kubectl_gpu_operator_pods.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "gpushare/workload/kubectl_object.h"

namespace gpushare {

const char* const kGpuOperatorOperandDaemonSets[] = {
    "nvidia-driver-daemonset",
    "nvidia-vgpu-manager-daemonset",
    "nvidia-vgpu-device-manager",
    "nvidia-vfio-manager",
    "nvidia-container-toolkit-daemonset",
    "nvidia-device-plugin-daemonset",
    "nvidia-device-plugin-mps-control-daemon",
    "nvidia-sandbox-device-plugin-daemonset",
    "nvidia-kata-sandbox-device-plugin-daemonset",
    "nvidia-dcgm",
    "nvidia-dcgm-exporter",
    "nvidia-node-status-exporter",
    "gpu-feature-discovery",
    "nvidia-mig-manager",
    "nvidia-operator-validator",
    "nvidia-sandbox-validator",
    "nvidia-cc-manager",
    nullptr};

namespace {

constexpr std::string_view kNfdWorkerSuffix = "node-feature-discovery-worker";

bool IsOperand(const std::string& daemonset) {
  for (const char* const* n = kGpuOperatorOperandDaemonSets; *n != nullptr;
       ++n) {
    if (daemonset == *n) return true;
  }
  return false;
}

bool IsNfdWorker(const std::string& daemonset) {
  return daemonset.size() >= kNfdWorkerSuffix.size() &&
         daemonset.compare(daemonset.size() - kNfdWorkerSuffix.size(),
                           kNfdWorkerSuffix.size(), kNfdWorkerSuffix) == 0;
}

// A toleration the DaemonSet controller gives every daemon pod
// (AddOrUpdateDaemonPodTolerations), which the chart's list does not hold.
bool AddedByTheController(const Toleration& t) {
  struct Added {
    const char* key;
    TaintEffect effect;
  };
  static const Added kAdded[] = {
      {"node.kubernetes.io/not-ready", TaintEffect::kNoExecute},
      {"node.kubernetes.io/unreachable", TaintEffect::kNoExecute},
      {"node.kubernetes.io/disk-pressure", TaintEffect::kNoSchedule},
      {"node.kubernetes.io/memory-pressure", TaintEffect::kNoSchedule},
      {"node.kubernetes.io/pid-pressure", TaintEffect::kNoSchedule},
      {"node.kubernetes.io/unschedulable", TaintEffect::kNoSchedule},
      {"node.kubernetes.io/network-unavailable", TaintEffect::kNoSchedule}};
  if (t.op != Toleration::Operator::kExists || t.any_effect ||
      !t.value.empty()) {
    return false;
  }
  return std::any_of(std::begin(kAdded), std::end(kAdded),
                     [&](const Added& a) {
                       return t.key == a.key && t.effect == a.effect;
                     });
}

bool SameToleration(const Toleration& a, const Toleration& b) {
  return a.key == b.key && a.op == b.op && a.value == b.value &&
         a.any_effect == b.any_effect &&
         (a.any_effect || a.effect == b.effect);
}

// One list being gathered: its tolerations and the DaemonSets they came from.
struct Gathered {
  std::optional<std::vector<Toleration>> list;
  std::vector<std::string> daemonsets;

  void Add(const std::string& daemonset, const JsonValue& spec) {
    if (!list) list.emplace();
    if (std::find(daemonsets.begin(), daemonsets.end(), daemonset) ==
        daemonsets.end()) {
      daemonsets.push_back(daemonset);
    }
    for (const JsonValue& t : spec.Get("tolerations").Items()) {
      const Toleration tol = ReadKubectlToleration(t);
      if (AddedByTheController(tol)) continue;
      if (std::none_of(list->begin(), list->end(),
                       [&](const Toleration& o) {
                         return SameToleration(o, tol);
                       })) {
        list->push_back(tol);
      }
    }
  }

  std::string From(const std::string& file, const std::string& ns) const {
    if (!list) return "";
    std::string names;
    for (const std::string& d : daemonsets) {
      names += (names.empty() ? "" : ", ") + d;
    }
    return fmt::format("the pods of DaemonSet{} {} in namespace {} ({})",
                       daemonsets.size() == 1 ? "" : "s", names, ns, file);
  }
};

}  // namespace

bool MayHoldGpuOperatorPods(const std::string& text) {
  if (text.find(kNfdWorkerSuffix) != std::string::npos) return true;
  for (const char* const* n = kGpuOperatorOperandDaemonSets; *n != nullptr;
       ++n) {
    if (text.find(*n) != std::string::npos) return true;
  }
  return false;
}

GpuOperatorPodTolerations GpuOperatorPodTolerationsOf(
    const std::string& file, const std::string& text,
    const std::string& namespace_name) {
  std::string root_kind;
  const std::vector<JsonValue> items =
      KubectlListItems(file, text, "Pod", &root_kind);
  // The pods of each kind, with their namespaces, in dump order.
  struct Daemon {
    std::string daemonset;
    std::string namespace_name;
    JsonValue spec;
    bool operand;
  };
  std::vector<Daemon> daemons;
  for (const JsonValue& item : items) {
    if (!item.IsObject()) continue;
    const std::string kind = item.Get("kind").String();
    if (!(kind == "Pod" || (kind.empty() && root_kind != "List"))) continue;
    const JsonValue metadata = item.Get("metadata");
    for (const JsonValue& owner : metadata.Get("ownerReferences").Items()) {
      if (owner.Get("kind").String() != "DaemonSet") continue;
      const std::string name = owner.Get("name").String();
      const bool operand = IsOperand(name);
      if (!operand && !IsNfdWorker(name)) continue;
      daemons.push_back({name, metadata.Get("namespace").String("default"),
                         item.Get("spec"), operand});
      break;
    }
  }
  GpuOperatorPodTolerations out;
  out.namespace_name = namespace_name;
  for (int pass = 0; pass < 2 && out.namespace_name.empty(); ++pass) {
    for (const Daemon& d : daemons) {
      if (d.operand == (pass == 0)) {
        out.namespace_name = d.namespace_name;
        break;
      }
    }
  }
  Gathered operands;
  Gathered nfd;
  for (const Daemon& d : daemons) {
    if (d.namespace_name != out.namespace_name) continue;
    (d.operand ? operands : nfd).Add(d.daemonset, d.spec);
  }
  out.daemonsets = operands.list;
  out.daemonsets_from = operands.From(file, out.namespace_name);
  out.nfd_worker = nfd.list;
  out.nfd_worker_from = nfd.From(file, out.namespace_name);
  if (!out.daemonsets && !out.nfd_worker) out.namespace_name.clear();
  return out;
}

}  // namespace gpushare
