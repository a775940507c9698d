#include "gpushare/report/text_table.h"

#include <gtest/gtest.h>

#include <string>

namespace gpushare {
namespace {

using Align = TextTable::Align;

TEST(DisplayWidthTest, CountsCodePoints) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\xC3\xA9"), 1u);  // é, 2 bytes
  EXPECT_EQ(DisplayWidth("显卡型号"), 4u);  // 3 bytes each
  EXPECT_EQ(DisplayWidth("GPU显卡"), 5u);
  EXPECT_EQ(DisplayWidth("\xF0\x9F\x99\x82"), 1u);  // U+1F642, 4 bytes
}

TEST(TextTableTest, LeftAndRightAlignment) {
  TextTable table;
  table.AddColumn("NAME");
  table.AddColumn("COUNT", Align::kRight);
  table.AddRow({"a", "1"});
  table.AddRow({"longer", "12345"});
  EXPECT_EQ(table.Render(),
            "NAME    COUNT\n"
            "a           1\n"
            "longer  12345\n");
}

TEST(TextTableTest, HeaderWiderThanCells) {
  TextTable table;
  table.AddColumn("N", Align::kRight);
  table.AddColumn("WIDE HEADER");
  table.AddColumn("R", Align::kRight);
  table.AddRow({"7", "x", "123"});
  EXPECT_EQ(table.Render(),
            "N  WIDE HEADER    R\n"
            "7  x            123\n");
}

TEST(TextTableTest, HeaderOnly) {
  TextTable table;
  table.AddColumn("A");
  table.AddColumn("B", Align::kRight);
  EXPECT_EQ(table.Render(), "A  B\n");
}

TEST(TextTableTest, TrimsTrailingPaddingOfTheLastColumn) {
  TextTable table;
  table.AddColumn("A");
  table.AddColumn("B");
  table.AddRow({"x", "long value"});
  table.AddRow({"yy", "z"});
  EXPECT_EQ(table.Render(),
            "A   B\n"
            "x   long value\n"
            "yy  z\n");
}

TEST(TextTableTest, EmptyTrailingCellsLeaveNoSeparator) {
  TextTable table;
  table.AddColumn("PROFILES");
  table.AddColumn("NOTE");
  table.AddRow({"4 x 1g", ""});
  table.AddRow({"", ""});
  table.AddRow({"", "placed"});
  EXPECT_EQ(table.Render(),
            "PROFILES  NOTE\n"
            "4 x 1g\n"
            "\n"
            "          placed\n");
}

TEST(TextTableTest, TrailingSpacesInsideACellAreTrimmedToo) {
  TextTable table;
  table.AddColumn("A");
  table.AddColumn("B");
  table.AddRow({"x", "v   "});
  EXPECT_EQ(table.Render(),
            "A  B\n"
            "x  v\n");
}

TEST(TextTableTest, LeadingPaddingOfRightAlignedCellsIsKept) {
  TextTable table;
  table.AddColumn("NUMBER", Align::kRight);
  table.AddRow({"1"});
  EXPECT_EQ(table.Render(),
            "NUMBER\n"
            "     1\n");
}

TEST(TextTableTest, ChineseCellsCountOneColumnPerCharacter) {
  TextTable table;
  table.AddColumn("名称");
  table.AddColumn("值", Align::kRight);
  table.AddRow({"GPU", "1"});
  table.AddRow({"显卡型号", "22"});
  // Widths 4 and 2 (characters, not bytes: "显卡型号" is 12 bytes).
  EXPECT_EQ(table.Render(),
            "名称     值\n"
            "GPU    1\n"
            "显卡型号  22\n");
}

TEST(TextTableTest, MixedAsciiAndChineseInOneColumn) {
  TextTable table;
  table.AddColumn("K");
  table.AddColumn("V");
  table.AddRow({"时间片", "a"});
  table.AddRow({"mig", "b"});
  table.AddRow({"vgpu虚拟", "c"});
  EXPECT_EQ(table.Render(),
            "K       V\n"
            "时间片     a\n"
            "mig     b\n"
            "vgpu虚拟  c\n");
}

TEST(TextTableDeathTest, RowWithTheWrongCellCountAborts) {
  TextTable table;
  table.AddColumn("A");
  table.AddColumn("B");
  EXPECT_DEATH(table.AddRow({"only one"}), "wrong cell count");
}

TEST(TextTableDeathTest, ColumnAfterARowAborts) {
  TextTable table;
  table.AddColumn("A");
  table.AddRow({"x"});
  EXPECT_DEATH(table.AddColumn("B"), "columns must be added before rows");
}

}  // namespace
}  // namespace gpushare
