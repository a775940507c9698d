// Selection: for each tenant class, every compared scheme scored on the
// source document's four dimensions, weighted, ranked and explained, over
// the comparison's seeds.
//
// Contract: each dimension scores in [0, 1] (higher is better) from the
// class's metrics under that scheme's run on one seed
// (decide/class_metrics.h):
//   isolation      the rating is a prior, the measured harm decides:
//                  p x rating/10 + (1 − p) x (1 − share of the class's
//                  pods killed by an OOM or a GPU fault) x (1 − share of its
//                  latency samples missed because of neighbours), p =
//                  SelectionSpec::isolation_prior_weight;
//   overhead       the class's mean pod performance (slowdown from sharing,
//                  context switches and virtualization, queueing, SLO
//                  attainment of services);
//   compatibility  the rating is a prior, the measured reach decides:
//                  q x rating/10 + (1 − q) x (1 − share of its pods the
//                  scheme cannot run at all), q =
//                  SelectionSpec::compatibility_prior_weight;
//   cost           the lowest cost per served pod among the schemes / this
//                  scheme's (0 when it serves none), cost being the pools'
//                  bills apportioned by use, idle and wasted work included;
// ratings from SelectionSpec (decide/scheme_ratings.h). A seed's total is
// 10 x Σ wᵢ sᵢ / Σ wᵢ with the class's weights; a scheme's scores and total
// are the means over the seeds, with the range of the totals. What serves a
// class well is a constraint, not a weight: its contract
// (ClassSelection::served_well: by default no OOM kills, failed or
// unrunnable pods, a bounded mean queue wait and job slowdown, per kind, and
// the SLO target when its pods have latency SLOs) is checked on the class's
// mean metrics over the seeds; a scheme that misses any limit ranks below
// every scheme that meets them all and cannot win; when none meets them the
// class has no winner and its sentence says so, naming the closest scheme
// (fewest stranded pods, then least lost work, then the smallest relative
// miss: plan_constraints.h MissSeverity) and what it misses. A scheme that
// served none of the class's pods on any seed ranks below every scheme that
// served some and cannot win; when none served any, the class has no winner and
// its sentence says why. A scheme whose run put the class's pods under another
// scheme (MIG on GPUs without MIG runs them exclusive) is not ranked for the
// class: it is listed in ClassChoice::not_ranked with the scheme they ran
// under. A class that compare offers no scheme (Comparison::class_no_scheme:
// its pods ask for no GPU, or run in system namespaces) is not scored: no
// ranking, no plan score, its sentence and ClassChoice::no_scheme say why,
// and its Recommended answer is "no GPU (no scheme)".
// Within each group schemes rank by mean total (ties: compare order); the
// scenario's own plan and the pool plan's run are scored the same way (with
// the ratings of the scheme the class ran under) as references, not ranked. The
// leader's win is decisive only when, on every seed, its total beats that of
// every other scheme that serves the class and meets its SLO by more than
// SelectionSpec::decisive_margin; otherwise the class is too close to call
// and the first such scheme in ranking order is its contender. Ratings alone
// are not a win either: when the leader and another scheme that serves the
// class well are *measured the same* — their totals with the rating priors
// left out (SchemeScore::measured_by_seed: isolation and compatibility on
// their measured parts alone) within SelectionSpec::decisive_margin on
// every seed — the class is too close to call with that scheme as its
// contender, and ClassChoice::ratings_decide says only the ratings prefer
// the leader. Each class
// gets one sentence: the winner's main advantage over the runner-up in
// weighted points, what it gives up, and what it costs; or between which
// schemes it is too close to call.

#ifndef GPUSHARE_DECIDE_SELECTION_H_
#define GPUSHARE_DECIDE_SELECTION_H_

#include <string>
#include <vector>

#include "gpushare/decide/comparison.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/plan_constraints.h"
#include "gpushare/decide/pool_scheme_plan.h"

namespace gpushare {

struct DimensionScores {
  double isolation = 0;
  double overhead = 0;
  double compatibility = 0;
  double cost = 0;
};

struct SchemeScore {
  std::string variant;     // "mig", "plan", ...
  std::string scheme;      // the scheme rated ("mig"; the plan's class scheme)
  DimensionScores scores;  // means over the seeds
  double total = 0;        // 0..10, the mean over the seeds
  std::vector<double> totals_by_seed;
  // Per seed, the total with the rating priors left out (prior weights 0):
  // what the run measured alone.
  std::vector<double> measured_by_seed;
  double total_min = 0;
  double total_max = 0;
  // The class's SLO attainment under the scheme (-1: its pods have no SLO
  // samples there) and whether it meets the class's target.
  double slo_attainment = -1;
  bool meets_slo = true;
  // Whether the scheme served at least one of the class's pods (on some
  // seed).
  bool serves = true;
  // Whether the class is served well under the scheme: its contract
  // (ClassChoice::served_well) met on the mean over the seeds; `missed`
  // holds the limits it misses (SLO target included).
  bool served_well = true;
  std::vector<ConstraintCheck> missed;
};

struct ClassChoice {
  std::string tenant_class;
  std::string workload_class;
  std::string profile;
  SelectionWeights weights;
  double min_slo_attainment = 0.99;  // the class's SLO target
  // What "served well" means for the class (ClassSelection::served_well).
  ClassConstraints served_well;
  std::vector<SchemeScore> ranking;  // best first
  bool has_plan = false;
  SchemeScore plan;
  // The pool plan's run (decide/pool_scheme_resolution.h), scored as the
  // plan is, when the pool plan mixes schemes and was run.
  bool has_pool_plan = false;
  SchemeScore pool_plan;
  std::string explanation;
  // Schemes left out of the ranking: "MIG: its run put this class's pods
  // under exclusive".
  std::vector<std::string> not_ranked;
  int seeds = 1;
  // Why no scheme is offered to the class ("": schemes are ranked).
  std::string no_scheme;
  // When no scheme served any of its pods: why not under the best ranked
  // one (ClassMetrics::unserved_cause; "" when its pods say nothing).
  std::string unserved_cause;
  // Whether the winner holds on every seed (see above); when not, the
  // scheme that comes within the margin and on how many seeds.
  bool decisive = true;
  std::string contender;  // a variant name
  int contender_seeds = 0;
  // Not decisive only because the leader and the contender are measured
  // the same: the ratings alone prefer the leader.
  bool ratings_decide = false;
  // Why the answer rests on thin evidence, each a sentence ("3 pods: too few
  // to decide ..."; empty when none): the class's pods under its leading
  // scheme are fewer than SelectionSpec::min_pods_to_decide, or more than
  // SelectionSpec::max_unfinished_job_share of its jobs were still running
  // at the horizon.
  std::vector<std::string> caveats;

  // Whether a scheme wins the class: the best ranked served some of its pods
  // and serves the class well (its SLO met among the rest).
  bool has_winner() const {
    return !ranking.empty() && ranking.front().serves &&
           ranking.front().served_well;
  }
  // Why no scheme wins ("" when one does), for the Recommended line: "no
  // scheme serves it (<unserved_cause>)" or "none meets its SLO".
  std::string NoWinnerReason() const;
  // The Recommended line's answer: the winner's display name, "X or Y (too
  // close to call)" ("X or Y (too close to call; ratings prefer X)" when
  // measured the same), why no scheme wins, or "no GPU (no scheme)".
  std::string Recommendation() const;
};

struct Selection {
  std::vector<ClassChoice> classes;
  // SelectionSpec::decisive_margin, as the wins were judged with it.
  double decisive_margin = 0.05;
  // The per-class answers resolved per pool (AddPoolSchemePlan()); empty
  // until then.
  bool has_pool_plan = false;
  PoolSchemePlan pool_plan;
};

// The dimension scores of one class under one scheme.
DimensionScores ScoreDimensions(const ClassMetrics& metrics,
                                const SchemeRatings& ratings,
                                double lowest_cost_per_served_pod,
                                double isolation_prior_weight,
                                double compatibility_prior_weight);

double WeightedTotal(const DimensionScores& scores,
                     const SelectionWeights& weights);

// Whether two schemes' measured totals (SchemeScore::measured_by_seed) are
// within `margin` points of each other on every seed: then only their
// ratings set them apart.
bool MeasuredTheSame(const SchemeScore& a, const SchemeScore& b,
                     double margin);

Selection Select(const Comparison& comparison, const SelectionSpec& spec);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SELECTION_H_
