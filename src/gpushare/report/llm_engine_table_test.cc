#include "gpushare/report/llm_engine_table.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

PodRecord EnginePod(const std::string& tenant_class, int64_t kv, int64_t seqs,
                    double ttft50, double ttft99, double tpot50,
                    double tpot99) {
  PodRecord p;
  p.tenant_class = tenant_class;
  p.kv_cache_tokens = kv;
  p.max_concurrent_seqs = seqs;
  p.ttft_p50_ms = ttft50;
  p.ttft_p99_ms = ttft99;
  p.tpot_p50_ms = tpot50;
  p.tpot_p99_ms = tpot99;
  return p;
}

TEST(LlmEngineTableTest, NothingWithoutEngines) {
  SimulationResult r;
  r.pod_records.push_back(PodRecord{});  // kv_cache_tokens -1: no engine
  EXPECT_TRUE(LlmEngineRows(WithPodSummaries(r)).empty());
  EXPECT_EQ(LlmEngineText(WithPodSummaries(r)), "");
}

TEST(LlmEngineTableTest, PerClassMeansAndWorst) {
  SimulationResult r;
  r.pod_records.push_back(EnginePod("chat", 1000, 10, 20, 50, 5, 8));
  r.pod_records.push_back(EnginePod("chat", 3000, 30, 40, 90, 7, 12));
  // Failed at start: counted as a pod, not in the KV or latency means.
  r.pod_records.push_back(EnginePod("chat", 0, 0, -1, -1, -1, -1));
  r.pod_records.back().slo_ttft_p99_ms = 100;
  r.pod_records.back().slo_tpot_p99_ms = 10;
  r.pod_records.push_back(PodRecord{});
  r.pod_records.push_back(EnginePod("embed", 0, 0, -1, -1, -1, -1));
  const auto rows = LlmEngineRows(WithPodSummaries(r));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"chat", "3", "2000", "20",
                                               "30.0", "90.0/100", "6.0",
                                               "12.0/10"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"embed", "1", "-", "-", "-",
                                               "-", "-", "-"}));
  EXPECT_EQ(LlmEngineHeader().size(), rows[0].size());
  EXPECT_NE(LlmEngineText(WithPodSummaries(r)).find("ENGINE CLASS"), std::string::npos);
}

}  // namespace
}  // namespace gpushare
