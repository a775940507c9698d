#include "gpushare/decide/plan_spec_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "gpushare/decide/class_constraints_reader.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

constexpr int kMaxNodes = 100000;

std::vector<std::string> PlanSchemeNames() {
  return {"exclusive", "time-slicing", "mps", "mig", "hami"};
}

// The nodes a pool may get when its entry does not say (an imported pool's
// as a written one's: cluster/cluster.h ResizePool grows it with new nodes
// or drops its last).
void DefaultRange(const NodePoolSpec& pool, PlanPoolSpec* out) {
  out->min_nodes = 1;
  out->max_nodes = std::max(1, 2 * pool.nodes);
}

void ReadNodes(const YamlMap& m, PlanPoolSpec* out) {
  const std::string what = m.what() + ".nodes";
  const YAML::Node v = m.Get("nodes");
  if (v.IsMap()) {
    const YamlMap r(m.file(), v, what);
    r.AllowOnly({"min", "max"});
    out->min_nodes = static_cast<int>(r.Int("min", 1, kMaxNodes));
    out->max_nodes = static_cast<int>(r.Int("max", 1, kMaxNodes));
    if (out->min_nodes > out->max_nodes) {
      FailAt(m.file(), v,
             fmt::format("{}: min {} is above max {}", what, out->min_nodes,
                         out->max_nodes));
    }
  } else {
    out->min_nodes = out->max_nodes =
        static_cast<int>(ScalarInt(m.file(), v, what, 1, kMaxNodes));
  }
}

std::vector<int> ReadCounts(const YamlMap& m, std::string_view key, int min,
                            int max) {
  const std::vector<int64_t> list = m.IntList(key, min, max);
  const YAML::Node node = m.Get(key);
  if (list.empty()) {
    FailAt(m.file(), node,
           fmt::format("{}.{}: expected a non-empty list", m.what(), key));
  }
  std::vector<int> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const int v = static_cast<int>(list[i]);
    if (std::find(out.begin(), out.end(), v) != out.end()) {
      FailAt(m.file(), node[i],
             fmt::format("{}.{}: {} is listed twice", m.what(), key, v));
    }
    out.push_back(v);
  }
  return out;
}

std::vector<SharingScheme> ReadSchemes(const YamlMap& m) {
  const YAML::Node list = m.Get("schemes");
  const std::string what = m.what() + ".schemes";
  if (!list.IsSequence() || list.size() == 0) {
    FailAt(m.file(), list,
           what + ": expected a non-empty list of sharing schemes (" +
               JoinNames(PlanSchemeNames()) + "), got " +
               DescribeYamlNode(list));
  }
  std::vector<SharingScheme> out;
  for (const YAML::Node& item : list) {
    const std::string text = ScalarString(m.file(), item, what);
    SharingScheme s;
    if (!ParseSharingScheme(text, &s)) {
      FailAt(m.file(), item,
             fmt::format("{}: unknown sharing scheme '{}'{} (allowed: {})",
                         what, text, DidYouMean(text, PlanSchemeNames(), 1),
                         JoinNames(PlanSchemeNames())));
    }
    if (std::find(out.begin(), out.end(), s) != out.end()) {
      FailAt(m.file(), item,
             fmt::format("{}: '{}' is listed twice", what, text));
    }
    out.push_back(s);
  }
  return out;
}

PlanPoolSpec ReadPlanPool(const YamlMap& m, const NodePoolSpec& pool) {
  m.AllowOnly({"nodes", "schemes", "time_slicing_replicas", "mps_replicas",
               "hami_split_counts", "mig_layouts", "mig_mixes"});
  PlanPoolSpec out;
  out.pool = pool.name;
  DefaultRange(pool, &out);
  if (m.Has("nodes")) ReadNodes(m, &out);
  if (m.Has("schemes")) out.schemes = ReadSchemes(m);
  if (m.Has("time_slicing_replicas")) {
    out.time_slicing_replicas = ReadCounts(m, "time_slicing_replicas", 2, 1024);
  }
  if (m.Has("mps_replicas")) {
    // The MPS control daemon serves at most 48 clients per GPU.
    out.mps_replicas = ReadCounts(m, "mps_replicas", 2, 48);
  }
  if (m.Has("hami_split_counts")) {
    out.hami_split_counts = ReadCounts(m, "hami_split_counts", 1, 1024);
  }
  if (m.Has("mig_layouts")) {
    const YAML::Node v = m.Get("mig_layouts");
    const std::string text =
        ScalarString(m.file(), v, m.what() + ".mig_layouts");
    if (text == "all") {
      out.mig_layouts = MigLayoutChoice::kAll;
    } else if (text == "named") {
      out.mig_layouts = MigLayoutChoice::kNamed;
    } else {
      FailAt(m.file(), v,
             fmt::format("{}.mig_layouts: expected all (named configs and "
                         "every maximal layout) or named, got '{}'",
                         m.what(), text));
    }
  }
  if (m.Has("mig_mixes")) out.mig_mixes = m.Bool("mig_mixes");
  return out;
}

std::vector<PlanPoolSpec> ReadPools(const YamlMap& plan,
                                    const Scenario& scenario) {
  std::vector<PlanPoolSpec> out;
  if (!plan.Has("pools")) {
    for (const NodePoolSpec& pool : scenario.pools) {
      if (pool.gpus_per_node == 0) continue;
      PlanPoolSpec p;
      p.pool = pool.name;
      DefaultRange(pool, &p);
      out.push_back(p);
    }
    return out;
  }
  const YamlMap pools = plan.Map("pools", "plan.pools");
  std::vector<std::string> names;
  for (const NodePoolSpec& pool : scenario.pools) names.push_back(pool.name);
  std::set<std::string> seen;
  for (const auto& kv : pools.node()) {
    const std::string name =
        ScalarString(plan.file(), kv.first, "plan.pools key");
    const auto it =
        std::find_if(scenario.pools.begin(), scenario.pools.end(),
                     [&](const NodePoolSpec& p) { return p.name == name; });
    if (it == scenario.pools.end()) {
      FailAt(plan.file(), kv.first,
             fmt::format("plan.pools: unknown node pool '{}'{} (the "
                         "cluster's pools: {})",
                         name, DidYouMean(name, names, 1), JoinNames(names)));
    }
    if (!seen.insert(name).second) {
      FailAt(plan.file(), kv.first,
             fmt::format("plan.pools: '{}' is given twice", name));
    }
    if (it->gpus_per_node == 0) {
      FailAt(plan.file(), kv.first,
             fmt::format("plan.pools: pool '{}' has no GPUs: there is no "
                         "sharing to plan",
                         name));
    }
    YAML::Node value = kv.second;
    if (value.IsNull()) value = YAML::Node(YAML::NodeType::Map);
    out.push_back(
        ReadPlanPool(YamlMap(plan.file(), value, "plan.pools." + name), *it));
  }
  // In cluster order, whatever the file's order.
  std::sort(out.begin(), out.end(),
            [&](const PlanPoolSpec& a, const PlanPoolSpec& b) {
              return std::find(names.begin(), names.end(), a.pool) <
                     std::find(names.begin(), names.end(), b.pool);
            });
  return out;
}

void ReadClassEntry(const YamlMap& m, ClassConstraints* c) {
  m.AllowOnly({"min_slo_attainment", "max_mean_wait_s", "max_p99_wait_s",
               "max_oom_kills", "max_failed", "max_cannot_run", "max_pending",
               "max_preemptions", "max_mean_slowdown",
               "needs_memory_isolation"});
  ReadClassConstraintKeys(m, c);
}

void ReadConstraints(const YamlMap& plan, const Scenario& scenario,
                     const SelectionSpec& selection, PlanSpec* spec) {
  const std::vector<TenantClassInfo> tenant_classes =
      ScenarioTenantClasses(scenario);
  std::vector<std::string> class_names;
  for (const TenantClassInfo& t : tenant_classes) {
    // The class's contract in the selection, with no pod left never
    // started (plan sizes the cluster, so a queue at the horizon is its
    // answer to fix).
    ClassConstraints c = DefaultClassConstraints(t.workload_class);
    c.min_slo_attainment = selection.min_slo_attainment;
    for (const ClassSelection& s : selection.classes) {
      if (s.tenant_class != t.name) continue;
      c = s.served_well;
      if (c.max_pending < 0) c.max_pending = 0;
    }
    c.tenant_class = t.name;
    spec->classes.push_back(c);
    class_names.push_back(t.name);
  }
  if (!plan.Has("constraints")) return;
  const YamlMap m = plan.Map("constraints", "plan.constraints");
  m.AllowOnly({"classes", "cluster"});
  if (m.Has("classes")) {
    const YamlMap classes = m.Map("classes", "plan.constraints.classes");
    std::set<std::string> seen;
    for (const auto& kv : classes.node()) {
      const std::string name =
          ScalarString(plan.file(), kv.first, "plan.constraints.classes key");
      const auto it = std::find(class_names.begin(), class_names.end(), name);
      if (it == class_names.end()) {
        FailAt(plan.file(), kv.first,
               fmt::format("plan.constraints.classes: unknown tenant class "
                           "'{}'{} (the workload's classes: {})",
                           name, DidYouMean(name, class_names, 1),
                           JoinNames(class_names)));
      }
      if (!seen.insert(name).second) {
        FailAt(
            plan.file(), kv.first,
            fmt::format("plan.constraints.classes: '{}' is given twice", name));
      }
      ReadClassEntry(
          YamlMap(plan.file(), kv.second, "plan.constraints.classes." + name),
          &spec->classes[it - class_names.begin()]);
    }
  }
  if (m.Has("cluster")) {
    const YamlMap c = m.Map("cluster", "plan.constraints.cluster");
    c.AllowOnly({"max_gpus", "max_cost_per_hour"});
    if (c.Has("max_gpus"))
      spec->cluster.max_gpus = c.Int("max_gpus", 1, 100000000);
    if (c.Has("max_cost_per_hour")) {
      spec->cluster.max_cost_per_hour = c.Double("max_cost_per_hour", 0, 1e9);
    }
  }
}

PlanSearchSpec ReadSearch(const YamlMap& plan) {
  PlanSearchSpec s;
  if (!plan.Has("search")) return s;
  const YamlMap m = plan.Map("search", "plan.search");
  m.AllowOnly({"pilot_pods", "finalists", "rounds"});
  if (m.Has("pilot_pods")) s.pilot_pods = m.Int("pilot_pods", 0, 1000000000);
  if (m.Has("finalists"))
    s.finalists = static_cast<int>(m.Int("finalists", 1, 100));
  if (m.Has("rounds")) s.rounds = static_cast<int>(m.Int("rounds", 1, 20));
  return s;
}

// The queues whose quotas keep their size: names of the scenario's Kueue
// ClusterQueues or KAI queues, each once.
std::vector<std::string> ReadPinnedQuotas(const YamlMap& plan,
                                          const Scenario& scenario) {
  if (!plan.Has("pinned_quotas")) return {};
  std::vector<std::string> names;
  for (const ClusterQueueSpec& q : scenario.queues.cluster_queues) {
    names.push_back(q.name);
  }
  for (const KaiQueueSpec& q : scenario.kai_queues.queues) {
    names.push_back(q.name);
  }
  const std::vector<std::string> list = plan.StringList("pinned_quotas");
  const YAML::Node node = plan.Get("pinned_quotas");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (std::find(names.begin(), names.end(), list[i]) == names.end()) {
      FailAt(plan.file(), node[i],
             names.empty()
                 ? fmt::format("plan.pinned_quotas: '{}': the scenario has "
                               "no queues (queues or kai_queues)",
                               list[i])
                 : fmt::format("plan.pinned_quotas: unknown queue '{}'{} "
                               "(the scenario's queues: {})",
                               list[i], DidYouMean(list[i], names, 1),
                               JoinNames(names)));
    }
    if (std::find(out.begin(), out.end(), list[i]) != out.end()) {
      FailAt(plan.file(), node[i],
             fmt::format("plan.pinned_quotas: '{}' is listed twice",
                         list[i]));
    }
    out.push_back(list[i]);
  }
  return out;
}

}  // namespace

PlanSpec ReadPlanSpec(const std::string& text, const std::string& file,
                      const Scenario& scenario,
                      const SelectionSpec& selection) {
  YAML::Node root = ParseYaml(text, file);
  if (!root.IsDefined() || root.IsNull())
    root.reset(YAML::Node(YAML::NodeType::Map));
  const YamlMap top(file, root, "scenario");
  YAML::Node section = YAML::Node(YAML::NodeType::Map);
  if (top.Has("plan")) {
    section.reset(top.Get("plan"));
    if (section.IsNull()) section.reset(YAML::Node(YAML::NodeType::Map));
  }
  const YamlMap plan(file, section, "plan");
  plan.AllowOnly({"pools", "constraints", "search", "pinned_quotas"});
  PlanSpec spec;
  spec.pools = ReadPools(plan, scenario);
  ReadConstraints(plan, scenario, selection, &spec);
  spec.search = ReadSearch(plan);
  spec.pinned_quotas = ReadPinnedQuotas(plan, scenario);
  return spec;
}

}  // namespace gpushare
