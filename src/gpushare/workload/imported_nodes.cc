#include "gpushare/workload/imported_nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

namespace gpushare {
namespace {

// Everything but identity, as a key.
std::string ImportShapeKey(const ImportedNode& n) {
  const SharingConfig& s = n.sharing;
  std::string key = fmt::format(
      "{}|{}|{}|{}|{}|mig{}:{}:{}|{}:{}:{}:{}:{}|{}:{}:{}:{}:{}:{}:{}",
      n.gpu_model, n.gpus, n.cpu_milli, n.memory_mib, n.max_pods, s.mig_enabled,
      static_cast<int>(s.mig.strategy), s.mig.config_name,
      static_cast<int>(s.sharing), s.replicas.replicas,
      s.replicas.rename_by_default, s.replicas.fail_requests_greater_than_one,
      static_cast<int>(s.replicas.policy), s.hami.split_count,
      s.hami.memory_scaling, s.hami.core_scaling, s.hami.default_memory_mib,
      s.hami.default_cores, static_cast<int>(s.hami.node_policy),
      static_cast<int>(s.hami.gpu_policy));
  for (const auto& layout : s.mig.layouts) {
    key += '[';
    for (const std::string& item : layout) key += item + ",";
    key += ']';
  }
  if (n.devices == PoolDevices::kDra) {
    key += fmt::format("|dra:{}:{}:{}:{}:{}", DraConsumableSharesValue(n.dra),
                       DraTimeSliceIntervalName(n.dra.time_slice_interval),
                       n.dra.extended_resource,
                       n.dra.mps_active_thread_percentage,
                       n.dra.mps_pinned_memory_limit_mib);
    for (const int gpu : n.dra.mps_gpus) key += fmt::format(":{}", gpu);
  }
  return key;
}

// `text` lowercased, each run of characters other than letters and digits
// one '-', none at either end, at most 34 characters ("imported" when
// nothing is left).
std::string ImportPoolNameOf(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char l =
        static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
    if (ok) {
      out += l;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() > 34) out.resize(34);  // room for "-NNNNN"
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "imported" : out;
}

// `<model>-x<gpus>[-<scheme>]`, or `cpu`.
std::string ImportShapeName(const ImportedNode& n) {
  if (n.gpus == 0) return "cpu";
  std::string name = fmt::format("{}-x{}", n.gpu_model, n.gpus);
  const SharingScheme scheme = n.sharing.scheme();
  if (scheme != SharingScheme::kExclusive) {
    name += "-" + std::string(SharingSchemeName(scheme));
  }
  if (n.devices == PoolDevices::kDra) name += "-dra";
  return name;
}

// The node's group label (key, value): the first of NodeGroupLabelKeys() it
// carries with a value; both empty when none.
std::pair<std::string, std::string> ImportNodeGroup(const ImportedNode& n) {
  for (const std::string& key : NodeGroupLabelKeys()) {
    auto it = n.labels.find(key);
    if (it != n.labels.end() && !it->second.empty()) return *it;
  }
  return {};
}

// One pool being formed: its group, its first node, its members.
struct ImportPoolDraft {
  std::string group_key;
  std::string group_value;
  const ImportedNode* first = nullptr;
  std::vector<const ImportedNode*> nodes;
};

// The labels every node of `nodes` carries with the same value, but
// kubernetes.io/hostname and the pool label.
Labels ImportCommonLabels(const std::vector<const ImportedNode*>& nodes) {
  Labels common = nodes.front()->labels;
  common.erase("kubernetes.io/hostname");
  common.erase(kNodePoolLabel);
  for (const ImportedNode* n : nodes) {
    for (auto it = common.begin(); it != common.end();) {
      auto own = n->labels.find(it->first);
      if (own == n->labels.end() || own->second != it->second) {
        it = common.erase(it);
      } else {
        ++it;
      }
    }
  }
  return common;
}

// The taints every node of `nodes` carries (key, value and effect), in the
// first node's order, but the node lifecycle's node.kubernetes.io/* ones
// (unschedulable, not-ready, ...): a state of that node, not of the group.
std::vector<Taint> ImportCommonTaints(
    const std::vector<const ImportedNode*>& nodes) {
  std::vector<Taint> common;
  for (const Taint& t : nodes.front()->taints) {
    if (t.key.rfind("node.kubernetes.io/", 0) == 0) continue;
    bool everywhere = true;
    for (const ImportedNode* n : nodes) {
      everywhere = everywhere && std::find(n->taints.begin(), n->taints.end(),
                                           t) != n->taints.end();
    }
    if (everywhere) common.push_back(t);
  }
  return common;
}

}  // namespace

const std::vector<std::string>& NodeGroupLabelKeys() {
  static const std::vector<std::string> keys = {
      "karpenter.sh/nodepool",
      "cloud.google.com/gke-nodepool",
      "eks.amazonaws.com/nodegroup",
      "kubernetes.azure.com/agentpool",
      "node.kubernetes.io/instance-type",
      "nvidia.com/gpu.product"};
  return keys;
}

bool IsNodeName(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('.', start);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view label = name.substr(start, end - start);
    if (label.empty() || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return false;
      }
    }
    start = end + 1;
  }
  return true;
}

std::string NodeNameRule() {
  return "a node name must be a DNS-1123 subdomain: at most 253 characters, "
         "lowercase letters, digits, '-' and '.', each dot-separated part "
         "starting and ending with a letter or digit";
}

std::vector<NodePoolSpec> GroupNodePools(const std::vector<ImportedNode>& nodes,
                                         const std::string& prefix) {
  std::vector<ImportPoolDraft> drafts;
  std::map<std::string, size_t> by_key;        // group + shape -> draft
  std::map<std::string, int> shapes_in_group;  // group -> pools
  for (const ImportedNode& n : nodes) {
    auto [group_key, group_value] = ImportNodeGroup(n);
    const std::string group = group_key + "=" + group_value;
    const std::string key = group + "\n" + ImportShapeKey(n);
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      ++shapes_in_group[group];
      it = by_key.emplace(key, drafts.size()).first;
      drafts.push_back({std::move(group_key), std::move(group_value), &n, {}});
    }
    drafts[it->second].nodes.push_back(&n);
  }
  const std::string& product_key = NodeGroupLabelKeys().back();
  std::vector<NodePoolSpec> pools;
  std::set<std::string> names;
  std::map<std::string, int> next_suffix;
  for (const ImportPoolDraft& d : drafts) {
    const ImportedNode& n = *d.first;
    NodePoolSpec spec;
    std::string base;
    if (d.group_key.empty() || d.group_key == product_key) {
      base = ImportPoolNameOf(prefix + ImportShapeName(n));
    } else if (shapes_in_group[d.group_key + "=" + d.group_value] == 1) {
      base = ImportPoolNameOf(prefix + d.group_value);
    } else {
      // The group's name first: the shape is cut when the whole is long.
      base = ImportPoolNameOf(prefix + ImportPoolNameOf(d.group_value) + "-" +
                              ImportShapeName(n));
    }
    spec.name = base;
    int& k = next_suffix[base];
    while (!names.insert(spec.name).second) {
      spec.name = fmt::format("{}-{}", base, k < 2 ? (k = 2) : ++k);
    }
    spec.gpu_model = n.gpu_model;
    spec.gpus_per_node = n.gpus;
    spec.cpu_milli = n.cpu_milli;
    spec.memory_mib = n.memory_mib;
    spec.max_pods = n.max_pods;
    spec.sharing = n.sharing;
    spec.devices = n.devices;
    spec.dra = n.dra;
    spec.nodes = static_cast<int>(d.nodes.size());
    for (const ImportedNode* m : d.nodes) {
      spec.members.push_back({m->name, m->labels, m->taints});
    }
    spec.node_group_label_key = d.group_key;
    spec.node_group_label_value = d.group_value;
    spec.new_node_labels = ImportCommonLabels(d.nodes);
    spec.new_node_taints = ImportCommonTaints(d.nodes);
    pools.push_back(std::move(spec));
  }
  return pools;
}

}  // namespace gpushare
