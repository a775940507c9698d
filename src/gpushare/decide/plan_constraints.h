// Plan constraints: a tenant class's results (decide/class_metrics.h)
// checked against its constraints (decide/plan_spec.h), and the cluster's
// size and price against the cluster-wide limits.
//
// Contract: one ConstraintCheck per limit that is set (>= 0); the SLO
// target only when the class's pods have latency samples; the memory
// isolation a class needs (`needs_memory_isolation`: its pods placed where
// another pod can take their memory, limit 0) only when it needs it.
// `margin` is how far the value is inside its limit (limit − value for a
// maximum, value − limit for a minimum): >= 0 when met, < 0 by how much it
// is missed. A class without pods in the run meets every limit. The checks
// of lost work (IsLostWorkCheck) carry the class's lost GPU-hours
// (ClassMetrics::lost_gpu_hours).

#ifndef GPUSHARE_DECIDE_PLAN_CONSTRAINTS_H_
#define GPUSHARE_DECIDE_PLAN_CONSTRAINTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/decide/class_metrics.h"
#include "gpushare/decide/plan_spec.h"

namespace gpushare {

struct ConstraintCheck {
  std::string tenant_class;  // "" for a cluster-wide limit
  std::string constraint;    // the scenario key: "max_mean_wait_s", ...
  double value = 0;
  double limit = 0;
  double margin = 0;
  // Lost-work checks: the class's lost work in GPU-hours (the same on each
  // of its lost-work checks); 0 on the others.
  double lost_gpu_hours = 0;
  bool met() const { return margin >= 0; }
};

// Whether `constraint` limits lost work: max_oom_kills, max_failed,
// max_preemptions and max_pending (a pod that never started lost all of
// its work).
bool IsLostWorkConstraint(const std::string& constraint);

std::vector<ConstraintCheck> CheckClassConstraints(
    const ClassConstraints& constraints, const ClassMetrics& metrics);

std::vector<ConstraintCheck> CheckClusterConstraints(
    const ClusterConstraints& constraints, int64_t gpus, double cost_per_hour);

bool AllMet(const std::vector<ConstraintCheck>& checks);

// The missed checks only.
std::vector<ConstraintCheck> Missed(const std::vector<ConstraintCheck>& checks);

// How badly a plan misses, for ranking plans that meet nothing
// (docs/model.md §10, "Closest plan"), in tiers. Pods that no node can ever
// hold (`max_cannot_run` over its limit) strand work that runs today,
// whatever the wait, so they are counted first and apart: a plan that
// strands fewer pods is closer, however long its queues. Then lost work:
// the GPU-hours lost (ConstraintCheck::lost_gpu_hours, each class once) by
// the classes that miss a lost-work limit — OOM kills, failed pods,
// evictions and pods never started, weighed by the work each pod lost (a
// 1-hour notebook's OOM kill is not a 3-day training job's). Then the
// number of pods over those limits. Ties go to `relative`: the sum over the
// other missed checks of the miss relative to its limit (a limit of 0
// counts as 1).
struct MissSeverity {
  double stranded_pods = 0;   // Σ (cannot_run − limit) over missed classes
  double lost_gpu_hours = 0;  // Σ lost GPU-hours of classes missing one
  double lost_pods = 0;       // Σ (oom_kills, failed, preemptions, pending
                              //    − limit)
  double relative = 0;        // Σ miss / max(|limit|, 1) over the rest
};

MissSeverity SeverityOf(const std::vector<ConstraintCheck>& checks);

// Lost GPU-hours closer than this are equal (a thousandth of a GPU-hour:
// seconds of work; means over seeds differ by rounding).
inline constexpr double kLostGpuHoursEpsilon = 1e-3;

// True when `a` misses less than `b`: fewer stranded pods, then fewer lost
// GPU-hours (beyond kLostGpuHoursEpsilon), then fewer pods over lost-work
// limits, then a smaller relative sum.
bool MissesLess(const MissSeverity& a, const MissSeverity& b);

// "prod-inference max_mean_wait_s 75.2 > 60" / "cluster max_gpus 160 > 144".
std::string DescribeCheck(const ConstraintCheck& check);
// Each check described, joined by "; " ("" for none).
std::string DescribeChecks(const std::vector<ConstraintCheck>& checks);

// A check in words, without the class: "118 OOM kills (limit 0)", "mean
// wait 4820 s (limit 1800 s)", "slowdown 4.31x (limit 3x)", "SLO met in 84.1%
// of latency samples (target 99%)".
std::string DescribeInWords(const ConstraintCheck& check);
// Each check in words, joined by ", " ("" for none).
std::string DescribeInWords(const std::vector<ConstraintCheck>& checks);

// The limits that are checked, in words: "no OOM kills, failed or
// unrunnable pods; mean wait <= 3600 s; slowdown <= 3x"; the SLO target
// ("SLO met in >= 99% of latency samples") only when `with_slo`.
std::string DescribeLimits(const ClassConstraints& constraints, bool with_slo);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLAN_CONSTRAINTS_H_
