#include "gpushare/emit/gpu_operator_values.h"

#include <fmt/format.h>

#include <regex>
#include <vector>

#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"

namespace gpushare {
namespace {

Toleration ExistsToleration(std::string key, TaintEffect effect) {
  Toleration t;
  t.key = std::move(key);
  t.op = Toleration::Operator::kExists;
  t.any_effect = false;
  t.effect = effect;
  return t;
}

Toleration EqualToleration(const Taint& taint) {
  Toleration t;
  t.key = taint.key;
  t.op = Toleration::Operator::kEqual;
  t.value = taint.value;
  t.any_effect = false;
  t.effect = taint.effect;
  return t;
}

// Whether `chart_version` ([v]MAJOR.MINOR.PATCH...) is v26.3.0 or later;
// false when it is empty or not a version.
bool ChartFrom26_3(const std::string& chart_version) {
  static const std::regex kVersion(R"(v?([0-9]+)\.([0-9]+)\..*)");
  std::smatch m;
  if (!std::regex_match(chart_version, m, kVersion)) return false;
  const long major = std::stol(m[1].str().substr(0, 6));
  const long minor = std::stol(m[2].str().substr(0, 6));
  return major > 26 || (major == 26 && minor >= 3);
}

// A list: today's (known) or the chart's default, then an Equal toleration
// of each taint it does not tolerate yet.
struct MergedTolerations {
  std::vector<Toleration> list;
  std::vector<Taint> added;
  std::string from;
};

MergedTolerations Merge(const std::optional<std::vector<Toleration>>& today,
                        const std::string& today_from,
                        std::vector<Toleration> chart_default,
                        const std::string& default_from,
                        const std::vector<Taint>& taints) {
  MergedTolerations m;
  m.list = today ? *today : std::move(chart_default);
  m.from = today ? today_from : default_from;
  for (const Taint& taint : taints) {
    bool tolerated = false;
    for (const Toleration& t : m.list) tolerated |= t.Tolerates(taint);
    if (tolerated) continue;
    m.list.push_back(EqualToleration(taint));
    m.added.push_back(taint);
  }
  return m;
}

std::string TaintText(const std::vector<Taint>& taints) {
  std::string out;
  for (const Taint& t : taints) {
    out += fmt::format("{}{}{}{}:{}", out.empty() ? "" : ", ", t.key,
                       t.value.empty() ? "" : "=", t.value,
                       TaintEffectName(t.effect));
  }
  return out;
}

// The header lines of one list: where it starts from and what it adds, or
// why it is left out.
std::string ListComment(const std::string& key, const std::string& scenario_key,
                        const MergedTolerations& m, bool known) {
  if (m.added.empty()) {
    return CommentLines(fmt::format(
        "{} is left out, so --reuse-values keeps the release's list: {} "
        "tolerates every pool's taint.",
        key, m.from));
  }
  std::string out = CommentLines(
      fmt::format("{}: {}, plus the pools' taints {} (a Helm list replaces "
                  "the release's whole list).",
                  key, m.from, TaintText(m.added)));
  if (!known) {
    out += CommentLines(fmt::format(
        "Today's list is not known: compare it with `helm get values`, and "
        "say it in the scenario ({}) or import a kubectl dump that holds the "
        "operator's pods; a toleration the release has that is not below is "
        "lost.",
        scenario_key));
  }
  return out;
}

}  // namespace

std::string EqualTolerationsYaml(const std::vector<Taint>& taints) {
  std::string out;
  for (const Taint& t : taints) {
    out += fmt::format(
        "  - key: {}\n    operator: Equal\n    value: {}\n    effect: {}\n",
        YamlScalar(t.key), YamlQuoted(t.value), TaintEffectName(t.effect));
  }
  return out;
}

std::string TolerationsYaml(const std::vector<Toleration>& tolerations,
                            const std::string& indent) {
  std::string out;
  for (const Toleration& t : tolerations) {
    std::string item;
    if (!t.key.empty()) item += "key: " + YamlScalar(t.key) + "\n";
    item += t.op == Toleration::Operator::kExists ? "operator: Exists\n"
                                                  : "operator: Equal\n";
    if (t.op == Toleration::Operator::kEqual) {
      item += "value: " + YamlQuoted(t.value) + "\n";
    }
    if (!t.any_effect) {
      item += fmt::format("effect: {}\n", TaintEffectName(t.effect));
    }
    bool first = true;
    size_t begin = 0;
    while (begin < item.size()) {
      const size_t end = item.find('\n', begin);
      out += indent + (first ? "- " : "  ") +
             item.substr(begin, end - begin) + "\n";
      first = false;
      begin = end + 1;
    }
  }
  return out;
}

std::vector<Toleration> GpuOperatorDaemonsetTolerationsDefault() {
  return {ExistsToleration("nvidia.com/gpu", TaintEffect::kNoSchedule)};
}

std::vector<Toleration> NfdWorkerTolerationsDefault(
    const std::string& chart_version) {
  std::vector<Toleration> out;
  for (const char* role : {"node-role.kubernetes.io/master",
                           "node-role.kubernetes.io/control-plane"}) {
    if (ChartFrom26_3(chart_version) &&
        std::string(role) == "node-role.kubernetes.io/master") {
      continue;
    }
    out.push_back(EqualToleration({role, "", TaintEffect::kNoSchedule}));
  }
  out.push_back(ExistsToleration("nvidia.com/gpu", TaintEffect::kNoSchedule));
  return out;
}

bool NeedsClusterMigStrategy(const Scenario& scenario) {
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    if (p.sharing.mig_enabled && !p.sharing.mig.dynamic) return true;
    if (p.sharing.sharing == DeviceSharing::kMps &&
        p.devices == PoolDevices::kDevicePlugin) {
      return true;
    }
  }
  return false;
}

ClusterMigStrategy ClusterMigStrategyOf(const Scenario& scenario,
                                        const Catalog& catalog) {
  bool has_mig = false;
  bool mps = false;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    // (Dynamic MIG pools have no layout: the DRA driver makes instances.)
    has_mig = has_mig || (p.sharing.mig_enabled && !p.sharing.mig.dynamic);
    // (A "DRA MPS" pool runs no device plugin.)
    mps = mps || (p.sharing.sharing == DeviceSharing::kMps &&
                  p.devices == PoolDevices::kDevicePlugin);
  }
  if (!has_mig) return {"single", ""};
  bool mixed = false;
  bool single = false;
  for (const PoolMigConfig& c : PoolMigConfigs(scenario, catalog)) {
    mixed = mixed || c.mixed;
    single = single || !c.mixed;
  }
  if (mixed && single) return {"", "the pools differ in MIG strategy"};
  if (mixed && mps) {
    return {"", "MPS pools cannot run under the mixed strategy"};
  }
  return {mixed ? "mixed" : "single", ""};
}

std::string GpuOperatorValuesYaml(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const GpuOperatorValuesOptions& options) {
  bool nvidia = false;
  bool mig = false;
  std::vector<Taint> taints;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    nvidia = nvidia || (p.sharing.sharing != DeviceSharing::kHami &&
                        p.devices != PoolDevices::kDra);
    mig = mig || (p.sharing.mig_enabled && !p.sharing.mig.dynamic);
    // A written pool's taints; an imported pool's are its nodes' own and
    // those a new node gets. The node lifecycle's node.kubernetes.io/*
    // taints are the DaemonSet controller's to tolerate.
    std::vector<Taint> pool_taints = p.taints;
    for (const NodeIdentity& m : p.members) {
      pool_taints.insert(pool_taints.end(), m.taints.begin(), m.taints.end());
    }
    pool_taints.insert(pool_taints.end(), p.new_node_taints.begin(),
                       p.new_node_taints.end());
    for (const Taint& t : pool_taints) {
      if (t.key.rfind("node.kubernetes.io/", 0) == 0) continue;
      AddTaintOnce(&taints, t);
    }
  }
  const PlatformSpec& platform = scenario.platform;
  const std::string chart = platform.gpu_operator.chart_version.empty()
                                ? std::string("the chart")
                                : "chart " + platform.gpu_operator.chart_version;
  const MergedTolerations daemonsets = Merge(
      platform.gpu_operator_daemonset_tolerations,
      platform.gpu_operator_daemonset_tolerations_from.empty()
          ? std::string(
                "the scenario's platform.gpu_operator.daemonsets.tolerations")
          : platform.gpu_operator_daemonset_tolerations_from,
      GpuOperatorDaemonsetTolerationsDefault(),
      "the default of " + chart + " (values.yaml daemonsets.tolerations)",
      taints);
  const MergedTolerations nfd = Merge(
      platform.nfd_worker_tolerations,
      platform.nfd_worker_tolerations_from.empty()
          ? std::string(
                "the scenario's platform.gpu_operator.nfd_worker.tolerations")
          : platform.nfd_worker_tolerations_from,
      NfdWorkerTolerationsDefault(platform.gpu_operator.chart_version),
      "the default of " + chart +
          (ChartFrom26_3(platform.gpu_operator.chart_version)
               ? std::string()
               : std::string(" before v26.3.0")) +
          " (values.yaml node-feature-discovery.worker.tolerations)",
      taints);
  std::string out = fmt::format(
      "# NVIDIA GPU Operator Helm values of scenario '{}' (written by "
      "gpushare-sim).\n# Apply on top of the values the release has:\n"
      "#   helm upgrade {} --reuse-values -f THIS_FILE\n"
      "# (a later helm upgrade keeps them; kubectl patches of "
      "the ClusterPolicy\n# would be overwritten by it). A key left out "
      "keeps the release's value.\n",
      CommentText(scenario.name),
      CommentText(HelmReleaseArguments(
          GpuOperatorRelease(scenario.platform, options.namespace_name))));
  out += ListComment("daemonsets.tolerations",
                     "platform.gpu_operator.daemonsets.tolerations",
                     daemonsets,
                     platform.gpu_operator_daemonset_tolerations.has_value());
  out += ListComment("node-feature-discovery.worker.tolerations",
                     "platform.gpu_operator.nfd_worker.tolerations", nfd,
                     platform.nfd_worker_tolerations.has_value());
  if (nvidia) {
    out += fmt::format(
        "devicePlugin:\n  config:\n    name: {}\n    default: default\n",
        YamlScalar(options.device_plugin_config));
  }
  if (mig) {
    out += fmt::format(
        "migManager:\n  config:\n    name: {}\n    default: {}\n",
        YamlScalar(options.mig_parted_config), "all-disabled");
  }
  if (!NeedsClusterMigStrategy(scenario)) {
    out +=
        "# mig.strategy is left out, so the release's stays: no pool uses "
        "MIG layouts\n# (mig-parted) or MPS through the device plugin, which "
        "refuses MPS under the\n# mixed strategy.\n";
  } else {
    const ClusterMigStrategy strategy = ClusterMigStrategyOf(scenario, catalog);
    if (strategy.strategy.empty()) {
      out += fmt::format(
          "# No cluster-wide MIG strategy ({}): each node's device-plugin "
          "config\n# (flags.migStrategy) decides. An empty value leaves "
          "spec.mig.strategy out.\nmig:\n  strategy: \"\"\n",
          strategy.why_per_node);
    } else {
      out += fmt::format("mig:\n  strategy: {}\n", strategy.strategy);
    }
  }
  if (!daemonsets.added.empty()) {
    out += "daemonsets:\n  tolerations:\n" +
           TolerationsYaml(daemonsets.list, "  ");
  }
  if (!nfd.added.empty()) {
    out += "node-feature-discovery:\n  worker:\n    tolerations:\n" +
           TolerationsYaml(nfd.list, "    ");
  }
  return out;
}

}  // namespace gpushare
