#include "gpushare/report/llm_engine_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/text_table.h"

namespace gpushare {
namespace {

struct LlmTableClass {
  std::string name;
  int pods = 0;
  int started = 0;
  int64_t kv_tokens = 0;
  int64_t seqs = 0;
  int measured = 0;
  double ttft_p50 = 0, tpot_p50 = 0;
  double ttft_p99 = -1, tpot_p99 = -1;
  double slo_ttft = 0, slo_tpot = 0;
};

std::string LlmTableMs(double ms) {
  return ms >= 0 ? fmt::format("{:.1f}", ms) : "-";
}

// "p99 / SLO" in ms, the p99 alone without an SLO.
std::string LlmTableVsSlo(double p99, double slo) {
  if (p99 < 0) return "-";
  return slo > 0 ? fmt::format("{:.1f}/{:.4g}", p99, slo) : LlmTableMs(p99);
}

std::vector<LlmTableClass> LlmTableClasses(const SimulationResult& r) {
  std::vector<LlmTableClass> out;
  r.pod_summaries.ForEach([&](const PodSummary& p) {
    if (p.kv_cache_tokens < 0) return;
    const std::string& tenant_class = r.text(p.tenant_class);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& c) {
      return c.name == tenant_class;
    });
    if (it == out.end()) {
      out.push_back({});
      out.back().name = tenant_class;
      it = out.end() - 1;
    }
    LlmTableClass& c = *it;
    ++c.pods;
    c.slo_ttft = std::max(c.slo_ttft, p.slo_ttft_p99_ms);
    c.slo_tpot = std::max(c.slo_tpot, p.slo_tpot_p99_ms);
    if (p.kv_cache_tokens > 0) {
      ++c.started;
      c.kv_tokens += p.kv_cache_tokens;
      c.seqs += p.max_concurrent_seqs;
    }
    if (p.ttft_p50_ms >= 0) {
      ++c.measured;
      c.ttft_p50 += p.ttft_p50_ms;
      c.tpot_p50 += p.tpot_p50_ms;
      c.ttft_p99 = std::max(c.ttft_p99, p.ttft_p99_ms);
      c.tpot_p99 = std::max(c.tpot_p99, p.tpot_p99_ms);
    }
  });
  return out;
}

}  // namespace

std::vector<std::string> LlmEngineHeader() {
  return {"tenant class", "engine pods", "KV tokens", "seqs at once",
          "TTFT p50 ms", "TTFT p99/SLO ms", "TPOT p50 ms",
          "TPOT p99/SLO ms"};
}

std::vector<std::vector<std::string>> LlmEngineRows(const SimulationResult& r) {
  std::vector<std::vector<std::string>> rows;
  for (const LlmTableClass& c : LlmTableClasses(r)) {
    const double n = c.measured;
    rows.push_back(
        {c.name, std::to_string(c.pods),
         c.started ? std::to_string(c.kv_tokens / c.started) : "-",
         c.started ? std::to_string(c.seqs / c.started) : "-",
         LlmTableMs(c.measured ? c.ttft_p50 / n : -1),
         LlmTableVsSlo(c.ttft_p99, c.slo_ttft),
         LlmTableMs(c.measured ? c.tpot_p50 / n : -1),
         LlmTableVsSlo(c.tpot_p99, c.slo_tpot)});
  }
  return rows;
}

std::string LlmEngineText(const SimulationResult& r) {
  const auto rows = LlmEngineRows(r);
  if (rows.empty()) return "";
  TextTable table;
  table.AddColumn("ENGINE CLASS");
  table.AddColumn("PODS", TextTable::Align::kRight);
  table.AddColumn("KV TOKENS", TextTable::Align::kRight);
  table.AddColumn("SEQS", TextTable::Align::kRight);
  table.AddColumn("TTFT P50", TextTable::Align::kRight);
  table.AddColumn("TTFT P99/SLO", TextTable::Align::kRight);
  table.AddColumn("TPOT P50", TextTable::Align::kRight);
  table.AddColumn("TPOT P99/SLO", TextTable::Align::kRight);
  for (const auto& row : rows) table.AddRow(row);
  return "\n" + table.Render() +
         WrapText("LLM engines (docs/model.md §6.8): KV tokens and sequences "
                  "at once per started engine; TTFT (time to first token) and "
                  "TPOT (time per output token) in ms, p50 the mean, p99 the "
                  "worst interval",
                  kReportWidth, 2);
}

}  // namespace gpushare
