#include "gpushare/io/row_spool.h"

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpushare {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> InOrder(const RowSpool& spool) {
  std::vector<std::string> rows;
  spool.ForEachInOrder(
      [&](std::string_view row) { rows.emplace_back(row); });
  return rows;
}

// Rows added out of order come back in index order, an index never added
// skipped, and the folder holds no file of the spool at any time.
TEST(RowSpoolTest, GivesRowsInIndexOrderAndLeavesNoFile) {
  char pattern[] = "/tmp/gs-spool-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  {
    RowSpool spool(dir, "x");
    spool.Add(3, "d\n");
    spool.Add(0, "a\n");
    spool.Add(1, "bb\n");
    EXPECT_TRUE(fs::is_empty(dir));
    EXPECT_EQ(spool.rows(), 3);
    EXPECT_EQ(InOrder(spool), (std::vector<std::string>{"a\n", "bb\n", "d\n"}));
  }
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

// Rows larger than the write buffer and the read window, and many rows
// written in reverse order, are read back whole.
TEST(RowSpoolTest, LargeRowsAndManyRows) {
  RowSpool spool("/tmp", "x");
  const std::string big(5 << 20, 'x');
  const int n = 20000;
  for (int i = n - 1; i >= 0; --i) {
    spool.Add(i, i == 7 ? big + "!" : std::to_string(i) + ",");
  }
  const std::vector<std::string> rows = InOrder(spool);
  ASSERT_EQ(rows.size(), static_cast<size_t>(n));
  EXPECT_EQ(rows[0], "0,");
  EXPECT_EQ(rows[7], big + "!");
  EXPECT_EQ(rows[n - 1], std::to_string(n - 1) + ",");
}

}  // namespace
}  // namespace gpushare
