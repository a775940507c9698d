// Tests of the evictions and LLM-engine columns of the HTML per-class
// tables.

#include "gpushare/report/class_outcome_columns.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace class_outcome_columns_test {
namespace {

TEST(ClassOutcomeColumnsTest, EvictionsAreTheClassesPreemptions) {
  ClassMetrics m;
  EXPECT_EQ(EvictionCell(m), "-");  // no pod: nothing to count
  m.pods = 10;
  EXPECT_EQ(EvictionCell(m), "0");
  m.preemptions = 14;
  m.preempted = 9;  // pods evicted at least once: not the count shown
  EXPECT_EQ(EvictionCell(m), "14");
  EXPECT_EQ(EvictionHeader(),
            "evictions (preempted by the scheduler or Kueue)");
}

TEST(ClassOutcomeColumnsTest, EngineColumnsOnlyWhereAnEngineRan) {
  ClassMetrics plain;
  plain.pods = 3;
  ClassMetrics engine = plain;
  engine.mean_ttft_p99_ms = 749.814;
  engine.mean_tpot_p99_ms = 93.0022;
  engine.mean_slo_ttft_p99_ms = 500;
  engine.mean_slo_tpot_p99_ms = 40;
  EXPECT_FALSE(HasEngine({}));
  EXPECT_FALSE(HasEngine({&plain, nullptr}));
  EXPECT_TRUE(HasEngine({&plain, &engine}));
  EXPECT_EQ(EngineHeader().size(), 2u);
  EXPECT_EQ(EngineCells(engine),
            (std::vector<std::string>{"749.8 / 500", "93.0 / 40"}));
  // Without objectives the p99 alone; without a measurement "-".
  engine.mean_slo_ttft_p99_ms = 0;
  engine.mean_slo_tpot_p99_ms = 0;
  EXPECT_EQ(EngineCells(engine),
            (std::vector<std::string>{"749.8", "93.0"}));
  EXPECT_EQ(EngineCells(plain), (std::vector<std::string>{"-", "-"}));
}

}  // namespace
}  // namespace class_outcome_columns_test
}  // namespace gpushare
