#include "gpushare/report/plan_json.h"

#include "gpushare/report/comparison_json.h"
#include "gpushare/report/plan_report.h"

namespace gpushare {
namespace {

using nlohmann::json;

json CheckJson(const ConstraintCheck& c) {
  return {{"tenant_class",
           c.tenant_class.empty() ? json(nullptr) : json(c.tenant_class)},
          {"constraint", c.constraint},
          {"value", c.value},
          {"limit", c.limit},
          {"margin", c.margin},
          {"met", c.met()},
          {"lost_gpu_hours", IsLostWorkConstraint(c.constraint)
                                 ? json(c.lost_gpu_hours)
                                 : json(nullptr)}};
}

json ChecksJson(const std::vector<ConstraintCheck>& checks) {
  json out = json::array();
  for (const ConstraintCheck& c : checks) out.push_back(CheckJson(c));
  return out;
}

json SeedMissesJson(const std::vector<SeedMisses>& misses) {
  json out = json::array();
  for (const SeedMisses& m : misses) {
    out.push_back({{"seed", m.seed}, {"missed", ChecksJson(m.missed)}});
  }
  return out;
}

json QuotaBoundJson(const std::vector<QuotaBoundClass>& classes) {
  json out = json::array();
  for (const QuotaBoundClass& q : classes) {
    out.push_back({{"tenant_class", q.tenant_class},
                   {"queue", q.queue.empty() ? json(nullptr) : json(q.queue)},
                   {"mean_wait_s", q.mean_wait_s},
                   {"mean_admission_wait_s", q.mean_admission_wait_s},
                   {"idle_at_quota_share", q.idle_at_quota_share},
                   {"free_at_quota", q.free_at_quota},
                   {"free_resource", q.free_resource},
                   {"pinned", q.pinned}});
  }
  return out;
}

json OutcomeJson(const PlanOutcome& o) {
  json classes = json::object();
  for (const ClassMetrics& m : o.class_metrics) {
    classes[m.tenant_class] = ClassMetricsToJson(m);
  }
  return {{"name", o.name},         {"label", PlanOutcomeLabel(o)},
          {"classes", classes},
          {"in_space", o.in_space}, {"feasible", o.feasible},
          {"seeds", o.seeds}, {"seeds_feasible", o.seeds_feasible},
          {"gpus", o.gpus},         {"cost_per_hour", o.cost_per_hour},
          {"pools", o.pools},       {"checks", ChecksJson(o.checks)},
          {"quota_bound", QuotaBoundJson(o.quota_bound)}};
}

json RejectedJson(const RejectedPlan& r) {
  return {{"pool", r.pool},
          {"setting", r.setting},
          {"nodes", r.nodes},
          {"cost_per_hour", r.cost_per_hour},
          {"seeds", r.seeds},
          {"seeds_feasible", r.seeds_feasible},
          {"missed", ChecksJson(r.missed)},
          {"seed_misses", SeedMissesJson(r.seed_misses)}};
}

json PoolJson(const PoolPlan& p) {
  return {{"pool", p.pool},
          {"model", p.model},
          {"gpus_per_node", p.gpus_per_node},
          {"planned", p.planned},
          {"written", p.written},
          {"written_nodes", p.written_nodes},
          {"setting", p.setting},
          {"nodes", p.nodes},
          {"min_nodes", p.min_nodes},
          {"max_nodes", p.max_nodes},
          {"licence_per_gpu_hour", p.licence_per_gpu_hour},
          {"cost_per_hour", p.cost_per_hour},
          {"tenant_classes", p.tenant_classes},
          {"candidates", p.candidates},
          {"at_minimum", p.at_minimum},
          {"binding_known", p.binding_known},
          {"binding", ChecksJson(p.binding)},
          {"binding_seeds", p.binding_seeds},
          {"binding_seed_misses", SeedMissesJson(p.binding_seed_misses)},
          {"knife_edge",
           p.knife_edge
               ? json{{"nodes", p.nodes - 1},
                      {"oom_kills", p.edge_oom_kills},
                      {"failed", p.edge_failed},
                      {"evictions", p.edge_evictions},
                      {"lost_gpu_hours", p.edge_lost_gpu_hours},
                      {"text", KnifeEdgeText(p)}}
               : json(nullptr)},
          {"change_buys",
           p.change_buys.empty() ? json(nullptr) : json(p.change_buys)},
          {"kept_over", p.kept_over}};
}

json ProbeJson(const PlanProbe& p) {
  return {
      {"pool", p.pool},
      {"setting", p.candidate},
      {"nodes", p.nodes},
      {"pilot", p.pilot},
      {"feasible", p.feasible},
      {"cost_per_hour", p.cost_per_hour},
      {"min_slo_attainment",
       p.min_slo_attainment < 0 ? json(nullptr) : json(p.min_slo_attainment)},
      {"max_mean_wait_s", p.max_mean_wait_s},
      {"missed", ChecksJson(p.missed)},
      {"seeds", p.seeds},
      {"seeds_feasible", p.seeds_feasible},
      {"seed_misses", SeedMissesJson(p.seed_misses)}};
}

}  // namespace

json PlanToJson(const PlanResult& r) {
  json out;
  out["schema"] = "gpushare-sim/plan/v1";
  out["scenario"] = r.scenario;
  out["seed"] = r.seed;
  out["pods"] = r.pods;
  out["pilot_pods"] = r.pilot_pods;
  out["separable"] = r.separable;
  out["tenant_classes"] = r.tenant_classes;
  out["chosen_from"] = r.chosen_from;
  out["chosen"] = OutcomeJson(r.chosen);
  out["pools"] = json::array();
  for (const PoolPlan& p : r.pools) out["pools"].push_back(PoolJson(p));
  out["references"] = json::array();
  for (const PlanOutcome& o : r.references) {
    out["references"].push_back(OutcomeJson(o));
  }
  out["rejected"] = json::array();
  for (const RejectedPlan& x : r.rejected) {
    out["rejected"].push_back(RejectedJson(x));
  }
  out["search_log"] = json::array();
  for (const PlanProbe& p : r.log) out["search_log"].push_back(ProbeJson(p));
  out["simulations"] = r.simulations;
  out["budget_exhausted"] = r.budget_exhausted;
  out["notes"] = r.notes;
  return out;
}

std::string PlanToJsonText(const PlanResult& plan) {
  return PlanToJson(plan).dump(2) + "\n";
}

}  // namespace gpushare
