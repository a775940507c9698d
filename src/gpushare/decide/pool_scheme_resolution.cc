#include "gpushare/decide/pool_scheme_resolution.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "gpushare/decide/scheme_variant.h"

namespace gpushare {
namespace {

// The pool's scheme in a variant's run ("" when it has no such pool).
std::string SchemeRunOnPool(const VariantOutcome& v, const std::string& pool) {
  for (const PoolSummary& p : v.pool_summaries) {
    if (p.name == pool) return p.scheme;
  }
  return "";
}

const SchemeScore* RankedScore(const ClassChoice& choice,
                               const std::string& variant) {
  for (const SchemeScore& s : choice.ranking) {
    if (s.variant == variant) return &s;
  }
  return nullptr;
}

// `pool`'s routed classes judged under `variant`.
PoolSchemeChoice JudgePool(const Comparison& comparison,
                           const Selection& selection, size_t pool,
                           const std::string& variant) {
  const VariantOutcome& first = comparison.variants.front();
  PoolSchemeChoice out;
  out.pool = comparison.pools[pool];
  out.variant = variant;
  double weighted = 0;
  double measured = 0;
  for (size_t c = 0; c < selection.classes.size(); ++c) {
    const int64_t pods = c < first.class_routed_pods.size()
                             ? first.class_routed_pods[c][pool]
                             : 0;
    const ClassChoice& choice = selection.classes[c];
    // Classes offered no GPU scheme (no GPU requests) do not choose one.
    if (pods == 0 || !choice.no_scheme.empty()) continue;
    PoolRoutedClass k;
    k.tenant_class = choice.tenant_class;
    k.pods = pods;
    if (choice.has_winner()) {
      k.winner = choice.ranking.front().variant;
      if (!choice.decisive) k.contender = choice.contender;
    }
    if (const SchemeScore* s = RankedScore(choice, variant)) {
      k.ok = s->serves && s->served_well;
      k.total = s->total;
      if (!s->measured_by_seed.empty()) {
        double sum = 0;
        for (double m : s->measured_by_seed) sum += m;
        measured += static_cast<double>(pods) * sum /
                    static_cast<double>(s->measured_by_seed.size());
      }
      int64_t stranded = s->serves ? 0 : pods;
      bool loses_work = false;
      for (const ConstraintCheck& m : s->missed) {
        if (m.constraint == "max_cannot_run") {
          stranded = std::max(stranded, static_cast<int64_t>(m.value));
        }
        loses_work = loses_work || m.constraint == "max_oom_kills" ||
                     m.constraint == "max_failed";
      }
      out.pods_stranded += std::min(stranded, pods);
      if (loses_work) out.pods_losing_work += pods;
    }
    out.pods += pods;
    if (k.ok) out.pods_ok += pods;
    weighted += static_cast<double>(pods) * k.total;
    out.classes.push_back(std::move(k));
  }
  if (out.pods > 0) {
    out.score = weighted / static_cast<double>(out.pods);
    out.measured = measured / static_cast<double>(out.pods);
  }
  // Conflict: no variant acceptable to every class that has a winner.
  std::optional<std::set<std::string>> common;
  for (const PoolRoutedClass& k : out.classes) {
    if (k.winner.empty()) continue;
    std::set<std::string> accepts = {k.winner};
    if (!k.contender.empty()) accepts.insert(k.contender);
    if (!common) {
      common = accepts;
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(common->begin(), common->end(), accepts.begin(),
                          accepts.end(), std::inserter(both, both.begin()));
    common = std::move(both);
  }
  out.conflict = common && common->empty();
  return out;
}

// "pods of this pool" ("pod of this pool" for one).
std::string PodsOfThePool(int64_t n) {
  return n == 1 ? "pod of this pool" : "pods of this pool";
}

// What `chosen` buys over `written` (PoolSchemeChoice::buys).
std::string Buys(const PoolSchemeChoice& chosen,
                 const PoolSchemeChoice& written) {
  const auto pods = [](int64_t n) {
    return fmt::format("{} {}", n, PodsOfThePool(n));
  };
  if (chosen.pods_stranded < written.pods_stranded) {
    return fmt::format("it runs {} that {} cannot run at all",
                       pods(written.pods_stranded - chosen.pods_stranded),
                       VariantDisplayName(written.variant));
  }
  if (chosen.pods_losing_work < written.pods_losing_work) {
    return fmt::format(
        "{} fewer {} in classes losing work to OOM kills or failures",
        written.pods_losing_work - chosen.pods_losing_work,
        PodsOfThePool(written.pods_losing_work - chosen.pods_losing_work));
  }
  if (chosen.pods_ok > written.pods_ok) {
    return fmt::format("{} more {} in classes it serves well",
                       chosen.pods_ok - written.pods_ok,
                       PodsOfThePool(chosen.pods_ok - written.pods_ok));
  }
  return fmt::format("a measured score of {:.1f} vs {:.1f} (average over its "
                     "pods, ratings left out)",
                     chosen.measured, written.measured);
}

}  // namespace

PoolSchemePlan ResolvePoolSchemes(const Comparison& comparison,
                                  const Selection& selection) {
  PoolSchemePlan plan;
  if (comparison.variants.empty()) return plan;
  std::set<std::string> chosen;
  for (size_t p = 0; p < comparison.pools.size(); ++p) {
    const std::string& name = comparison.pools[p];
    if (p >= comparison.pool_schemes.size() ||
        comparison.pool_schemes[p].empty()) {
      continue;  // no GPUs
    }
    const std::string& written = comparison.pool_schemes[p];
    std::vector<PoolSchemeChoice> candidates;
    for (const VariantOutcome& v : comparison.variants) {
      if (v.plan || v.pool_plan) continue;
      if (SchemeRunOnPool(v, name) != SharingSchemeName(v.scheme)) continue;
      candidates.push_back(JudgePool(comparison, selection, p, v.name));
    }
    // Stranded pods first (work that can never run, whatever the wait),
    // then pods of classes that lose work (OOM kills, failures), then
    // pods of classes served well, then the pod-weighted score — the
    // order of plan_constraints.h's MissSeverity.
    const auto key = [](const PoolSchemeChoice& x) {
      return std::make_tuple(x.pods_stranded, x.pods_losing_work, -x.pods_ok);
    };
    std::optional<PoolSchemeChoice> best;
    for (const PoolSchemeChoice& c : candidates) {
      if (!best || key(c) < key(*best) ||
          (key(c) == key(*best) && c.score > best->score + 1e-12)) {
        best = c;
      }
    }
    if (!best) continue;  // no compared scheme can run on it
    // Ties keep the written scheme: among those tied with it on the key, a
    // change needs a measured score better by more than the margin.
    const auto today = std::find_if(
        candidates.begin(), candidates.end(),
        [&](const PoolSchemeChoice& c) { return c.variant == written; });
    if (best->pods > 0 && today != candidates.end() &&
        best->variant != written && key(*today) == key(*best)) {
      const PoolSchemeChoice* better = nullptr;
      for (const PoolSchemeChoice& c : candidates) {
        if (key(c) != key(*today) ||
            c.measured <= today->measured + selection.decisive_margin) {
          continue;
        }
        if (better == nullptr || c.score > better->score + 1e-12) better = &c;
      }
      if (better == nullptr) {
        const std::string over = best->variant;
        const double over_measured = best->measured;
        best = *today;
        best->kept_over = over;
        best->kept_over_measured = over_measured;
      } else {
        best = *better;
      }
    }
    if (best->pods > 0 && today != candidates.end() &&
        best->variant != written) {
      best->buys = Buys(*best, *today);
    }
    if (best->pods == 0) best->variant.clear();
    best->written = written;
    if (!best->variant.empty()) chosen.insert(best->variant);
    plan.conflict = plan.conflict || best->conflict;
    plan.pools.push_back(std::move(*best));
  }
  if (chosen.size() == 1) plan.same_as = *chosen.begin();
  return plan;
}

int PoolSchemePlanRunCount(const PoolSchemePlan& plan,
                           const Comparison& comparison) {
  bool mixed = false;
  for (const PoolSchemeChoice& p : plan.pools) {
    mixed = mixed || !p.variant.empty();
  }
  return mixed && plan.same_as.empty()
             ? static_cast<int>(std::max<size_t>(1, comparison.seeds.size()))
             : 0;
}

void AddPoolSchemePlan(const Scenario& scenario, const ComparisonSpec& spec,
                       const Catalog& catalog, int threads,
                       const RunObserverFactory& observe,
                       Comparison* comparison, Selection* selection) {
  PoolSchemePlan plan = ResolvePoolSchemes(*comparison, *selection);
  const int runs = PoolSchemePlanRunCount(plan, *comparison);
  if (runs > 0) {
    std::vector<std::optional<SharingScheme>> schemes(scenario.pools.size());
    std::vector<std::string> families(scenario.pools.size());
    for (size_t i = 0; i < scenario.pools.size(); ++i) {
      for (const PoolSchemeChoice& p : plan.pools) {
        SharingScheme s;
        if (p.pool == scenario.pools[i].name && !p.variant.empty() &&
            ParseSharingScheme(p.variant, &s)) {
          schemes[i] = s;
        }
      }
      for (const MigPoolChoice& m : comparison->mig_choices) {
        if (m.pool == scenario.pools[i].name) families[i] = m.family;
      }
    }
    std::vector<SchemeVariant> variants;
    for (int k = 0; k < runs; ++k) {
      const uint64_t seed = k < static_cast<int>(comparison->seeds.size())
                                ? comparison->seeds[k]
                                : scenario.seed;
      SchemeVariant v =
          MakeMixedVariant(ScenarioWithSeed(scenario, seed), schemes,
                           spec.compare, catalog, families);
      v.name = "pool-plan";
      v.pool_plan = true;
      variants.push_back(std::move(v));
    }
    std::vector<VariantOutcome> outcomes(variants.size());
    SimulateScenarios(
        runs, threads, catalog,
        [&](int i, Scenario*) -> const Scenario& {
          return variants[i].scenario;
        },
        [&](int i, const Scenario&, const SimulationResult& result) {
          outcomes[i] =
              SummarizeVariant(variants[i], result, comparison->tenant_classes);
        },
        observe);
    comparison->variants.push_back(MergeSeedRuns(std::move(outcomes)));
    *selection = Select(*comparison, spec.selection);
    plan.ran = true;
  }
  selection->pool_plan = std::move(plan);
  selection->has_pool_plan = true;
}

}  // namespace gpushare
