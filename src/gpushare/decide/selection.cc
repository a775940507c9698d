#include "gpushare/decide/selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/decide/scheme_variant.h"

namespace gpushare {
namespace {

enum Dimension { kIsolation, kOverhead, kCompatibility, kCost };

std::array<double, 4> AsArray(const DimensionScores& s) {
  return {s.isolation, s.overhead, s.compatibility, s.cost};
}

std::array<double, 4> AsArray(const SelectionWeights& w) {
  return {w.isolation, w.overhead, w.compatibility, w.cost};
}

// What a candidate is, for the explanation.
struct Candidate {
  const VariantOutcome* variant = nullptr;
  const ClassMetrics* metrics = nullptr;
  SchemeRatings ratings;
  SchemeScore score;
};

std::string Pct(double fraction) {
  return fmt::format("{:.0f}%", 100 * fraction);
}

std::string Secs(double s) { return fmt::format("{:.0f} s", s); }

std::string Phrase(Dimension d, const Candidate& a, const Candidate& b) {
  const ClassMetrics& x = *a.metrics;
  const ClassMetrics& y = *b.metrics;
  switch (d) {
    case kIsolation: {
      std::string out = fmt::format(
          "isolation (rated {:g} vs {:g}; measured: {} vs {} pods killed by "
          "OOMs or GPU faults",
          a.ratings.isolation, b.ratings.isolation, x.killed, y.killed);
      if (x.preempted + y.preempted > 0) {
        out += fmt::format(", {} vs {} evicted", x.preempted, y.preempted);
      }
      if (x.neighbour_miss_share >= 0 && y.neighbour_miss_share >= 0) {
        out += fmt::format(
            ", {} vs {} of latency samples missed because of neighbours",
            Pct(x.neighbour_miss_share), Pct(y.neighbour_miss_share));
      }
      const bool same = x.killed * y.pods == y.killed * x.pods &&
                        std::max(0.0, x.neighbour_miss_share) ==
                            std::max(0.0, y.neighbour_miss_share);
      return out +
             (same ? "; measured the same: the ratings decided it)" : ")");
    }
    case kOverhead: {
      std::string detail = fmt::format(
          "mean wait {} vs {}", Secs(x.mean_wait_s), Secs(y.mean_wait_s));
      if (x.slo_attainment >= 0 && y.slo_attainment >= 0) {
        detail += fmt::format(", SLO met {} vs {}", Pct(x.slo_attainment),
                              Pct(y.slo_attainment));
      } else if (x.mean_slowdown > 0 && y.mean_slowdown > 0) {
        detail += fmt::format(", slowdown {:.2f}x vs {:.2f}x", x.mean_slowdown,
                              y.mean_slowdown);
      }
      return fmt::format("performance ({:.2f} vs {:.2f}: {})", x.performance,
                         y.performance, detail);
    }
    case kCompatibility:
      return fmt::format(
          "compatibility (rated {:g} vs {:g}; {} vs {} pods it cannot "
          "run{})",
          a.ratings.compatibility, b.ratings.compatibility, x.cannot_run,
          y.cannot_run,
          x.cannot_run * y.pods == y.cannot_run * x.pods
              ? "; measured the same: the ratings decided it"
              : "");
    case kCost:
      return fmt::format("cost (${:.2f} vs ${:.2f} per served pod)",
                         x.cost_per_served_pod, y.cost_per_served_pod);
  }
  return "";
}

// Whether every limit a scheme misses is the SLO target.
bool MissesOnlySlo(const SchemeScore& s) {
  for (const ConstraintCheck& c : s.missed) {
    if (c.constraint != "min_slo_attainment") return false;
  }
  return true;
}

// The sentence of a class that no scheme wins: none serves it well. The
// closest misses least (plan_constraints.h MissSeverity).
std::string ExplainNoWinner(const ClassChoice& choice,
                            const std::vector<Candidate>& ranked) {
  const Candidate* closest = &ranked[0];
  for (const Candidate& c : ranked) {
    if (!c.score.serves) continue;
    if (MissesLess(SeverityOf(c.score.missed),
                   SeverityOf(closest->score.missed))) {
      closest = &c;
    }
  }
  bool only_slo = true;
  for (const Candidate& c : ranked) {
    only_slo = only_slo && (!c.score.serves || MissesOnlySlo(c.score));
  }
  if (only_slo) {
    return fmt::format(
        "{}: no scheme wins: none meets its SLO target (p99 within the SLO "
        "in {} of latency samples); closest: {} at {:.1f}%.",
        choice.tenant_class, Pct(choice.min_slo_attainment),
        VariantDisplayName(closest->score.variant),
        100 * closest->score.slo_attainment);
  }
  return fmt::format(
      "{}: no scheme wins: none serves it well; closest: {}, with {}.",
      choice.tenant_class, VariantDisplayName(closest->score.variant),
      DescribeInWords(closest->score.missed));
}

// " x misses its contract (118 OOM kills (limit 0)) and cannot win." for
// the schemes that serve the class but not well, or "" when none.
std::string MissedContract(const std::vector<Candidate>& ranked) {
  std::string out;
  int missed = 0;
  for (const Candidate& c : ranked) {
    if (!c.score.serves || c.score.served_well) continue;
    out += fmt::format("{}{}: {}", missed++ == 0 ? "" : "; ",
                       VariantDisplayName(c.score.variant),
                       DescribeInWords(c.score.missed));
  }
  if (missed == 0) return "";
  return fmt::format(" Not served well, so {} win: {}.",
                     missed == 1 ? "it cannot" : "they cannot", out);
}

// The sentence of a class that no scheme served: what became of its pods
// under the best ranked scheme.
std::string ExplainNoneServed(const ClassChoice& choice,
                              const std::vector<Candidate>& ranked) {
  const ClassMetrics& m = *ranked[0].metrics;
  std::vector<std::string> parts;
  if (m.cannot_run > 0)
    parts.push_back(fmt::format("{} cannot run", m.cannot_run));
  if (m.failed > 0) parts.push_back(fmt::format("{} failed", m.failed));
  if (m.pending > 0) {
    parts.push_back(fmt::format("{} never started by the horizon", m.pending));
  }
  std::string detail;
  for (size_t i = 0; i < parts.size(); ++i) {
    detail += (i == 0 ? "" : ", ") + parts[i];
  }
  if (!m.unserved_cause.empty()) {
    detail += (detail.empty() ? "" : "; ") + m.unserved_cause;
  }
  return fmt::format(
      "{}: no scheme wins: none served any of its {} pods{}.",
      choice.tenant_class, m.pods,
      detail.empty()
          ? ""
          : fmt::format(" (under {}: {})",
                        VariantDisplayName(ranked[0].score.variant), detail));
}

std::string Explain(const ClassChoice& choice,
                    const std::vector<Candidate>& ranked) {
  if (!ranked[0].score.serves) return ExplainNoneServed(choice, ranked);
  if (!ranked[0].score.served_well) return ExplainNoWinner(choice, ranked);
  const Candidate& w = ranked[0];
  const size_t seeds = w.score.totals_by_seed.size();
  std::string out = fmt::format(
      "{}: {} wins ({:.1f}/10{})", choice.tenant_class,
      VariantDisplayName(w.score.variant), w.score.total,
      seeds > 1 ? fmt::format(", {:.1f}-{:.1f} over {} seeds",
                              w.score.total_min, w.score.total_max, seeds)
                : "");
  if (ranked.size() > 1) {
    const Candidate& r = ranked[1];
    const auto weights = AsArray(choice.weights);
    const double sum = choice.weights.Sum();
    const auto sw = AsArray(w.score.scores);
    const auto sr = AsArray(r.score.scores);
    int best = -1;
    int worst = -1;
    double best_gain = 0;
    double worst_gain = 0;
    for (int d = 0; d < 4; ++d) {
      const double gain = 10 * weights[d] / sum * (sw[d] - sr[d]);
      if (gain > best_gain + 1e-12) {
        best = d;
        best_gain = gain;
      }
      if (gain < worst_gain - 1e-12) {
        worst = d;
        worst_gain = gain;
      }
    }
    out += fmt::format(" over {} ({:.1f}{})",
                       VariantDisplayName(r.score.variant), r.score.total,
                       seeds > 1
                           ? fmt::format(", {:.1f}-{:.1f}", r.score.total_min,
                                         r.score.total_max)
                           : "");
    if (best >= 0) {
      out += fmt::format(", mostly on {} (+{:.1f} points)",
                         Phrase(static_cast<Dimension>(best), w, r), best_gain);
    }
    if (worst >= 0) {
      out +=
          fmt::format("; it gives up {} ({:.1f})",
                      Phrase(static_cast<Dimension>(worst), w, r), worst_gain);
    }
  }
  // What it costs, against the cheapest scheme.
  const Candidate* cheapest = nullptr;
  for (const Candidate& c : ranked) {
    if (c.metrics->served == 0) continue;
    if (cheapest == nullptr || c.metrics->cost_per_served_pod <
                                   cheapest->metrics->cost_per_served_pod) {
      cheapest = &c;
    }
  }
  out += fmt::format("; it costs ${:.2f} per served pod",
                     w.metrics->cost_per_served_pod);
  // Named when it shows at the sentence's precision (a whole percent).
  if (w.metrics->cost > 0 &&
      w.metrics->wasted_cost >= 0.005 * w.metrics->cost) {
    out += fmt::format(" ({} of it on lost work)",
                       Pct(w.metrics->wasted_cost / w.metrics->cost));
  }
  if (cheapest != nullptr && cheapest != &w &&
      cheapest->metrics->cost_per_served_pod < w.metrics->cost_per_served_pod) {
    out += fmt::format(" (cheapest: {} at ${:.2f})",
                       VariantDisplayName(cheapest->score.variant),
                       cheapest->metrics->cost_per_served_pod);
  } else if (cheapest == &w) {
    out += ", the cheapest";
  }
  return out + "." + MissedContract(ranked);
}

}  // namespace

std::string ClassChoice::Recommendation() const {
  if (!no_scheme.empty()) return "no GPU (no scheme)";
  if (!has_winner()) return NoWinnerReason();
  if (decisive) return VariantDisplayName(ranking.front().variant);
  return fmt::format(
      "{} or {} (too close to call{})",
      VariantDisplayName(ranking.front().variant),
      VariantDisplayName(contender),
      ratings_decide ? "; ratings prefer " +
                           VariantDisplayName(ranking.front().variant)
                     : "");
}

std::string ClassChoice::NoWinnerReason() const {
  if (has_winner()) return "";
  if (ranking.empty() || !ranking.front().serves) {
    return unserved_cause.empty() ? "no scheme serves it"
                                  : "no scheme serves it (" + unserved_cause +
                                        ")";
  }
  for (const SchemeScore& s : ranking) {
    if (s.serves && !MissesOnlySlo(s)) return "none serves it well";
  }
  return "none meets its SLO";
}

DimensionScores ScoreDimensions(const ClassMetrics& m,
                                const SchemeRatings& ratings,
                                double lowest_cost_per_served_pod,
                                double isolation_prior_weight,
                                double compatibility_prior_weight) {
  DimensionScores s;
  const double pods = static_cast<double>(std::max<int64_t>(1, m.pods));
  // Pods killed by an OOM or a GPU fault, or evicted by preemption
  // (disrupted; metrics built by hand may give only `killed`).
  const double harmed = static_cast<double>(std::max(m.killed, m.disrupted));
  const double measured = (1 - harmed / pods) *
                          (1 - std::max(0.0, m.neighbour_miss_share));
  s.isolation = isolation_prior_weight * ratings.isolation / 10 +
                (1 - isolation_prior_weight) * measured;
  s.overhead = m.performance;
  s.compatibility =
      compatibility_prior_weight * ratings.compatibility / 10 +
      (1 - compatibility_prior_weight) * (1 - m.cannot_run / pods);
  if (m.served == 0) {
    s.cost = 0;
  } else if (m.cost_per_served_pod <= 0) {
    s.cost = 1;
  } else {
    s.cost = std::min(1.0, lowest_cost_per_served_pod / m.cost_per_served_pod);
  }
  return s;
}

double WeightedTotal(const DimensionScores& scores,
                     const SelectionWeights& weights) {
  const auto s = AsArray(scores);
  const auto w = AsArray(weights);
  double total = 0;
  for (int d = 0; d < 4; ++d) total += w[d] * s[d];
  return 10 * total / weights.Sum();
}

bool MeasuredTheSame(const SchemeScore& a, const SchemeScore& b,
                     double margin) {
  if (a.measured_by_seed.empty() ||
      a.measured_by_seed.size() != b.measured_by_seed.size()) {
    return false;
  }
  for (size_t k = 0; k < a.measured_by_seed.size(); ++k) {
    if (std::abs(a.measured_by_seed[k] - b.measured_by_seed[k]) >
        margin + 1e-12) {
      return false;
    }
  }
  return true;
}

namespace {

// The class `c`'s metrics in variant `v`'s run on seed `k`.
const ClassMetrics& SeedMetrics(const VariantOutcome& v GS_LIFETIMEBOUND,
                                size_t k, size_t c) {
  return v.classes_by_seed.empty() ? v.classes[c] : v.classes_by_seed[k][c];
}

// The caveats of an answer drawn from `m` (ClassChoice::caveats).
std::vector<std::string> SampleCaveats(const ClassMetrics& m,
                                       const SelectionSpec& spec) {
  std::vector<std::string> caveats;
  if (m.pods < spec.min_pods_to_decide) {
    caveats.push_back(fmt::format(
        "{} pod{}: too few to decide (selection.min_pods_to_decide {}); "
        "add pods of the class: a longer horizon or trace, a higher rate",
        m.pods, m.pods == 1 ? "" : "s", spec.min_pods_to_decide));
  }
  if (m.jobs > 0 && static_cast<double>(m.jobs_unfinished) >
                        spec.max_unfinished_job_share *
                            static_cast<double>(m.jobs)) {
    caveats.push_back(fmt::format(
        "{} of its {} jobs were still running at the horizon: it is shorter "
        "than their lifetimes, so their slowdown and lost work are not "
        "known; lengthen horizon_s",
        m.jobs_unfinished, m.jobs));
  }
  return caveats;
}

size_t SeedCount(const Comparison& comparison) {
  size_t seeds = 1;
  for (const VariantOutcome& v : comparison.variants) {
    seeds = std::max(seeds, v.classes_by_seed.size());
  }
  return seeds;
}

// Whether `winner` holds against every other candidate that serves the
// class and meets its SLO on every seed, by more than `margin` points; if
// not, the first in ranking order that does not lose that clearly, and on
// how many seeds.
void JudgeWin(const std::vector<Candidate>& ranked, double margin,
              ClassChoice* choice) {
  choice->decisive = true;
  if (!choice->has_winner()) return;
  const SchemeScore& w = ranked[0].score;
  for (size_t r = 1; r < ranked.size(); ++r) {
    const SchemeScore& o = ranked[r].score;
    if (!o.serves || !o.served_well) continue;
    int close = 0;
    for (size_t k = 0; k < w.totals_by_seed.size(); ++k) {
      if (w.totals_by_seed[k] - o.totals_by_seed[k] <= margin + 1e-12) ++close;
    }
    if (close > 0) {
      choice->decisive = false;
      choice->contender = o.variant;
      choice->contender_seeds = close;
      return;
    }
  }
  // Ahead on every seed, but measured the same: the ratings alone decide.
  for (size_t r = 1; r < ranked.size(); ++r) {
    const SchemeScore& o = ranked[r].score;
    if (!o.serves || !o.served_well) continue;
    if (MeasuredTheSame(w, o, margin)) {
      choice->decisive = false;
      choice->ratings_decide = true;
      choice->contender = o.variant;
      choice->contender_seeds = static_cast<int>(w.measured_by_seed.size());
      return;
    }
  }
}

// "vGPU (HAMi) 8.5 (8.3-8.7)" over several seeds, "vGPU (HAMi) 8.5" over one.
std::string ScoreWithRange(const SchemeScore& s) {
  std::string out =
      fmt::format("{} {:.1f}", VariantDisplayName(s.variant), s.total);
  if (s.totals_by_seed.size() > 1) {
    out += fmt::format(" ({:.1f}-{:.1f})", s.total_min, s.total_max);
  }
  return out;
}

// The sentence of a class whose leader does not hold on every seed.
std::string ExplainTooClose(const ClassChoice& choice,
                            const std::vector<Candidate>& ranked,
                            double margin) {
  const SchemeScore& w = ranked[0].score;
  const SchemeScore* o = nullptr;
  for (const Candidate& c : ranked) {
    if (c.score.variant == choice.contender) o = &c.score;
  }
  const size_t seeds = w.totals_by_seed.size();
  if (choice.ratings_decide) {
    return fmt::format(
               "{}: too close to call between {} and {}{}: measured the same "
               "(within {:g} points on every seed with the ratings left "
               "out); only the ratings set them apart (ratings prefer {}).",
               choice.tenant_class, ScoreWithRange(w), ScoreWithRange(*o),
               seeds > 1 ? fmt::format(" over {} seeds", seeds) : "", margin,
               VariantDisplayName(w.variant)) +
           MissedContract(ranked);
  }
  return fmt::format(
      "{}: too close to call between {} and {}{}: {} is ahead or within "
      "{:g} points on {} of {} seed{}; {} leads on the mean.",
      choice.tenant_class, ScoreWithRange(w), ScoreWithRange(*o),
      seeds > 1 ? fmt::format(" over {} seeds", seeds) : "",
      VariantDisplayName(o->variant), margin, choice.contender_seeds, seeds,
      seeds == 1 ? "" : "s", VariantDisplayName(w.variant));
}

}  // namespace

Selection Select(const Comparison& comparison, const SelectionSpec& spec) {
  Selection selection;
  selection.decisive_margin = spec.decisive_margin;
  const size_t seeds = SeedCount(comparison);
  for (size_t c = 0; c < comparison.tenant_classes.size(); ++c) {
    ClassChoice choice;
    choice.seeds = static_cast<int>(seeds);
    choice.tenant_class = comparison.tenant_classes[c];
    choice.workload_class = comparison.workload_classes[c];
    auto it = std::find_if(spec.classes.begin(), spec.classes.end(),
                           [&](const ClassSelection& s) {
                             return s.tenant_class == choice.tenant_class;
                           });
    if (it != spec.classes.end()) {
      choice.profile = it->profile;
      choice.weights = it->weights;
    } else {
      WorkloadClass kind = WorkloadClass::kBatch;
      ParseWorkloadClass(choice.workload_class, &kind);
      choice.profile = std::string(DefaultWeightProfile(kind));
      choice.weights = spec.FindProfile(choice.profile)->weights;
    }
    choice.min_slo_attainment =
        it != spec.classes.end() && it->min_slo_attainment >= 0
            ? it->min_slo_attainment
            : spec.min_slo_attainment;
    if (it != spec.classes.end()) {
      choice.served_well = it->served_well;
    } else {
      WorkloadClass kind = WorkloadClass::kBatch;
      ParseWorkloadClass(choice.workload_class, &kind);
      choice.served_well = DefaultServedWell(kind);
    }
    choice.served_well.tenant_class = choice.tenant_class;
    choice.served_well.min_slo_attainment = choice.min_slo_attainment;
    if (c < comparison.class_no_scheme.size() &&
        !comparison.class_no_scheme[c].empty()) {
      choice.no_scheme = comparison.class_no_scheme[c];
      choice.explanation = fmt::format("{}: no scheme is ranked: {}.",
                                       choice.tenant_class, choice.no_scheme);
      selection.classes.push_back(std::move(choice));
      continue;
    }
    // Per seed, the lowest cost per served pod among the compared schemes.
    std::vector<double> lowest(seeds, std::numeric_limits<double>::infinity());
    for (const VariantOutcome& v : comparison.variants) {
      if (v.plan || v.pool_plan) continue;
      for (size_t k = 0; k < seeds; ++k) {
        const ClassMetrics& m = SeedMetrics(v, k, c);
        if (m.served > 0)
          lowest[k] = std::min(lowest[k], m.cost_per_served_pod);
      }
    }
    for (double& l : lowest) {
      if (!std::isfinite(l)) l = 0;
    }
    std::vector<Candidate> ranked;
    for (const VariantOutcome& v : comparison.variants) {
      SharingScheme ran_under = v.scheme;
      const bool reference = v.plan || v.pool_plan;
      if (!reference && c < v.class_schemes.size() &&
          ParseSharingScheme(v.class_schemes[c], &ran_under) &&
          ran_under != v.scheme) {
        choice.not_ranked.push_back(fmt::format(
            "{}: not ranked: its run put this class's pods under {}",
            VariantDisplayName(v.name), SharingSchemeDisplayName(ran_under)));
        continue;
      }
      Candidate cand;
      cand.variant = &v;
      cand.metrics = &v.classes[c];
      SharingScheme scheme = v.scheme;
      if (reference) ParseSharingScheme(v.class_schemes[c], &scheme);
      cand.ratings = spec.RatingsOf(scheme);
      cand.score.variant = v.name;
      cand.score.scheme = std::string(SharingSchemeName(scheme));
      // Each dimension and the total: the mean over the seeds.
      cand.score.serves = false;
      for (size_t k = 0; k < seeds; ++k) {
        const ClassMetrics& m = SeedMetrics(v, k, c);
        const DimensionScores d = ScoreDimensions(
            m, cand.ratings, lowest[k], spec.isolation_prior_weight,
            spec.compatibility_prior_weight);
        cand.score.scores.isolation += d.isolation / seeds;
        cand.score.scores.overhead += d.overhead / seeds;
        cand.score.scores.compatibility += d.compatibility / seeds;
        cand.score.scores.cost += d.cost / seeds;
        cand.score.totals_by_seed.push_back(WeightedTotal(d, choice.weights));
        cand.score.measured_by_seed.push_back(WeightedTotal(
            ScoreDimensions(m, cand.ratings, lowest[k], 0, 0),
            choice.weights));
        if (m.served > 0) cand.score.serves = true;
      }
      const auto& totals = cand.score.totals_by_seed;
      double sum = 0;
      for (double t : totals) sum += t;
      cand.score.total = sum / seeds;
      cand.score.total_min = *std::min_element(totals.begin(), totals.end());
      cand.score.total_max = *std::max_element(totals.begin(), totals.end());
      cand.score.slo_attainment = cand.metrics->slo_attainment;
      cand.score.meets_slo =
          cand.metrics->slo_attainment < 0 ||
          cand.metrics->slo_attainment >= choice.min_slo_attainment - 1e-12;
      cand.score.missed =
          Missed(CheckClassConstraints(choice.served_well, *cand.metrics));
      // The SLO as judged above (within rounding of the target).
      if (cand.score.meets_slo) {
        std::erase_if(cand.score.missed, [](const ConstraintCheck& x) {
          return x.constraint == "min_slo_attainment";
        });
      }
      cand.score.served_well = cand.score.missed.empty();
      if (v.plan) {
        choice.has_plan = true;
        choice.plan = cand.score;
      } else if (v.pool_plan) {
        choice.has_pool_plan = true;
        choice.pool_plan = cand.score;
      } else {
        ranked.push_back(cand);
      }
    }
    // Schemes that served some pods first, then those that serve the class
    // well; by total within each group.
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Candidate& a, const Candidate& b) {
                       if (a.score.serves != b.score.serves) {
                         return a.score.serves;
                       }
                       if (a.score.served_well != b.score.served_well) {
                         return a.score.served_well;
                       }
                       return a.score.total > b.score.total + 1e-12;
                     });
    for (const Candidate& cand : ranked) choice.ranking.push_back(cand.score);
    if (!ranked.empty() && !ranked[0].score.serves) {
      choice.unserved_cause = ranked[0].metrics->unserved_cause;
    }
    JudgeWin(ranked, spec.decisive_margin, &choice);
    if (!ranked.empty()) {
      choice.caveats = SampleCaveats(*ranked[0].metrics, spec);
    }
    if (!ranked.empty()) {
      choice.explanation =
          choice.decisive
              ? Explain(choice, ranked)
              : ExplainTooClose(choice, ranked, spec.decisive_margin);
    }
    selection.classes.push_back(std::move(choice));
  }
  return selection;
}

}  // namespace gpushare
