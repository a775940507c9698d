#include "gpushare/report/class_outcome_columns.h"

#include <fmt/format.h>

namespace gpushare {
namespace {

std::string VsObjective(double p99_ms, double objective_ms) {
  if (p99_ms < 0) return "-";
  if (objective_ms <= 0) return fmt::format("{:.1f}", p99_ms);
  return fmt::format("{:.1f} / {:g}", p99_ms, objective_ms);
}

}  // namespace

std::string EvictionHeader() {
  return "evictions (preempted by the scheduler or Kueue)";
}

std::string EvictionCell(const ClassMetrics& m) {
  return m.pods > 0 ? std::to_string(m.preemptions) : "-";
}

bool HasEngine(const std::vector<const ClassMetrics*>& rows) {
  for (const ClassMetrics* m : rows) {
    if (m != nullptr && m->mean_ttft_p99_ms >= 0) return true;
  }
  return false;
}

std::vector<std::string> EngineHeader() {
  return {"p99 TTFT / SLO ms (time to first token)",
          "p99 TPOT / SLO ms (time per output token)"};
}

std::vector<std::string> EngineCells(const ClassMetrics& m) {
  return {VsObjective(m.mean_ttft_p99_ms, m.mean_slo_ttft_p99_ms),
          VsObjective(m.mean_tpot_p99_ms, m.mean_slo_tpot_p99_ms)};
}

}  // namespace gpushare
