#include "gpushare/decide/node_search.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

// Runs a search against "feasible from `need` nodes on"; returns the probes.
std::vector<int> Probe(NodeSearch& s, int need) {
  std::vector<int> probes;
  while (!s.done()) {
    probes.push_back(s.Next());
    s.Report(s.Next() >= need);
  }
  return probes;
}

TEST(NodeSearchTest, FindsTheFewestFeasibleNodesFromScratch) {
  for (int need = 1; need <= 9; ++need) {
    NodeSearch s(1, 8);
    Probe(s, need);
    if (need <= 8) {
      EXPECT_TRUE(s.feasible()) << need;
      EXPECT_EQ(s.nodes(), need);
      EXPECT_LE(s.probes(), 1 + 3);  // max, then log2(8)
    } else {
      EXPECT_FALSE(s.feasible());
      EXPECT_EQ(s.probes(), 1);
    }
  }
}

TEST(NodeSearchTest, ProbesTheMaximumFirst) {
  NodeSearch s(2, 6);
  EXPECT_EQ(s.Next(), 6);
  EXPECT_EQ(Probe(s, 3), (std::vector<int>{6, 4, 3, 2}));
  EXPECT_EQ(s.nodes(), 3);
}

TEST(NodeSearchTest, AFeasibleGuessIsConfirmedByOneNodeFewer) {
  NodeSearch s(1, 10, 4);
  EXPECT_EQ(Probe(s, 4), (std::vector<int>{4, 3}));
  EXPECT_EQ(s.nodes(), 4);
}

TEST(NodeSearchTest, AGuessTooHighBisectsBelow) {
  NodeSearch s(1, 10, 6);
  EXPECT_EQ(Probe(s, 2), (std::vector<int>{6, 5, 3, 2, 1}));
  EXPECT_EQ(s.nodes(), 2);
}

TEST(NodeSearchTest, AGuessTooLowProbesTheMaximumThenBisects) {
  NodeSearch s(1, 10, 3);
  EXPECT_EQ(Probe(s, 7), (std::vector<int>{3, 10, 7, 5, 6}));
  EXPECT_EQ(s.nodes(), 7);
  NodeSearch never(1, 10, 3);
  EXPECT_EQ(Probe(never, 11), (std::vector<int>{3, 10}));
  EXPECT_FALSE(never.feasible());
}

TEST(NodeSearchTest, AFixedCountIsProbedOnce) {
  NodeSearch s(5, 5);
  EXPECT_EQ(Probe(s, 1), (std::vector<int>{5}));
  EXPECT_TRUE(s.feasible());
  EXPECT_EQ(s.nodes(), 5);
  NodeSearch g(5, 5, 5);
  EXPECT_EQ(Probe(g, 1), (std::vector<int>{5}));
}

TEST(NodeSearchTest, AGuessAtTheMinimumNeedsOneProbe) {
  NodeSearch s(3, 9, 3);
  EXPECT_EQ(Probe(s, 1), (std::vector<int>{3}));
  EXPECT_EQ(s.nodes(), 3);
}

}  // namespace
}  // namespace gpushare
