// LlmEngineTable: the run's LLM engines per tenant class (docs/output.md):
// pods, KV cache, sequences at once, TTFT and TPOT against their SLOs, for
// the terminal summary and the HTML report.
//
// Contract: rows only for tenant classes with a pod running an LLM engine
// (kv_cache_tokens >= 0), in the order their first pod appears;
// nothing (empty text, no rows) for a run without engines, so other runs'
// reports are unchanged. Per class: KV tokens and sequences are the means
// over its engine pods that started with a KV cache; p50 the mean of the
// pods' mean p50, p99 the worst pod's worst interval (docs/output.md);
// "-" where no interval was measured.

#ifndef GPUSHARE_REPORT_LLM_ENGINE_TABLE_H_
#define GPUSHARE_REPORT_LLM_ENGINE_TABLE_H_

#include <string>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

// The table's header and one row per tenant class with engines.
std::vector<std::string> LlmEngineHeader();
std::vector<std::vector<std::string>> LlmEngineRows(const SimulationResult& r);

// "\nLLM engines (...)\n<table>" for the terminal; "" without engines.
std::string LlmEngineText(const SimulationResult& r);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_LLM_ENGINE_TABLE_H_
