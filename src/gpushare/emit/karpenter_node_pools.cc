// Karpenter NodePools and NodeOverlays (emit/karpenter_node_pools.h).

#include "gpushare/emit/karpenter_node_pools.h"

#include <fmt/format.h>

#include <cmath>
#include <regex>

#include "gpushare/emit/node_group_template.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/kubernetes_names.h"

namespace gpushare {
namespace {

constexpr const char* kAwsGpuCountLabel =
    "karpenter.k8s.aws/instance-gpu-count";

std::vector<const NodePoolSpec*> KarpenterPools(const Scenario& scenario) {
  const std::vector<const NodePoolSpec*> pools =
      AutoscaledPools(scenario, AutoscalerProvider::kKarpenter);
  if (pools.empty()) {
    throw InputError(fmt::format(
        "scenario '{}' has no pool with GPUs that scales with Karpenter "
        "(autoscaling.provider: karpenter): there is no NodePool to write",
        scenario.name));
  }
  return pools;
}

void CheckNodeClass(const KarpenterNodeClassRef& ref) {
  static const std::regex kKind("[A-Z][A-Za-z0-9]*");
  if (!IsDnsSubdomain(ref.group)) {
    throw InputError(fmt::format(
        "Karpenter node class group '{}' is not an API group (a DNS-1123 "
        "subdomain, e.g. karpenter.k8s.aws)",
        ref.group));
  }
  if (!std::regex_match(ref.kind, kKind)) {
    throw InputError(fmt::format(
        "Karpenter node class kind '{}' is not a kind (a capitalised name "
        "of letters and digits, e.g. EC2NodeClass)",
        ref.kind));
  }
  if (!IsDnsSubdomain(ref.name)) {
    throw InputError(fmt::format(
        "Karpenter node class name '{}' is not an object name (a DNS-1123 "
        "subdomain: lower-case letters, digits, '-' and '.')",
        ref.name));
  }
}

// The NodePool CRD's label rules (pkg/apis/crds/karpenter.sh_nodepools.yaml,
// spec.template.metadata.labels).
void CheckLabel(const NodePoolSpec& pool, const std::string& key,
                const std::string& value) {
  const std::string domain = key.substr(0, key.find('/'));
  const bool karpenter_domain =
      key.find('/') != std::string::npos &&
      (domain == "karpenter.sh" ||
       (domain.size() > 13 &&
        domain.compare(domain.size() - 13, 13, ".karpenter.sh") == 0));
  if ((karpenter_domain && key != "karpenter.sh/capacity-type") ||
      key == "kubernetes.io/hostname" || !IsLabelKey(key) ||
      !IsLabelValue(value)) {
    throw InputError(fmt::format(
        "node pool '{}': label '{}={}' cannot be a Karpenter NodePool's "
        "template label (the CRD refuses the karpenter.sh domain but "
        "karpenter.sh/capacity-type, kubernetes.io/hostname, and invalid "
        "keys or values)",
        pool.name, key, value));
  }
}

std::string ConsolidateAfter(const NodePoolSpec& pool, double seconds) {
  if (std::isinf(seconds) && seconds > 0) return "Never";
  const double whole = std::floor(seconds);
  if (!std::isfinite(seconds) || seconds < 0 || whole != seconds) {
    throw InputError(fmt::format(
        "node pool '{}': Karpenter's consolidateAfter takes whole seconds, "
        "minutes or hours (the CRD's pattern ^(([0-9]+(s|m|h))+|Never)$), "
        "not {} s",
        pool.name, seconds));
  }
  return GoDuration(seconds);
}

std::string BudgetNodes(const NodePoolSpec& pool, double fraction) {
  const double percent = fraction * 100;
  const double whole = std::round(percent);
  if (!(fraction >= 0 && fraction <= 1) || std::fabs(percent - whole) > 1e-9) {
    throw InputError(fmt::format(
        "node pool '{}': Karpenter's disruption budget is a whole percent of "
        "the pool's nodes (the CRD's pattern ^((100|[0-9]{{1,2}})%|[0-9]+)$), "
        "not a fraction of {}",
        pool.name, fraction));
  }
  return fmt::format("{}%", static_cast<int>(whole));
}

// The pool's sharing as Karpenter sees it, in words.
std::string SharingNote(const NodePoolSpec& pool, const NodeGroupTemplate& t) {
  if (t.dra) {
    return "A DRA pool: Karpenter's NodePools have no template "
           "ResourceSlices (its DRA NodeOverlay design, "
           "kubernetes-sigs/karpenter pull 2559, was closed unmerged), so "
           "pods with ResourceClaims may not trigger a launch.";
  }
  if (pool.sharing.sharing == DeviceSharing::kHami) {
    return "HAMi: Karpenter knows an instance's physical GPUs only; HAMi's "
           "vGPU count and its extender's nvidia.com/gpumem and gpucores are "
           "unknown to it, and its simulation runs no scheduler extender. "
           "The NodeOverlays (karpenter-node-overlays.yaml) declare them.";
  }
  for (const auto& [name, count] : t.resources) {
    if (name != kNvidiaGpu || count != t.physical_gpus) {
      return "Karpenter sizes an instance by its physical GPUs and does not "
             "know the device plugin's replicas or MIG devices "
             "(kubernetes-sigs/karpenter issues 729 and 2140): it launches "
             "for each replica asked as if it were a GPU. The NodeOverlays "
             "(karpenter-node-overlays.yaml, feature gate NodeOverlay) give "
             "it what a ready node advertises.";
    }
  }
  return "";
}

// A limit in the simulator's units (cpu millicores, memory MiB; the
// scenario reader's) as a Kubernetes quantity.
std::string LimitQuantity(const std::string& name, int64_t value) {
  if (name == "cpu") {
    return value % 1000 == 0 ? fmt::format("{}", value / 1000)
                             : fmt::format("{}m", value);
  }
  if (name == "memory") return fmt::format("{}Mi", value);
  return fmt::format("{}", value);
}

std::string QuotedList(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) {
    out += (out.empty() ? "" : ", ") + YamlQuoted(v);
  }
  return "[" + out + "]";
}

std::string NodePoolDoc(const NodePoolSpec& pool, const std::string& mig_config,
                        const Catalog& catalog,
                        const KarpenterNodeClassRef& node_class) {
  if (!IsDnsSubdomain(pool.name)) {
    throw InputError(fmt::format(
        "node pool '{}': its name is not a Kubernetes object name (a DNS-1123 "
        "subdomain), which a Karpenter NodePool needs",
        pool.name));
  }
  const KarpenterSettings& k = pool.autoscaling.karpenter;
  const NodeGroupTemplate t = NodeGroupTemplateOf(pool, mig_config, catalog);
  std::string notes = fmt::format("pool {}: up to {} nodes.", pool.name,
                                  pool.autoscaling.max_nodes);
  if (pool.autoscaling.min_nodes > 0) {
    notes += fmt::format(
        " A Karpenter NodePool keeps no minimum: the scenario's min {} is "
        "not written (pods or a static NodePool keep nodes up).",
        pool.autoscaling.min_nodes);
  }
  const std::string sharing = SharingNote(pool, t);
  if (!sharing.empty()) notes += " " + sharing;
  std::string out = CommentLines(notes);
  out += fmt::format(
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: {}\n"
      "spec:\n  template:\n",
      YamlScalar(pool.name));
  if (!t.labels.empty()) {
    out += "    metadata:\n      labels:\n";
    for (const auto& [key, value] : t.labels) {
      CheckLabel(pool, key, value);
      out +=
          fmt::format("        {}: {}\n", YamlScalar(key), YamlQuoted(value));
    }
  }
  out += "    spec:\n      requirements:\n";
  if (!k.instance_types.empty()) {
    std::vector<std::string> names;
    for (const KarpenterInstanceType& it : k.instance_types) {
      if (!IsLabelValue(it.name) || it.name.empty()) {
        throw InputError(fmt::format(
            "node pool '{}': instance type '{}' is not a label value, which "
            "node.kubernetes.io/instance-type needs",
            pool.name, it.name));
      }
      names.push_back(it.name);
    }
    out +=
        "        - key: node.kubernetes.io/instance-type\n"
        "          operator: In\n          values: " +
        QuotedList(names) + "\n";
  } else if (node_class.group == "karpenter.k8s.aws") {
    out +=
        "        # The pool's node shape; name its instance types "
        "(node.kubernetes.io/instance-type) to pin the GPU model.\n";
    out += fmt::format(
        "        - key: {}\n          operator: In\n          values: {}\n",
        kAwsGpuCountLabel, QuotedList({fmt::format("{}", pool.gpus_per_node)}));
  } else {
    out +=
        "        # No instance type given: add the requirements that pick "
        "this pool's GPU instances.\n";
  }
  out +=
      "        - key: karpenter.sh/capacity-type\n          operator: In\n"
      "          values: " +
      QuotedList(k.spot ? std::vector<std::string>{"spot", "on-demand"}
                        : std::vector<std::string>{"on-demand"}) +
      "\n";
  out += fmt::format(
      "      nodeClassRef:\n        group: {}\n        kind: {}\n"
      "        name: {}\n",
      YamlScalar(node_class.group), YamlScalar(node_class.kind),
      YamlScalar(node_class.name));
  if (!t.taints.empty()) {
    out += "      taints:\n";
    for (const Taint& taint : t.taints) {
      out += fmt::format("        - key: {}\n", YamlScalar(taint.key));
      if (!taint.value.empty()) {
        out += fmt::format("          value: {}\n", YamlQuoted(taint.value));
      }
      out +=
          fmt::format("          effect: {}\n", TaintEffectName(taint.effect));
    }
  }
  out +=
      fmt::format("  limits:\n    nodes: \"{}\"\n", pool.autoscaling.max_nodes);
  for (const auto& [name, quantity] : k.limits) {
    if (name == "nodes") {
      throw InputError(fmt::format(
          "node pool '{}': Karpenter limit 'nodes' is the pool's autoscaling "
          "max; give it there",
          pool.name));
    }
    out += fmt::format("    {}: \"{}\"\n", YamlScalar(name),
                       LimitQuantity(name, quantity));
  }
  out += fmt::format(
      "  disruption:\n    consolidationPolicy: {}\n    consolidateAfter: {}\n"
      "    budgets:\n      - nodes: {}\n",
      k.consolidate_when_underutilized ? "WhenEmptyOrUnderutilized"
                                       : "WhenEmpty",
      ConsolidateAfter(pool, k.consolidate_after_s),
      YamlQuoted(BudgetNodes(pool, k.disruption_budget_fraction)));
  return out;
}

std::string Overlay(const NodePoolSpec& pool, const std::string& name,
                    const std::string& instance_type,
                    const NodeGroupTemplate& t) {
  if (!IsDnsSubdomain(name)) {
    throw InputError(fmt::format(
        "node pool '{}': NodeOverlay name '{}' is not an object name (a "
        "DNS-1123 subdomain)",
        pool.name, name));
  }
  std::string out = fmt::format(
      "apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata:\n"
      "  name: {}\nspec:\n  requirements:\n"
      "    - key: karpenter.sh/nodepool\n      operator: In\n"
      "      values: {}\n",
      YamlScalar(name), QuotedList({pool.name}));
  if (!instance_type.empty()) {
    out +=
        "    - key: node.kubernetes.io/instance-type\n      operator: In\n"
        "      values: " +
        QuotedList({instance_type}) + "\n";
  }
  out += "  capacity:\n";
  for (const auto& list : {t.resources, t.extender_resources}) {
    for (const auto& [resource, count] : list) {
      out += fmt::format("    {}: \"{}\"\n", YamlScalar(resource), count);
    }
  }
  return out;
}

bool NeedsOverlay(const NodeGroupTemplate& t) {
  if (t.dra) return false;
  if (!t.extender_resources.empty()) return true;
  for (const auto& [name, count] : t.resources) {
    if (name != kNvidiaGpu || count != t.physical_gpus) return true;
  }
  return false;
}

}  // namespace

std::string KarpenterNodePoolsYaml(const Scenario& scenario,
                                   const Catalog& catalog,
                                   const KarpenterNodeClassRef& node_class) {
  CheckNodeClass(node_class);
  const auto mig = MigConfigsOf(scenario, catalog);
  std::string out = fmt::format(
      "# Karpenter NodePools of scenario '{}' (karpenter.sh/v1; written by "
      "gpushare-sim\n# emit autoscaler). kubectl apply -f THIS_FILE; the "
      "node class must exist.\n",
      CommentText(scenario.name));
  for (const NodePoolSpec* p : KarpenterPools(scenario)) {
    const auto it = mig.find(p->name);
    out += "---\n" + NodePoolDoc(*p, it == mig.end() ? "" : it->second, catalog,
                                 node_class);
  }
  return out;
}

std::string KarpenterNodeOverlaysYaml(const Scenario& scenario,
                                      const Catalog& catalog) {
  const auto mig = MigConfigsOf(scenario, catalog);
  std::string docs;
  for (const NodePoolSpec* p : KarpenterPools(scenario)) {
    const auto it = mig.find(p->name);
    const std::string config = it == mig.end() ? "" : it->second;
    const auto& types = p->autoscaling.karpenter.instance_types;
    if (types.empty()) {
      const NodeGroupTemplate t = NodeGroupTemplateOf(*p, config, catalog);
      if (NeedsOverlay(t))
        docs += "---\n" + Overlay(*p, p->name + "-gpus", "", t);
      continue;
    }
    for (const KarpenterInstanceType& type : types) {
      const NodeGroupTemplate t =
          NodeGroupTemplateOf(*p, config, catalog, type.gpus);
      if (NeedsOverlay(t)) {
        docs += "---\n" + Overlay(*p, p->name + "-" + type.name, type.name, t);
      }
    }
  }
  if (docs.empty()) return "";
  std::string out = fmt::format(
      "# Karpenter NodeOverlays of scenario '{}' (karpenter.sh/v1alpha1; "
      "written by\n# gpushare-sim emit autoscaler).\n",
      CommentText(scenario.name));
  out += CommentLines(
      "What a ready node of each shared-GPU pool advertises, for Karpenter's "
      "scheduling simulation (kubernetes-sigs/karpenter issue 729's "
      "mitigation: NodeOverlay, designs/node-overlay.md). Alpha: Karpenter "
      "reads them only with the feature gate NodeOverlay=true (off by "
      "default; the chart's settings.featureGates.nodeOverlay). Upstream "
      "documents capacity as adding extended resources; a value for "
      "nvidia.com/gpu, which the instance type already has, replaces it in "
      "the code (pkg/cloudprovider/types.go ApplyCapacityOverlay) but not "
      "by the documented contract: renameByDefault (nvidia.com/gpu.shared) "
      "avoids relying on it. Whether declaring HAMi's extender resources "
      "this way carries a pod end to end is not documented upstream. "
      "kubectl apply -f THIS_FILE.");
  return out + docs;
}

}  // namespace gpushare
