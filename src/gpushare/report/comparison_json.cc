#include "gpushare/report/comparison_json.h"

#include "gpushare/decide/scheme_variant.h"

namespace gpushare {
namespace {

using nlohmann::json;

json MetricsJsonWithoutEngines(const ClassMetrics& m);

json MetricsJson(const ClassMetrics& m) { return ClassMetricsToJson(m); }

json MetricsJsonWithoutEngines(const ClassMetrics& m) {
  return {{"pods", m.pods},
          {"served", m.served},
          {"failed", m.failed},
          {"cannot_run", m.cannot_run},
          {"pending", m.pending},
          {"started", m.started},
          {"killed", m.killed},
          {"oom_kills", m.oom_kills},
          {"fault_kills", m.fault_kills},
          {"preempted", m.preempted},
          {"preemptions", m.preemptions},
          {"max_pod_preemptions", m.max_pod_preemptions},
          {"disrupted", m.disrupted},
          {"lost_work_s", m.lost_work_s},
          {"lost_gpu_hours", m.lost_gpu_hours},
          {"memory_unprotected", m.memory_unprotected},
          {"eviction_down_s", m.eviction_down_s},
          {"mean_wait_s", m.mean_wait_s},
          {"p99_wait_s", m.p99_wait_s},
          {"queued", m.queued},
          {"mean_admission_wait_s", m.mean_admission_wait_s},
          {"mean_scheduling_wait_s", m.mean_scheduling_wait_s},
          {"queue_idle_at_quota_share", m.queue_idle_at_quota_share},
          {"queue_free_at_quota", m.queue_free_at_quota},
          {"queue_free_resource", m.queue_free_resource},
          {"quota_bound", IsQuotaBound(m)},
          {"mean_slowdown", m.mean_slowdown},
          {"mean_p99_ms", m.mean_p99_ms},
          {"mean_slo_p99_ms", m.mean_slo_p99_ms},
          {"slo_attainment", m.slo_attainment},
          {"neighbour_miss_share", m.neighbour_miss_share},
          {"performance", m.performance},
          {"gpu_hours", m.gpu_hours},
          {"cost", m.cost},
          {"held_cost", m.held_cost},
          {"wasted_cost", m.wasted_cost},
          {"cost_per_served_pod", m.served > 0 ? m.cost_per_served_pod : -1.0}};
}

json ScoresJson(const DimensionScores& s) {
  return {{"isolation", s.isolation},
          {"overhead", s.overhead},
          {"compatibility", s.compatibility},
          {"cost", s.cost}};
}

// The limits of a class's contract a scheme misses.
json MissedJson(const std::vector<ConstraintCheck>& missed) {
  json out = json::array();
  for (const ConstraintCheck& c : missed) {
    out.push_back({{"constraint", c.constraint},
                   {"value", c.value},
                   {"limit", c.limit},
                   {"text", DescribeInWords(c)}});
  }
  return out;
}

// A class's contract: the limits that are checked (null: not checked).
json ServedWellJson(const ClassConstraints& c) {
  const auto limit = [](double v) { return v < 0 ? json(nullptr) : json(v); };
  return {{"min_slo_attainment", limit(c.min_slo_attainment)},
          {"max_mean_wait_s", limit(c.max_mean_wait_s)},
          {"max_p99_wait_s", limit(c.max_p99_wait_s)},
          {"max_oom_kills", limit(static_cast<double>(c.max_oom_kills))},
          {"max_failed", limit(static_cast<double>(c.max_failed))},
          {"max_cannot_run", limit(static_cast<double>(c.max_cannot_run))},
          {"max_pending", limit(static_cast<double>(c.max_pending))},
          {"max_preemptions", limit(static_cast<double>(c.max_preemptions))},
          {"max_mean_slowdown", limit(c.max_mean_slowdown)},
          {"needs_memory_isolation", c.needs_memory_isolation}};
}

json SchemeScoreJson(const SchemeScore& s) {
  return {{"variant", s.variant},
          {"label", VariantDisplayName(s.variant)},
          {"scheme", s.scheme},
          {"scores", ScoresJson(s.scores)},
          {"total", s.total},
          {"total_min", s.total_min},
          {"total_max", s.total_max},
          {"totals_by_seed", s.totals_by_seed},
          {"measured_by_seed", s.measured_by_seed},
          {"slo_attainment",
           s.slo_attainment >= 0 ? json(s.slo_attainment) : json(nullptr)},
          {"meets_slo", s.meets_slo},
          {"serves", s.serves},
          {"served_well", s.served_well},
          {"missed", MissedJson(s.missed)}};
}

}  // namespace

json ClassMetricsToJson(const ClassMetrics& m) {
  json out = MetricsJsonWithoutEngines(m);
  if (m.mean_ttft_p99_ms >= 0) {
    // Classes running an LLM engine only (docs/output.md).
    out["mean_ttft_p99_ms"] = m.mean_ttft_p99_ms;
    out["mean_tpot_p99_ms"] = m.mean_tpot_p99_ms;
    out["mean_slo_ttft_p99_ms"] = m.mean_slo_ttft_p99_ms;
    out["mean_slo_tpot_p99_ms"] = m.mean_slo_tpot_p99_ms;
  }
  return out;
}

json PoolSchemePlanJson(const PoolSchemePlan& plan) {
  json pools = json::array();
  for (const PoolSchemeChoice& p : plan.pools) {
    json classes = json::array();
    for (const PoolRoutedClass& k : p.classes) {
      classes.push_back(
          {{"tenant_class", k.tenant_class},
           {"pods", k.pods},
           {"winner", k.winner.empty() ? json(nullptr) : json(k.winner)},
           {"contender",
            k.contender.empty() ? json(nullptr) : json(k.contender)},
           {"ok", k.ok},
           {"total", k.total}});
    }
    pools.push_back(
        {{"pool", p.pool},
         {"written", p.written},
         {"variant", p.variant.empty() ? json(nullptr) : json(p.variant)},
         {"classes", classes},
         {"conflict", p.conflict},
         {"pods", p.pods},
         {"pods_stranded", p.pods_stranded},
         {"pods_losing_work", p.pods_losing_work},
         {"pods_ok", p.pods_ok},
         {"score", p.score},
         {"measured", p.measured},
         {"buys", p.buys.empty() ? json(nullptr) : json(p.buys)},
         {"kept_over",
          p.kept_over.empty() ? json(nullptr) : json(p.kept_over)},
         {"kept_over_measured", p.kept_over.empty()
                                    ? json(nullptr)
                                    : json(p.kept_over_measured)}});
  }
  return {
      {"pools", pools},
      {"conflict", plan.conflict},
      {"same_as", plan.same_as.empty() ? json(nullptr) : json(plan.same_as)},
      {"ran", plan.ran}};
}

json VariantOutcomeToJson(const VariantOutcome& v,
                          const std::vector<std::string>& tenant_classes) {
  json classes = json::object();
  for (size_t k = 0; k < tenant_classes.size(); ++k) {
    json m = MetricsJson(v.classes[k]);
    if (v.plan || v.pool_plan) m["scheme"] = v.class_schemes[k];
    classes[tenant_classes[k]] = m;
  }
  json by_seed = json::array();
  for (const std::vector<ClassMetrics>& seed : v.classes_by_seed) {
    json seed_classes = json::object();
    for (size_t k = 0; k < tenant_classes.size() && k < seed.size(); ++k) {
      seed_classes[tenant_classes[k]] = MetricsJson(seed[k]);
    }
    by_seed.push_back(seed_classes);
  }
  return {{"name", v.name},
          {"label",
           v.plan ? std::string("plan (mixed)") : VariantDisplayName(v.name)},
          {"plan", v.plan},
          {"pool_plan", v.pool_plan},
          {"scheme", v.plan || v.pool_plan
                         ? std::string("mixed")
                         : std::string(SharingSchemeName(v.scheme))},
          {"notes", v.notes},
          {"pools", v.pools},
          {"cluster", MetricsJson(v.cluster)},
          {"classes", classes},
          {"classes_by_seed", by_seed},
          {"end_s", v.end_s},
          {"faults", v.faults},
          {"max_blast_radius", v.max_blast_radius},
          {"alerts", v.alerts},
          {"mean_allocation", v.mean_allocation},
          {"mean_sm_active", v.mean_sm_active},
          {"mean_gpu_util", v.mean_gpu_util},
          {"cluster_cost", v.cluster_cost},
          {"goodput", v.goodput}};
}

json ComparisonToJson(const Comparison& c, const Selection& selection) {
  json out;
  out["schema"] = "gpushare-sim/compare/v1";
  out["scenario"] = c.scenario;
  out["seed"] = c.seed;
  out["seeds"] = c.seeds;
  out["pods"] = c.pods;
  out["eviction_warning_per_pod"] = c.eviction_warning_per_pod;
  json mig = json::array();
  for (const MigPoolChoice& m : c.mig_choices) {
    json candidates = json::array();
    for (const MigCandidate& k : m.candidates) {
      candidates.push_back({{"family", k.family},
                            {"config", k.config},
                            {"performance", k.performance},
                            {"cost_per_served_pod", k.cost_per_served_pod}});
    }
    mig.push_back({{"pool", m.pool},
                   {"model", m.model},
                   {"family", m.family},
                   {"config", m.config},
                   {"pods", m.pods},
                   {"candidates", candidates}});
  }
  out["mig"] = {
      {"pilot", c.mig_pilot}, {"pilot_pods", c.mig_pilot_pods}, {"pools", mig}};
  json variants = json::array();
  for (const VariantOutcome& v : c.variants) {
    variants.push_back(VariantOutcomeToJson(v, c.tenant_classes));
  }
  out["variants"] = variants;
  json choices = json::array();
  for (const ClassChoice& k : selection.classes) {
    json ranking = json::array();
    for (const SchemeScore& s : k.ranking)
      ranking.push_back(SchemeScoreJson(s));
    json choice = {
        {"tenant_class", k.tenant_class},
        {"workload_class", k.workload_class},
        {"profile", k.profile},
        {"weights",
         {{"isolation", k.weights.isolation},
          {"overhead", k.weights.overhead},
          {"compatibility", k.weights.compatibility},
          {"cost", k.weights.cost}}},
        {"min_slo_attainment", k.min_slo_attainment},
        {"served_well", ServedWellJson(k.served_well)},
        {"ranking", ranking},
        {"winner", k.has_winner() ? json(k.ranking[0].variant) : json(nullptr)},
        {"decisive", k.decisive},
        {"contender", k.decisive ? json(nullptr) : json(k.contender)},
        {"contender_seeds", k.contender_seeds},
        {"ratings_decide", k.ratings_decide},
        {"recommendation", k.Recommendation()},
        {"explanation", k.explanation},
        {"caveats", k.caveats},
        {"not_ranked", k.not_ranked},
        {"no_scheme", k.no_scheme.empty() ? json(nullptr) : json(k.no_scheme)}};
    choice["plan"] = k.has_plan ? SchemeScoreJson(k.plan) : json(nullptr);
    choice["pool_plan"] =
        k.has_pool_plan ? SchemeScoreJson(k.pool_plan) : json(nullptr);
    choices.push_back(choice);
  }
  out["selection"] = choices;
  out["pool_plan"] = selection.has_pool_plan
                         ? PoolSchemePlanJson(selection.pool_plan)
                         : json(nullptr);
  return out;
}

std::string ComparisonToJsonText(const Comparison& comparison,
                                 const Selection& selection) {
  return ComparisonToJson(comparison, selection).dump(2) + "\n";
}

}  // namespace gpushare
