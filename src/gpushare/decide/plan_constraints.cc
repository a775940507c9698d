#include "gpushare/decide/plan_constraints.h"

#include <fmt/format.h>

#include <cmath>

namespace gpushare {
namespace {

void AddMax(const std::string& tenant_class, const char* name, double value,
            double limit, std::vector<ConstraintCheck>* out) {
  if (limit < 0) return;
  out->push_back({tenant_class, name, value, limit, limit - value});
}

bool IsMinimum(const std::string& constraint) {
  return constraint.rfind("min_", 0) == 0;
}

}  // namespace

std::vector<ConstraintCheck> CheckClassConstraints(const ClassConstraints& c,
                                                   const ClassMetrics& m) {
  std::vector<ConstraintCheck> out;
  if (m.pods == 0) return out;
  const std::string& name = c.tenant_class;
  if (c.min_slo_attainment >= 0 && m.slo_attainment >= 0) {
    out.push_back({name, "min_slo_attainment", m.slo_attainment,
                   c.min_slo_attainment,
                   m.slo_attainment - c.min_slo_attainment});
  }
  AddMax(name, "max_mean_wait_s", m.mean_wait_s, c.max_mean_wait_s, &out);
  AddMax(name, "max_p99_wait_s", m.p99_wait_s, c.max_p99_wait_s, &out);
  AddMax(name, "max_oom_kills", static_cast<double>(m.oom_kills),
         static_cast<double>(c.max_oom_kills), &out);
  AddMax(name, "max_failed", static_cast<double>(m.failed),
         static_cast<double>(c.max_failed), &out);
  AddMax(name, "max_cannot_run", static_cast<double>(m.cannot_run),
         static_cast<double>(c.max_cannot_run), &out);
  AddMax(name, "max_pending", static_cast<double>(m.pending),
         static_cast<double>(c.max_pending), &out);
  AddMax(name, "max_preemptions", static_cast<double>(m.preemptions),
         static_cast<double>(c.max_preemptions), &out);
  return out;
}

std::vector<ConstraintCheck> CheckClusterConstraints(
    const ClusterConstraints& c, int64_t gpus, double cost_per_hour) {
  std::vector<ConstraintCheck> out;
  AddMax("", "max_gpus", static_cast<double>(gpus),
         static_cast<double>(c.max_gpus), &out);
  AddMax("", "max_cost_per_hour", cost_per_hour, c.max_cost_per_hour, &out);
  return out;
}

bool AllMet(const std::vector<ConstraintCheck>& checks) {
  for (const ConstraintCheck& c : checks) {
    if (!c.met()) return false;
  }
  return true;
}

std::vector<ConstraintCheck> Missed(
    const std::vector<ConstraintCheck>& checks) {
  std::vector<ConstraintCheck> out;
  for (const ConstraintCheck& c : checks) {
    if (!c.met()) out.push_back(c);
  }
  return out;
}

MissSeverity SeverityOf(const std::vector<ConstraintCheck>& checks) {
  MissSeverity out;
  for (const ConstraintCheck& c : checks) {
    if (c.met()) continue;
    if (c.constraint == "max_cannot_run") {
      out.stranded_pods += -c.margin;
    } else {
      out.relative += -c.margin / std::max(std::abs(c.limit), 1.0);
    }
  }
  return out;
}

bool MissesLess(const MissSeverity& a, const MissSeverity& b) {
  if (a.stranded_pods != b.stranded_pods) {
    return a.stranded_pods < b.stranded_pods;
  }
  return a.relative < b.relative;
}

std::string DescribeCheck(const ConstraintCheck& c) {
  const std::string who = c.tenant_class.empty() ? "cluster" : c.tenant_class;
  const bool min = IsMinimum(c.constraint);
  const char* op = c.met() ? (min ? ">=" : "<=") : (min ? "<" : ">");
  return fmt::format("{} {} {:.4g} {} {:.4g}", who, c.constraint, c.value, op,
                     c.limit);
}

std::string DescribeChecks(const std::vector<ConstraintCheck>& checks) {
  std::string out;
  for (const ConstraintCheck& c : checks) {
    out += (out.empty() ? "" : "; ") + DescribeCheck(c);
  }
  return out;
}

}  // namespace gpushare
