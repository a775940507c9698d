#include "gpushare/workload/imported_nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace gpushare {
namespace {

// Everything but identity, as a key.
std::string GroupKey(const ImportedNode& n) {
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
  return key;
}

// A DNS-label-safe base name for a group.
std::string BaseName(const ImportedNode& n, const std::string& prefix) {
  std::string name = prefix;
  if (n.gpus == 0) {
    name += "cpu";
  } else {
    name += fmt::format("{}-x{}", n.gpu_model, n.gpus);
    const SharingScheme scheme = n.sharing.scheme();
    if (scheme != SharingScheme::kExclusive) {
      name += "-" + std::string(SharingSchemeName(scheme));
    }
  }
  std::string out;
  for (char c : name) {
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

}  // namespace

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
  std::vector<NodePoolSpec> pools;
  std::map<std::string, size_t> by_key;
  std::set<std::string> names;
  std::map<std::string, int> next_suffix;
  for (const ImportedNode& n : nodes) {
    const std::string key = GroupKey(n);
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      NodePoolSpec spec;
      const std::string base = BaseName(n, prefix);
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
      spec.nodes = 0;
      it = by_key.emplace(key, pools.size()).first;
      pools.push_back(std::move(spec));
    }
    NodePoolSpec& pool = pools[it->second];
    ++pool.nodes;
    pool.members.push_back({n.name, n.labels, n.taints});
  }
  return pools;
}

}  // namespace gpushare
