#include "gpushare/decide/plan_constraints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpushare {
namespace {

void AddMax(const std::string& tenant_class, const char* name, double value,
            double limit, std::vector<ConstraintCheck>* out) {
  if (limit < 0) return;
  out->push_back({tenant_class, name, value, limit, limit - value, 0});
}

bool IsMinimum(const std::string& constraint) {
  return constraint.rfind("min_", 0) == 0;
}

}  // namespace

bool IsLostWorkConstraint(const std::string& constraint) {
  return constraint == "max_oom_kills" || constraint == "max_failed" ||
         constraint == "max_preemptions" || constraint == "max_pending";
}

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
  if (m.mean_slowdown > 0) {  // -1 (or unset): no job completed
    AddMax(name, "max_mean_slowdown", m.mean_slowdown, c.max_mean_slowdown,
           &out);
  }
  if (c.needs_memory_isolation) {
    AddMax(name, "needs_memory_isolation",
           static_cast<double>(m.memory_unprotected), 0, &out);
  }
  for (ConstraintCheck& check : out) {
    if (IsLostWorkConstraint(check.constraint)) {
      check.lost_gpu_hours = m.lost_gpu_hours;
    }
  }
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
  std::vector<std::string> losing;  // classes whose lost work is counted
  for (const ConstraintCheck& c : checks) {
    if (c.met()) continue;
    if (c.constraint == "max_cannot_run") {
      out.stranded_pods += -c.margin;
    } else if (IsLostWorkConstraint(c.constraint)) {
      out.lost_pods += -c.margin;
      if (std::find(losing.begin(), losing.end(), c.tenant_class) ==
          losing.end()) {
        losing.push_back(c.tenant_class);
        out.lost_gpu_hours += c.lost_gpu_hours;
      }
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
  if (std::abs(a.lost_gpu_hours - b.lost_gpu_hours) > kLostGpuHoursEpsilon) {
    return a.lost_gpu_hours < b.lost_gpu_hours;
  }
  if (a.lost_pods != b.lost_pods) return a.lost_pods < b.lost_pods;
  return a.relative < b.relative;
}

std::string DescribeCheck(const ConstraintCheck& c) {
  const std::string who = c.tenant_class.empty() ? "cluster" : c.tenant_class;
  const bool min = IsMinimum(c.constraint);
  const char* op = c.met() ? (min ? ">=" : "<=") : (min ? "<" : ">");
  return fmt::format("{} {} {:.4g} {} {:.4g}", who, c.constraint, c.value, op,
                     c.limit);
}

std::string DescribeInWords(const ConstraintCheck& c) {
  const std::string limit = fmt::format("{:.4g}", c.limit);
  const auto count = [&](const char* what) {
    return fmt::format("{:.0f} {} (limit {})", c.value, what, limit);
  };
  if (c.constraint == "min_slo_attainment") {
    return fmt::format("SLO met in {:.1f}% of latency samples (target {:.4g}%)",
                       100 * c.value, 100 * c.limit);
  }
  if (c.constraint == "max_mean_wait_s") {
    return fmt::format("mean wait {:.0f} s (limit {} s)", c.value, limit);
  }
  if (c.constraint == "max_p99_wait_s") {
    return fmt::format("p99 wait {:.0f} s (limit {} s)", c.value, limit);
  }
  if (c.constraint == "max_mean_slowdown") {
    return fmt::format("slowdown {:.2f}x (limit {}x)", c.value, limit);
  }
  if (c.constraint == "max_oom_kills") return count("OOM kills");
  if (c.constraint == "max_failed") return count("failed pods");
  if (c.constraint == "max_cannot_run") return count("pods it cannot run");
  if (c.constraint == "max_pending") return count("pods never started");
  if (c.constraint == "max_preemptions") return count("evictions");
  if (c.constraint == "needs_memory_isolation") {
    return fmt::format(
        "{:.0f} pods placed where another pod can take their GPU memory (it "
        "needs memory isolation)",
        c.value);
  }
  return fmt::format("{} {:.4g} (limit {})", c.constraint, c.value, limit);
}

std::string DescribeLimits(const ClassConstraints& c, bool with_slo) {
  std::vector<std::string> parts;
  std::vector<std::string> none;  // limits of 0 on counts
  std::vector<std::string> counts;
  // `what`: the word after "no" (its list ends in "pods" but for OOM
  // kills); `counted`: what "<= N" counts.
  const auto count = [&](int64_t limit, const char* what, const char* counted) {
    if (limit == 0) none.push_back(what);
    if (limit > 0) counts.push_back(fmt::format("<= {} {}", limit, counted));
  };
  count(c.max_oom_kills, "OOM kills", "OOM kills");
  count(c.max_failed, "failed", "failed pods");
  count(c.max_cannot_run, "unrunnable", "unrunnable pods");
  count(c.max_pending, "never-started", "never-started pods");
  count(c.max_preemptions, "evicted", "evictions");
  if (!none.empty()) {
    std::string list = none[0];
    for (size_t i = 1; i < none.size(); ++i) {
      list += (i + 1 == none.size() ? " or " : ", ") + none[i];
    }
    parts.push_back("no " + list +
                    (none.size() > 1 || none[0] != "OOM kills" ? " pods" : ""));
  }
  parts.insert(parts.end(), counts.begin(), counts.end());
  if (c.max_mean_wait_s >= 0) {
    parts.push_back(fmt::format("mean wait <= {:.4g} s", c.max_mean_wait_s));
  }
  if (c.max_p99_wait_s >= 0) {
    parts.push_back(fmt::format("p99 wait <= {:.4g} s", c.max_p99_wait_s));
  }
  if (c.max_mean_slowdown >= 0) {
    parts.push_back(fmt::format("slowdown <= {:.4g}x", c.max_mean_slowdown));
  }
  if (c.needs_memory_isolation) {
    parts.push_back("memory isolated from other pods");
  }
  if (with_slo && c.min_slo_attainment >= 0) {
    parts.push_back(fmt::format("SLO met in >= {:.4g}% of latency samples",
                                100 * c.min_slo_attainment));
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out.empty() ? "no limits" : out;
}

std::string DescribeInWords(const std::vector<ConstraintCheck>& checks) {
  std::string out;
  for (const ConstraintCheck& c : checks) {
    out += (out.empty() ? "" : ", ") + DescribeInWords(c);
  }
  return out;
}

std::string DescribeChecks(const std::vector<ConstraintCheck>& checks) {
  std::string out;
  for (const ConstraintCheck& c : checks) {
    out += (out.empty() ? "" : "; ") + DescribeCheck(c);
  }
  return out;
}

}  // namespace gpushare
