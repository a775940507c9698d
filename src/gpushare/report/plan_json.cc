#include "gpushare/report/plan_json.h"

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
          {"met", c.met()}};
}

json ChecksJson(const std::vector<ConstraintCheck>& checks) {
  json out = json::array();
  for (const ConstraintCheck& c : checks) out.push_back(CheckJson(c));
  return out;
}

json OutcomeJson(const PlanOutcome& o) {
  return {{"name", o.name},         {"label", PlanOutcomeLabel(o)},
          {"in_space", o.in_space}, {"feasible", o.feasible},
          {"seeds", o.seeds}, {"seeds_feasible", o.seeds_feasible},
          {"gpus", o.gpus},         {"cost_per_hour", o.cost_per_hour},
          {"pools", o.pools},       {"checks", ChecksJson(o.checks)}};
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
          {"binding", ChecksJson(p.binding)}};
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
      {"missed", ChecksJson(p.missed)}};
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
