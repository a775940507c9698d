#include "gpushare/emit/plan_scenario_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

// A string scalar set here, tagged "!" as a quoted scalar of the source is,
// so that EmitPlanNode quotes it when plain would read as another type.
YAML::Node PlanString(const std::string& s) {
  YAML::Node node(s);
  node.SetTag("!");
  return node;
}

// Where a node stands: a map's key or value, or anything else.
enum class PlanNodeRole { kOther, kKey, kValue };

// Writes `node` to `out` as `out << node` does (the manipulators of
// yaml-cpp's EmitFromEvents, which its library does not export), except
// that a string scalar — quoted in the source or set by PlanString, tag "!"
// — that a reader would take for a boolean, null or number when plain
// (emit/quoting.h YamlPlainIsNotString) is double-quoted: yaml-cpp's emitter
// writes the string "true" as `true`; and a scalar with a character
// YamlBlockPrintable refuses is double-quoted with every non-ASCII character
// escaped. An alias is written out as a copy of its anchor's node.
void EmitPlanNode(const YAML::Node& node, YAML::Emitter& out,
                  PlanNodeRole role) {
  if (!node.IsDefined()) return;
  if (role == PlanNodeRole::kKey) out << YAML::Key;
  if (role == PlanNodeRole::kValue) out << YAML::Value;
  const std::string& tag = node.Tag();
  if (!node.IsNull() && !tag.empty() && tag != "?" && tag != "!") {
    out << YAML::VerbatimTag(tag);
  }
  if (node.IsNull()) {
    out << YAML::Null;
  } else if (node.IsScalar()) {
    if (tag == "!" && YamlPlainIsNotString(node.Scalar())) {
      out << YAML::DoubleQuoted;
    }
    // yaml-cpp writes DEL, U+2028, U+2029, U+FFFE and U+FFFF raw, which
    // YAML 1.1 readers refuse or take as line breaks: escaped with the rest.
    if (!YamlBlockPrintable(node.Scalar())) {
      out << YAML::DoubleQuoted << YAML::EscapeNonAscii;
    }
    out << node.Scalar();
  } else {
    if (node.Style() == YAML::EmitterStyle::Block) out << YAML::Block;
    if (node.Style() == YAML::EmitterStyle::Flow) out << YAML::Flow;
    out.RestoreGlobalModifiedSettings();
    if (node.IsSequence()) {
      out << YAML::BeginSeq;
      for (const YAML::Node& item : node) {
        EmitPlanNode(item, out, PlanNodeRole::kOther);
      }
      out << YAML::EndSeq;
    } else {
      out << YAML::BeginMap;
      for (const auto& kv : node) {
        EmitPlanNode(kv.first, out, PlanNodeRole::kKey);
        EmitPlanNode(kv.second, out, PlanNodeRole::kValue);
      }
      out << YAML::EndMap;
    }
  }
}

YAML::Node ReplicaFields(const ReplicaSettings& r, bool mps, YAML::Node node) {
  node["replicas"] = r.replicas;
  if (r.rename_by_default) node["rename_by_default"] = true;
  if (r.fail_requests_greater_than_one != mps) {
    node["fail_requests_greater_than_one"] = r.fail_requests_greater_than_one;
  }
  if (r.policy == ReplicaPolicy::kPacked) node["replica_policy"] = "packed";
  return node;
}

YAML::Node SharingNode(const SharingConfig& s) {
  YAML::Node node(YAML::NodeType::Map);
  node["scheme"] = std::string(SharingSchemeName(s.scheme()));
  if (s.mig_enabled) {
    if (!s.mig.dynamic) {
      node["mig_strategy"] =
          s.mig.strategy == MigStrategy::kMixed ? "mixed" : "single";
    }
    if (s.mig.dynamic) {
      // No layout: the pool's dra.dynamic_mig (PlanScenarioYaml).
    } else if (!s.mig.config_name.empty()) {
      node["mig_config"] = PlanString(s.mig.config_name);
    } else if (s.mig.layouts.size() == 1) {
      YAML::Node items(YAML::NodeType::Sequence);
      for (const std::string& i : s.mig.layouts[0]) {
        items.push_back(PlanString(i));
      }
      items.SetStyle(YAML::EmitterStyle::Flow);
      node["mig_layouts"] = items;
    } else {
      YAML::Node layouts(YAML::NodeType::Sequence);
      for (const std::vector<std::string>& l : s.mig.layouts) {
        YAML::Node items(YAML::NodeType::Sequence);
        for (const std::string& i : l) items.push_back(PlanString(i));
        items.SetStyle(YAML::EmitterStyle::Flow);
        layouts.push_back(items);
      }
      node["mig_layouts"] = layouts;
    }
  }
  switch (s.sharing) {
    case DeviceSharing::kNone:
      break;
    case DeviceSharing::kTimeSlicing:
      node.reset(ReplicaFields(s.replicas, false, node));
      break;
    case DeviceSharing::kMps:
      node.reset(ReplicaFields(s.replicas, true, node));
      break;
    case DeviceSharing::kHami: {
      YAML::Node h(YAML::NodeType::Map);
      const HamiSettings& v = s.hami;
      h["split_count"] = v.split_count;
      h["memory_scaling"] = v.memory_scaling;
      h["core_scaling"] = v.core_scaling;
      h["default_memory_mib"] = v.default_memory_mib;
      h["default_cores"] = v.default_cores;
      h["node_policy"] =
          v.node_policy == HamiPolicy::kBinpack ? "binpack" : "spread";
      h["gpu_policy"] =
          v.gpu_policy == HamiPolicy::kBinpack ? "binpack" : "spread";
      node["hami"] = h;
      break;
    }
  }
  return node;
}

// The scenario's `kai_queues` section (docs/scenario.md) for `config`,
// whole: the quotas and limits as the plan scaled them.
YAML::Node KaiQueuesNode(const KaiConfig& config) {
  YAML::Node node(YAML::NodeType::Map);
  if (config.reclaimer_utilization_multiplier != 1) {
    node["reclaimer_utilization_multiplier"] =
        config.reclaimer_utilization_multiplier;
  }
  YAML::Node queues(YAML::NodeType::Sequence);
  for (const KaiQueueSpec& q : config.queues) {
    YAML::Node queue(YAML::NodeType::Map);
    queue["name"] = PlanString(q.name);
    if (!q.parent.empty()) queue["parent"] = PlanString(q.parent);
    if (q.priority != 0) queue["priority"] = q.priority;
    YAML::Node gpu(YAML::NodeType::Map);
    gpu["quota"] = q.gpu_quota;
    gpu["over_quota_weight"] = q.gpu_over_quota_weight;
    gpu["limit"] = q.gpu_limit;
    queue["gpu"] = gpu;
    queues.push_back(queue);
  }
  node["queues"] = queues;
  return node;
}

// The scenario's `queues` section (docs/scenario.md) for `config`, whole:
// the quotas as the plan converted them, imports written out.
YAML::Node QueuesNode(const KueueConfig& config) {
  YAML::Node node(YAML::NodeType::Map);
  YAML::Node flavors(YAML::NodeType::Sequence);
  for (const ResourceFlavorSpec& f : config.resource_flavors) {
    YAML::Node flavor(YAML::NodeType::Map);
    flavor["name"] = PlanString(f.name);
    if (!f.node_labels.empty()) {
      YAML::Node labels(YAML::NodeType::Map);
      for (const auto& [key, value] : f.node_labels) {
        labels[PlanString(key)] = PlanString(value);
      }
      flavor["node_labels"] = labels;
    }
    flavors.push_back(flavor);
  }
  node["resource_flavors"] = flavors;
  YAML::Node queues(YAML::NodeType::Sequence);
  for (const ClusterQueueSpec& q : config.cluster_queues) {
    YAML::Node cq(YAML::NodeType::Map);
    cq["name"] = PlanString(q.name);
    if (!q.cohort.empty()) cq["cohort"] = PlanString(q.cohort);
    cq["queueing_strategy"] =
        std::string(QueueingStrategyName(q.queueing_strategy));
    YAML::Node preemption(YAML::NodeType::Map);
    preemption["within_cluster_queue"] =
        std::string(KueuePreemptionPolicyName(q.within_cluster_queue));
    preemption["reclaim_within_cohort"] =
        std::string(KueuePreemptionPolicyName(q.reclaim_within_cohort));
    if (q.borrow_within_cohort != KueuePreemptionPolicy::kNever) {
      YAML::Node borrow(YAML::NodeType::Map);
      borrow["policy"] =
          std::string(KueuePreemptionPolicyName(q.borrow_within_cohort));
      if (q.borrow_max_priority_threshold) {
        borrow["max_priority_threshold"] = *q.borrow_max_priority_threshold;
      }
      preemption["borrow_within_cohort"] = borrow;
    }
    cq["preemption"] = preemption;
    YAML::Node groups(YAML::NodeType::Sequence);
    for (const ResourceGroupSpec& g : q.resource_groups) {
      YAML::Node group(YAML::NodeType::Map);
      YAML::Node covered(YAML::NodeType::Sequence);
      for (const std::string& r : g.covered_resources) {
        covered.push_back(PlanString(r));
      }
      covered.SetStyle(YAML::EmitterStyle::Flow);
      group["covered_resources"] = covered;
      YAML::Node fqs(YAML::NodeType::Sequence);
      for (const FlavorQuotasSpec& fq : g.flavors) {
        YAML::Node f(YAML::NodeType::Map);
        f["name"] = PlanString(fq.flavor);
        YAML::Node resources(YAML::NodeType::Sequence);
        for (const ResourceQuotaSpec& r : fq.resources) {
          YAML::Node rn(YAML::NodeType::Map);
          rn["name"] = PlanString(r.resource);
          rn["nominal_quota"] = KueueQuantityText(r.resource, r.nominal_quota);
          if (r.borrowing_limit) {
            rn["borrowing_limit"] =
                KueueQuantityText(r.resource, *r.borrowing_limit);
          }
          if (r.lending_limit) {
            rn["lending_limit"] =
                KueueQuantityText(r.resource, *r.lending_limit);
          }
          rn.SetStyle(YAML::EmitterStyle::Flow);
          resources.push_back(rn);
        }
        f["resources"] = resources;
        fqs.push_back(f);
      }
      group["flavors"] = fqs;
      groups.push_back(group);
    }
    cq["resource_groups"] = groups;
    queues.push_back(cq);
  }
  node["cluster_queues"] = queues;
  YAML::Node locals(YAML::NodeType::Sequence);
  for (const LocalQueueSpec& l : config.local_queues) {
    YAML::Node lq(YAML::NodeType::Map);
    lq["name"] = PlanString(l.name);
    lq["namespace"] = PlanString(l.namespace_name);
    lq["cluster_queue"] = PlanString(l.cluster_queue);
    lq.SetStyle(YAML::EmitterStyle::Flow);
    locals.push_back(lq);
  }
  node["local_queues"] = locals;
  if (!config.device_class_mappings.empty()) {
    YAML::Node mappings(YAML::NodeType::Sequence);
    for (const DeviceClassMappingSpec& m : config.device_class_mappings) {
      YAML::Node mapping(YAML::NodeType::Map);
      mapping["name"] = PlanString(m.name);
      YAML::Node classes(YAML::NodeType::Sequence);
      for (const std::string& c : m.device_class_names) {
        classes.push_back(PlanString(c));
      }
      classes.SetStyle(YAML::EmitterStyle::Flow);
      mapping["device_class_names"] = classes;
      mapping.SetStyle(YAML::EmitterStyle::Flow);
      mappings.push_back(mapping);
    }
    node["device_class_mappings"] = mappings;
  }
  return node;
}

// Rewrites the path at `parent[key]` (a scalar, or a list of them), written
// relative to `dir`, as PathForFolder() gives it for `folder`.
void RebasePath(YAML::Node parent, const std::string& key,
                const std::string& dir, const std::string& folder) {
  if (!parent.IsMap() || !parent[key]) return;
  YAML::Node value = parent[key];
  if (value.IsScalar()) {
    parent[key] = PlanString(PathForFolder(value.Scalar(), dir, folder));
  } else if (value.IsSequence()) {
    for (size_t i = 0; i < value.size(); ++i) {
      if (!value[i].IsScalar()) continue;
      value[i] = PlanString(PathForFolder(value[i].Scalar(), dir, folder));
    }
  }
}

// Whether the class's pods keep shared claims under the plan: the first pool
// they may land on (their gpushare.io/node-pool selector, the taints they
// tolerate) is a DRA pool of whole GPUs without extended_resource, as the
// scenario reader requires of `dra_claim`.
bool PlanKeepsSharedClaims(const WorkloadClassSpec& c,
                           const std::vector<NodePoolSpec>& pools) {
  const auto selected = c.node_selector.find(kNodePoolLabel);
  for (const NodePoolSpec& pool : pools) {
    if (selected != c.node_selector.end() && selected->second != pool.name) {
      continue;
    }
    bool tolerated = true;
    for (const Taint& taint : pool.taints) {
      if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
      tolerated = tolerated &&
                  std::any_of(c.tolerations.begin(), c.tolerations.end(),
                              [&](const Toleration& t) {
                                return t.Tolerates(taint);
                              });
    }
    if (!tolerated) continue;
    return pool.devices == PoolDevices::kDra && pool.gpus_per_node > 0 &&
           !pool.dra.extended_resource && !pool.sharing.mig_enabled;
  }
  return false;
}
}  // namespace

std::string PathForFolder(const std::string& path, const std::string& dir,
                          const std::string& folder) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.empty() || p.is_absolute()) return path;
  const fs::path target =
      fs::absolute(fs::path(dir.empty() ? "." : dir) / p).lexically_normal();
  if (folder.empty()) return target.string();
  const fs::path from = fs::absolute(fs::path(folder)).lexically_normal();
  const fs::path relative = target.lexically_relative(from);
  return relative.empty() ? target.string() : relative.string();
}

std::string PlanScenarioYaml(const std::string& text, const std::string& file,
                             const Scenario& plan, const std::string& header,
                             const std::string& folder) {
  YAML::Node root = YAML::Clone(ParseYaml(text, file));
  YAML::Node cluster = root["cluster"];
  YAML::Node pools = cluster.IsMap() ? cluster["pools"] : YAML::Node();
  YAML::Node import = cluster.IsMap() ? cluster["import"] : YAML::Node();
  if (!pools.IsSequence() && !import.IsMap()) {
    throw InputError(file, 1, 1,
                     "plan: the scenario has no cluster.pools list or "
                     "cluster.import to rewrite");
  }
  std::set<std::string> written;
  if (pools.IsSequence()) {
    for (YAML::Node pool : pools) {
      const std::string name = pool["name"].as<std::string>();
      const NodePoolSpec* spec = nullptr;
      for (const NodePoolSpec& p : plan.pools) {
        if (p.name == name && p.members.empty()) spec = &p;
      }
      if (spec == nullptr) {
        throw InputError(file, 1, 1,
                         fmt::format("plan: pool '{}' is not in the plan",
                                     name));
      }
      written.insert(name);
      pool["nodes"] = spec->nodes;
      pool["sharing"] = SharingNode(spec->sharing);
      // A DRA pool the plan runs through the device plugin
      // (UseDevicePluginWhereDraCannot): its `devices` and `dra` keys go.
      if (spec->devices == PoolDevices::kDevicePlugin) {
        if (pool["devices"]) pool.remove("devices");
        if (pool["dra"]) pool.remove("dra");
      } else if (pool["dra"] && pool["dra"].IsMap() && pool["dra"]["mps"] &&
                 spec->sharing.scheme() != SharingScheme::kMps) {
        // "DRA MPS" settings go with scheme mps.
        pool["dra"].remove("mps");
        if (pool["dra"].size() == 0) pool.remove("dra");
      }
      if (spec->sharing.mig_enabled && spec->sharing.mig.dynamic) {
        // Dynamic MIG: a DRA pool with the driver's DynamicMIG and no other
        // driver setting (MakeDynamicMigVariant).
        pool["devices"] = "dra";
        YAML::Node dra(YAML::NodeType::Map);
        dra["dynamic_mig"] = true;
        dra.SetStyle(YAML::EmitterStyle::Flow);
        pool["dra"] = dra;
      } else if (pool["dra"] && pool["dra"].IsMap() &&
                 pool["dra"]["dynamic_mig"]) {
        pool["dra"].remove("dynamic_mig");
        if (pool["dra"].size() == 0) pool.remove("dra");
      }
      if (spec->licence_per_gpu_hour > 0) {
        pool["licence_per_gpu_hour"] = spec->licence_per_gpu_hour;
      } else if (pool["licence_per_gpu_hour"]) {
        pool.remove("licence_per_gpu_hour");
      }
    }
  }
  // Imported pools: `cluster.import.pools` overrides, one per pool, so the
  // nodes read again are grouped as before and then resized and set.
  YAML::Node overrides(YAML::NodeType::Map);
  for (const NodePoolSpec& p : plan.pools) {
    if (written.count(p.name) > 0) continue;
    if (p.members.empty() || !import.IsMap()) {
      throw InputError(
          file, 1, 1,
          fmt::format("plan: pool '{}' is neither written nor imported in the "
                      "scenario",
                      p.name));
    }
    YAML::Node o(YAML::NodeType::Map);
    o["nodes"] = p.nodes;
    if (p.gpus_per_node > 0) o["sharing"] = SharingNode(p.sharing);
    if (p.licence_per_gpu_hour > 0) {
      o["licence_per_gpu_hour"] = p.licence_per_gpu_hour;
    }
    overrides[PlanString(p.name)] = o;
  }
  if (import.IsMap()) {
    import.SetStyle(YAML::EmitterStyle::Block);
    if (overrides.size() > 0) {
      import["pools"] = overrides;
    } else if (import["pools"]) {
      import.remove("pools");
    }
  }
  YAML::Node classes = root["workload"]["classes"];
  if (classes.IsSequence()) {
    for (YAML::Node c : classes) {
      if (!c["dra_claim"] || !c["name"]) continue;
      // A class whose pool the plan moved off DRA whole GPUs shares no
      // claims there (the simulation gave its pods their own).
      const std::string name = c["name"].as<std::string>();
      for (const WorkloadClassSpec& w : plan.workload.classes) {
        if (w.name == name && !PlanKeepsSharedClaims(w, plan.pools)) {
          c.remove("dra_claim");
        }
      }
    }
    for (YAML::Node c : classes) {
      if (!c["requests"] || !c["name"]) continue;
      const std::string name = c["name"].as<std::string>();
      for (const WorkloadClassSpec& w : plan.workload.classes) {
        if (w.name == name && w.requests.empty()) c.remove("requests");
      }
    }
  }
  // Kueue quotas follow the pools' schemes (decide/queue_quota_conversion.h).
  if (plan.queues.enabled()) root["queues"] = QueuesNode(plan.queues);
  if (plan.kai_queues.enabled()) {
    root["kai_queues"] = KaiQueuesNode(plan.kai_queues);
  }
  // The scenario's paths are relative to its own folder; the result's to
  // `folder`, where it is written.
  const std::string dir = std::filesystem::path(file).parent_path().string();
  if (root["workload"] && root["workload"]["trace"]) {
    RebasePath(root["workload"]["trace"], "file", dir, folder);
    RebasePath(root["workload"]["trace"], "metrics", dir, folder);
  }
  if (root["cluster"]) RebasePath(root["cluster"]["import"], "file", dir, folder);
  if (root["queues"] && root["queues"]["import"]) {
    for (const char* key :
         {"resource_flavors", "cluster_queues", "local_queues"}) {
      RebasePath(root["queues"]["import"], key, dir, folder);
    }
  }
  if (root["kai_queues"]) RebasePath(root["kai_queues"], "import", dir, folder);
  YAML::Emitter out;
  out.SetIndent(2);
  EmitPlanNode(root, out, PlanNodeRole::kOther);
  std::ostringstream text_out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) {
    text_out << (line.empty() ? "#" : "# " + CommentText(line)) << "\n";
  }
  text_out << out.c_str() << "\n";
  return text_out.str();
}

}  // namespace gpushare
