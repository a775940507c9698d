#include "gpushare/decide/sweep_grid_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace sweep_grid_reader_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

SweepGrid Read(const std::string& text) {
  return ReadSweepGrid(text, "grid.yaml", /*scenario_given=*/true);
}

std::string ReadError(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepGridReaderTest, CrossZipAndSet) {
  const SweepGrid g = Read(R"(command: compare
set:
  horizon_s: 600
cross:
  cluster.pools[l4].sharing.replicas: {from: 2, to: 8, step: 3}
  seed: [1, 2]
zip:
  workload.classes[a].count: [10, 20, 30]
  workload.classes[b].count: [1, 2, 3]
)");
  EXPECT_EQ(g.command, SweepCommand::kCompare);
  ASSERT_EQ(g.set.size(), 1u);
  EXPECT_THAT(g.set[0].values, ElementsAre("600"));
  ASSERT_EQ(g.cross.size(), 2u);
  EXPECT_THAT(g.cross[0].values, ElementsAre("2", "5", "8"));
  EXPECT_FALSE(g.cross[0].written);
  EXPECT_EQ(g.cross[0].line, 5);
  EXPECT_EQ(g.cross[0].column, 3);
  EXPECT_EQ(g.cross[1].value_marks[1], std::make_pair(6, 13));
  EXPECT_EQ(g.points, 3 * 2 * 3);
  // The first axis varies slowest, the zip axis fastest.
  EXPECT_THAT(g.ValueTexts(0), ElementsAre("2", "1", "10", "1"));
  EXPECT_THAT(g.ValueTexts(1), ElementsAre("2", "1", "20", "2"));
  EXPECT_THAT(g.ValueTexts(3), ElementsAre("2", "2", "10", "1"));
  EXPECT_THAT(g.ValueTexts(17), ElementsAre("8", "2", "30", "3"));
  EXPECT_THAT(g.ValueIndexes(7), ElementsAre(1, 0, 1, 1));
}

TEST(SweepGridReaderTest, RangesAndValueTexts) {
  const SweepGrid g = Read(R"(cross:
  a: {from: 0.1, to: 0.3, step: 0.1}
  b: {from: -2, to: 2, step: 2}
  c: [{scheme: mps, replicas: 2}, [1, 2], "x y"]
)");
  EXPECT_THAT(g.cross[0].values, ElementsAre("0.1", "0.2", "0.3"));
  EXPECT_THAT(g.cross[1].values, ElementsAre("-2", "0", "2"));
  EXPECT_THAT(g.cross[2].values,
              ElementsAre("{scheme: mps, replicas: 2}", "[1, 2]", "x y"));
  EXPECT_TRUE(g.cross[2].written);
}

TEST(SweepGridReaderTest, LocatedErrors) {
  EXPECT_THAT(ReadError(""), HasSubstr("grid.yaml:1:1: empty sweep grid"));
  EXPECT_THAT(ReadError("set: {seed: 1}\n"),
              HasSubstr("grid.yaml:1:1: sweep grid: nothing varies"));
  EXPECT_THAT(ReadError("crosss: {seed: [1]}\n"),
              HasSubstr("grid.yaml:1:1: sweep grid: unknown key 'crosss'"));
  EXPECT_THAT(ReadError("command: plan\ncross: {seed: [1]}\n"),
              HasSubstr("grid.yaml:1:10: sweep grid command: 'plan' is not"));
  EXPECT_THAT(ReadError("cross:\n  seed: 3\n"),
              HasSubstr("grid.yaml:2:9: cross 'seed': expected a list of "
                        "values or a range {from, to, step}, got '3'"));
  EXPECT_THAT(ReadError("cross:\n  seed: []\n"),
              HasSubstr("grid.yaml:2:9: cross 'seed': expected at least one "
                        "value"));
  EXPECT_THAT(ReadError("cross:\n  seed: [1, ~]\n"),
              HasSubstr("cross 'seed': a value must not be empty"));
  EXPECT_THAT(ReadError("cross:\n  a..b: [1]\n"),
              HasSubstr("grid.yaml:2:3: cross key 'a..b': an empty key"));
  EXPECT_THAT(ReadError("cross:\n  seed: {from: 3, to: 1}\n"),
              HasSubstr("grid.yaml:2:23: cross 'seed' to: 1 is below from"));
  EXPECT_THAT(ReadError("cross:\n  seed: {from: 1, to: 3, step: 0}\n"),
              HasSubstr("cross 'seed' step: must be above 0"));
  EXPECT_THAT(ReadError("cross:\n  seed: {from: 1, to: 3, by: 1}\n"),
              HasSubstr("unknown key 'by'"));
  EXPECT_THAT(ReadError("cross:\n  seed: {from: 0, to: 1e9}\n"),
              HasSubstr("values; at most 100000 per key"));
  EXPECT_THAT(ReadError("cross:\n  a: {from: 1, to: 1000}\n"
                        "  b: {from: 1, to: 1000}\n  c: [1, 2]\n"),
              HasSubstr("grid.yaml:4:3: sweep grid: more than 1000000 points "
                        "with 'c'"));
  EXPECT_THAT(ReadError("zip:\n  a: [1, 2]\n  b: [1]\n"),
              HasSubstr("grid.yaml:3:3: zip 'b': 1 values, but 'a' has 2"));
  EXPECT_THAT(ReadError("zip:\n  a: {from: 1, to: 2}\n"),
              HasSubstr("zip 'a': expected a list of values, got a mapping"));
  EXPECT_THAT(ReadError("set:\n  model: {}\ncross:\n  model.x: [1]\n"),
              HasSubstr("grid.yaml:4:3: cross 'model.x': already set by "
                        "'model' (set at line 2)"));
  EXPECT_THAT(ReadError("cross:\n  a.b: [1]\n  a: [2]\n"),
              HasSubstr("cross 'a': contains 'a.b'"));
  EXPECT_THAT(ReadError("cross:\n  seed: [1]\n  seed: [2]\n"),
              HasSubstr("duplicate key 'seed'"));
  EXPECT_THAT(ReadError("set:\n  seed:\ncross: {a: [1]}\n"),
              HasSubstr("set 'seed': expected a value, got nothing"));
}

TEST(SweepGridReaderTest, ScenarioKey) {
  try {
    ReadSweepGrid("cross: {seed: [1]}\n", "g.yaml", /*scenario_given=*/false);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("missing key 'scenario'"));
  }
  try {
    ReadSweepGrid("scenario: nowhere.yaml\ncross: {seed: [1]}\n", "dir/g.yaml",
                  /*scenario_given=*/false);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("g.yaml:1:11: "));
    EXPECT_THAT(e.what(),
                HasSubstr("scenario: no such file 'dir/nowhere.yaml'"));
  }
  // Named on the command line: the key is not read.
  EXPECT_EQ(Read("scenario: nowhere.yaml\ncross: {seed: [1]}\n").scenario, "");
}

TEST(SweepGridTest, ShardsAndDigest) {
  EXPECT_THAT(ShardPoints(10, 1, 4), ElementsAre(1, 5, 9));
  EXPECT_THAT(ShardPoints(2, 3, 4), ElementsAre());
  int shard = -1, shards = -1;
  ParseShard("3/4", "--shard", &shard, &shards);
  EXPECT_EQ(shard, 3);
  EXPECT_EQ(shards, 4);
  for (const char* bad :
       {"4/4", "1", "/4", "1/", "-1/4", "1/0", "a/b", "1/4/5", "0/1000000"}) {
    EXPECT_THROW(ParseShard(bad, "--shard", &shard, &shards), InputError)
        << bad;
  }
  const SweepGrid a = Read("cross: {seed: [1, 2]}\n");
  const SweepGrid b = Read("# a comment\ncross:\n  seed: [1, 2]\n");
  const SweepGrid c = Read("cross: {seed: [1, 3]}\n");
  EXPECT_EQ(SweepDigest(a, "x"), SweepDigest(b, "x"));
  EXPECT_NE(SweepDigest(a, "x"), SweepDigest(c, "x"));
  EXPECT_NE(SweepDigest(a, "x"), SweepDigest(a, "y"));
  EXPECT_EQ(SweepDigest(a, "x").size(), 16u);
}

}  // namespace
}  // namespace sweep_grid_reader_test
}  // namespace gpushare
