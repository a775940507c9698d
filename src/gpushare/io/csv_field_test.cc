#include "gpushare/io/csv_field.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(CsvFieldTest, PlainFieldsAreWrittenAsTheyAre) {
  EXPECT_EQ(CsvField("train-7"), "train-7");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("a-b=c"), "a-b=c");
}

TEST(CsvFieldTest, SeparatorsAndQuotesAreQuoted) {
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(CsvFieldTest, WhatASpreadsheetReadsAsAFormulaIsNeutralised) {
  EXPECT_EQ(CsvField("=cmd|'/Ccalc'!A0"), "\"'=cmd|'/Ccalc'!A0\"");
  EXPECT_EQ(CsvField("@SUM(1+1)"), "\"'@SUM(1+1)\"");
  EXPECT_EQ(CsvField("+1"), "\"'+1\"");
  EXPECT_EQ(CsvField("-2+3"), "\"'-2+3\"");
  EXPECT_EQ(CsvField("\tx"), "\"'\tx\"");
  EXPECT_EQ(CsvField("\rx"), "\"'\rx\"");
  EXPECT_EQ(CsvField("=\"a\",b"), "\"'=\"\"a\"\",b\"");
}

}  // namespace
}  // namespace gpushare
