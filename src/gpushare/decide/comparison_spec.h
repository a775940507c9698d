// ComparisonSpec: what `compare` runs and how its selection scores, as a
// scenario's `compare:` and `selection:` sections say it (docs/scenario.md).
//
// Contract: plain values with the documented defaults. `compare` lists the
// schemes the whole cluster is run under and the settings a pool gets when
// it is converted to a scheme it does not use already (a pool that already
// uses a scheme keeps its own settings under that scheme). `selection` holds
// the weight profiles (built-in ones plus the scenario's), each tenant
// class's profile or explicit weights, and per-scheme ratings.

#ifndef GPUSHARE_DECIDE_COMPARISON_SPEC_H_
#define GPUSHARE_DECIDE_COMPARISON_SPEC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpushare/cluster/sharing_config.h"
#include "gpushare/decide/plan_spec.h"
#include "gpushare/decide/scheme_ratings.h"
#include "gpushare/decide/selection_weights.h"

namespace gpushare {

// The most seeds `compare.seeds` and `--seeds` accept.
inline constexpr int kMaxCompareSeeds = 100;

struct CompareSpec {
  std::vector<SharingScheme> schemes = {
      SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
      SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami};
  // Replicas per GPU for pools converted to time-slicing / MPS.
  int time_slicing_replicas = 4;
  int mps_replicas = 4;
  // deviceSplitCount for pools converted to HAMi (HAMi's default).
  int hami_split_count = 10;
  // Licence per GPU-hour of pools converted to vGPU; < 0: the highest
  // licence of the scenario's HAMi pools, or 0 when it has none (HAMi
  // itself is open source; NVIDIA vGPU needs an NVIDIA AI Enterprise
  // licence).
  double vgpu_licence_per_gpu_hour = -1;
  // MIG layout families tried for the MIG run (each pool gets its model's
  // named config of that family: all-balanced, all-1g.<smallest>, ...).
  std::vector<std::string> mig_families = {"balanced", "1g", "2g",
                                           "3g",       "4g", "7g"};
  // Each MIG family is tried on a pilot of at most this many pods (the
  // workload scaled down); 0 tries them on the whole workload.
  int64_t mig_pilot_pods = 10000;
  // Run "MIG (dynamic)" (decide/scheme_variant.h MakeDynamicMigVariant) and
  // let `plan` try dynamic MIG on MIG-capable pools, also when no pool of
  // the scenario has dynamic MIG (then they are offered anyway).
  bool mig_dynamic = false;
  // Every run is repeated on this many seeds (the scenario's seed, then
  // seed + 1, ...); tables show the mean, scores their mean and range, and a
  // class's win is called only when it holds on every seed
  // (decide/selection.h).
  int seeds = 3;
};

// One tenant class's weights.
struct ClassSelection {
  std::string tenant_class;
  std::string profile;        // the profile's name, or "custom"
  SelectionWeights weights;
  // The class's SLO attainment target (see SelectionSpec); < 0: the
  // scenario-wide one.
  double min_slo_attainment = -1;
  // What "served well" means for the class (decide/selection.h): the
  // defaults of its kind (DefaultServedWell) with the scenario's
  // overrides; its min_slo_attainment is set from the target above.
  ClassConstraints served_well;
};

struct SelectionSpec {
  std::vector<WeightProfile> profiles = BuiltinWeightProfiles();
  // Per tenant class of the workload, in workload order.
  std::vector<ClassSelection> classes;
  std::map<SharingScheme, SchemeRatings> ratings;
  // A scheme under which a class whose pods have latency SLOs meets them in
  // a smaller share of its latency samples than this cannot win the class.
  double min_slo_attainment = 0.99;
  // A win is called only when the winner's total beats every other eligible
  // scheme's by more than this many points (of 10) on every seed; otherwise
  // the class is too close to call.
  double decisive_margin = 0.05;
  // Isolation blends the scheme's rating (a prior) with the harm measured
  // in the run: rating/10 x this + measured x (1 - this).
  double isolation_prior_weight = 0.3;
  // Compatibility likewise: rating/10 x this + the share of the class's
  // pods the scheme can run x (1 - this).
  double compatibility_prior_weight = 0.3;
  // A class answered from fewer of its pods than this (the mean over the
  // seeds, under its leading scheme) gets a "too few to decide" caveat.
  int64_t min_pods_to_decide = 20;
  // A class more than this share of whose jobs were still running at the
  // horizon gets a caveat: the horizon is shorter than their lifetimes.
  double max_unfinished_job_share = 0.5;

  // The profile named `name`, or null.
  const WeightProfile* FindProfile(const std::string& name) const;
  SchemeRatings RatingsOf(SharingScheme scheme) const;
};

struct ComparisonSpec {
  CompareSpec compare;
  SelectionSpec selection;
};

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_COMPARISON_SPEC_H_
