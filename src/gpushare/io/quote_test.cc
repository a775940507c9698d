#include "gpushare/io/quote.h"

#include <string>

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

TEST(QuoteTest, ShortValuesAreQuotedWhole) {
  EXPECT_EQ(QuoteValue(""), "''");
  EXPECT_EQ(QuoteValue("sixty"), "'sixty'");
  EXPECT_EQ(QuoteValue("推理"), "'推理'");
  EXPECT_EQ(ShortValue("1e308"), "1e308");
}

TEST(QuoteTest, LongValuesAreCutWithTheirLength) {
  const std::string big(100'000'000, 'x');
  EXPECT_EQ(QuoteValue(big),
            "'" + std::string(kMaxQuotedBytes, 'x') +
                "\u2026' (100000000 bytes)");
  EXPECT_EQ(QuoteValue(std::string(kMaxQuotedBytes, 'y')),
            "'" + std::string(kMaxQuotedBytes, 'y') + "'");
}

TEST(QuoteTest, CutsAtACharacterBoundary) {
  // 63 ASCII bytes, then a 3-byte character that would end at byte 66.
  const std::string value = std::string(63, 'a') + "推理";
  EXPECT_EQ(QuoteValue(value),
            "'" + std::string(63, 'a') + "\u2026' (69 bytes)");
}

TEST(QuoteTest, EscapesControlCharactersAndBadBytes) {
  EXPECT_EQ(QuoteValue("a\x1b[31mb"), "'a\\x1B[31mb'");
  EXPECT_EQ(QuoteValue(std::string("n\0l", 3)), "'n\\x00l'");
  EXPECT_EQ(QuoteValue("t\tl\n\x7f"), "'t\\x09l\\x0A\\x7F'");
  EXPECT_EQ(QuoteValue("c1\xC2\x85."), "'c1\\u0085.'");
  EXPECT_EQ(QuoteValue("bad\xFF\xC3"), "'bad\\xFF\\xC3'");
  EXPECT_EQ(QuoteValue("\xC2\xA0"), "'\xC2\xA0'");  // NBSP is printable
}

TEST(QuoteTest, CapsWholeMessages) {
  EXPECT_EQ(CapErrorMessage("short"), "short");
  const std::string capped = CapErrorMessage(std::string(10'000, 'm'));
  EXPECT_EQ(capped, std::string(kMaxErrorMessageBytes, 'm') +
                        "\u2026 (10000 bytes in all)");
  // A multi-byte character across the cut is left out whole.
  const std::string cut = CapErrorMessage(
      std::string(kMaxErrorMessageBytes - 1, 'm') + "推" + std::string(9, 'm'));
  EXPECT_EQ(cut, std::string(kMaxErrorMessageBytes - 1, 'm') +
                     "\u2026 (4107 bytes in all)");
}

TEST(QuoteTest, InputErrorsAreCapped) {
  const InputError e("f.yaml", 1, 2, std::string(1'000'000, 'v'));
  EXPECT_LE(std::string(e.what()).size(), kMaxErrorMessageBytes + 40);
  EXPECT_LE(e.message().size(), kMaxErrorMessageBytes + 40);
  EXPECT_EQ(std::string(e.what()).substr(0, 10), "f.yaml:1:2");
}

}  // namespace
}  // namespace gpushare
