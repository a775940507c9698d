// The evictions and LLM-engine columns of the HTML pages' per-class tables
// (`compare --html`, `plan --html`; docs/output.md "HTML reports").
//
// Contract: a per-class table has one row per scheme (compare) or plan
// (plan), each from that row's ClassMetrics of the class.
// EvictionHeader()/EvictionCell() are the evictions column, on every such
// table: the evictions of the class's pods (ClassMetrics::preemptions:
// evicted by kube-scheduler's DefaultPreemption or, running, by Kueue's
// preemption of their workload; each eviction counts; OOM and GPU-fault
// kills are counted apart), as a whole number ("-" for a class with no pod).
// HasEngine() is whether any row's class ran an LLM engine
// (mean_ttft_p99_ms >= 0); only then do the tables add EngineHeader()'s two
// columns, EngineCells(): the mean worst-interval p99 TTFT and TPOT in ms
// against their objectives ("114.1 / 500"; the p99 alone without an
// objective; "-" where the row has no engine measurement). Deterministic.

#ifndef GPUSHARE_REPORT_CLASS_OUTCOME_COLUMNS_H_
#define GPUSHARE_REPORT_CLASS_OUTCOME_COLUMNS_H_

#include <string>
#include <vector>

#include "gpushare/decide/class_metrics.h"

namespace gpushare {

std::string EvictionHeader();
std::string EvictionCell(const ClassMetrics& metrics);

bool HasEngine(const std::vector<const ClassMetrics*>& rows);
std::vector<std::string> EngineHeader();
std::vector<std::string> EngineCells(const ClassMetrics& metrics);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_CLASS_OUTCOME_COLUMNS_H_
