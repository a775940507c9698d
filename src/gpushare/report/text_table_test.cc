#include "gpushare/report/text_table.h"

#include <gtest/gtest.h>

#include <string>

namespace gpushare {
namespace {

using Align = TextTable::Align;

TEST(DisplayWidthTest, NarrowCodePointsCountOne) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\xC3\xA9"), 1u);          // é, 2 bytes
  EXPECT_EQ(DisplayWidth("\xE2\x82\xAC"), 1u);      // €, 3 bytes
  EXPECT_EQ(DisplayWidth("\xF0\x9F\x99\x82"), 1u);  // U+1F642, not listed
}

TEST(DisplayWidthTest, EastAsianWideCodePointsCountTwo) {
  EXPECT_EQ(DisplayWidth("显卡型号"), 8u);  // 3 bytes, 2 columns each
  EXPECT_EQ(DisplayWidth("GPU显卡"), 7u);
  EXPECT_EQ(DisplayWidth("カナ"), 4u);              // katakana
  EXPECT_EQ(DisplayWidth("한국어"), 6u);            // Hangul syllables
  EXPECT_EQ(DisplayWidth("ＧＰＵ"), 6u);            // fullwidth forms
  EXPECT_EQ(DisplayWidth("、"), 2u);                // U+3001, CJK punctuation
  EXPECT_EQ(DisplayWidth("\xF0\xA0\x80\x80"), 2u);  // U+20000, 4 bytes
}

TEST(DisplayWidthTest, RangeEdges) {
  EXPECT_EQ(DisplayWidth("\xE1\x84\x80"), 2u);      // U+1100, first wide
  EXPECT_EQ(DisplayWidth("\xE1\x85\x9F"), 2u);      // U+115F
  EXPECT_EQ(DisplayWidth("\xE1\x85\xA0"), 1u);      // U+1160
  EXPECT_EQ(DisplayWidth("\xE3\x80\xBE"), 2u);      // U+303E
  EXPECT_EQ(DisplayWidth("\xE3\x80\xBF"), 1u);      // U+303F
  EXPECT_EQ(DisplayWidth("\xE3\x81\x80"), 1u);      // U+3040
  EXPECT_EQ(DisplayWidth("\xE3\x81\x81"), 2u);      // U+3041
  EXPECT_EQ(DisplayWidth("\xED\x9E\xA3"), 2u);      // U+D7A3
  EXPECT_EQ(DisplayWidth("\xED\x9E\xA4"), 1u);      // U+D7A4
  EXPECT_EQ(DisplayWidth("\xEF\xBD\xA0"), 2u);      // U+FF60
  EXPECT_EQ(DisplayWidth("\xEF\xBD\xA1"), 1u);      // U+FF61, halfwidth
  EXPECT_EQ(DisplayWidth("\xEF\xBF\xA6"), 2u);      // U+FFE6
  EXPECT_EQ(DisplayWidth("\xEF\xBF\xA7"), 1u);      // U+FFE7
  EXPECT_EQ(DisplayWidth("\xF0\xBF\xBF\xBD"), 2u);  // U+3FFFD
  EXPECT_EQ(DisplayWidth("\xF0\xBF\xBF\xBE"), 1u);  // U+3FFFE
}

TEST(DisplayWidthTest, InvalidUtf8CountsOnePerByte) {
  EXPECT_EQ(DisplayWidth("\x80"), 1u);      // lone continuation
  EXPECT_EQ(DisplayWidth("\xE4\xB8"), 2u);  // truncated 3-byte
  EXPECT_EQ(DisplayWidth("a\xE4\xB8"), 3u);
  EXPECT_EQ(DisplayWidth("\xE4"
                         "a"),
            2u);                                // bad continuation
  EXPECT_EQ(DisplayWidth("\xC0\xAF"), 2u);      // overlong '/'
  EXPECT_EQ(DisplayWidth("\xED\xA0\x80"), 3u);  // surrogate U+D800
  EXPECT_EQ(DisplayWidth("\xFF\xFE"), 2u);
  EXPECT_EQ(DisplayWidth("\x80显"), 3u);  // resyncs after a bad byte
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

TEST(TextTableTest, ChineseCellsCountTwoColumnsPerCharacter) {
  TextTable table;
  table.AddColumn("名称");
  table.AddColumn("值", Align::kRight);
  table.AddRow({"GPU", "1"});
  table.AddRow({"显卡型号", "22"});
  // Widths 8 and 2 (terminal columns: "显卡型号" is 4 characters, 12 bytes).
  EXPECT_EQ(table.Render(),
            "名称      值\n"
            "GPU        1\n"
            "显卡型号  22\n");
}

TEST(TextTableTest, MixedAsciiAndChineseInOneColumn) {
  TextTable table;
  table.AddColumn("K");
  table.AddColumn("V");
  table.AddRow({"时间片", "a"});
  table.AddRow({"mig", "b"});
  table.AddRow({"vgpu虚拟", "c"});
  // Width 8: "vgpu虚拟" is 4 + 2 * 2 columns, "时间片" 6.
  EXPECT_EQ(table.Render(),
            "K         V\n"
            "时间片    a\n"
            "mig       b\n"
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
