// Plan constraints: a tenant class's results (decide/class_metrics.h)
// checked against its constraints (decide/plan_spec.h), and the cluster's
// size and price against the cluster-wide limits.
//
// Contract: one ConstraintCheck per limit that is set (>= 0); the SLO
// target only when the class's pods have latency samples. `margin` is how
// far the value is inside its limit (limit − value for a maximum, value −
// limit for a minimum): >= 0 when met, < 0 by how much it is missed. A
// class without pods in the run meets every limit.

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
  bool met() const { return margin >= 0; }
};

std::vector<ConstraintCheck> CheckClassConstraints(
    const ClassConstraints& constraints, const ClassMetrics& metrics);

std::vector<ConstraintCheck> CheckClusterConstraints(
    const ClusterConstraints& constraints, int64_t gpus, double cost_per_hour);

bool AllMet(const std::vector<ConstraintCheck>& checks);

// The missed checks only.
std::vector<ConstraintCheck> Missed(const std::vector<ConstraintCheck>& checks);

// How badly a plan misses, for ranking plans that meet nothing. Pods that no
// node can ever hold (`max_cannot_run` over its limit) strand work that runs
// today, whatever the wait, so they are counted first and apart: a plan that
// strands fewer pods is closer, however long its queues. Then lost work:
// OOM kills, failed pods and evictions over their limits (work done and
// thrown away) weigh before any wait or slowdown. Ties go to `relative`:
// the sum over the other missed checks of the miss relative to its limit (a
// limit of 0 counts as 1).
struct MissSeverity {
  double stranded_pods = 0;  // Σ (cannot_run − limit) over missed classes
  double lost_work = 0;      // Σ (oom_kills, failed, preemptions − limit)
  double relative = 0;       // Σ miss / max(|limit|, 1) over the rest
};

MissSeverity SeverityOf(const std::vector<ConstraintCheck>& checks);

// True when `a` misses less than `b`: fewer stranded pods, then less lost
// work, then a smaller relative sum.
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
