#include "gpushare/io/utf8.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

TEST(Utf8Test, AcceptsWellFormedText) {
  EXPECT_EQ(FindInvalidUtf8(""), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("name: 推理"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("\xEF\xBB\xBFkey"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("\xF0\x9F\x9A\x80 \xF4\x8F\xBF\xBF"),
            std::string_view::npos);  // U+1F680, U+10FFFF
}

TEST(Utf8Test, FindsTheFirstIllFormedByte) {
  EXPECT_EQ(FindInvalidUtf8("ab\xFF"), 2u);
  EXPECT_EQ(FindInvalidUtf8("\x80"), 0u);              // lone continuation
  EXPECT_EQ(FindInvalidUtf8("x\xC3"), 1u);             // truncated
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("\xE0\x80\xAF"), 0u);      // overlong
  EXPECT_EQ(FindInvalidUtf8("\xED\xA0\x80"), 0u);      // surrogate U+D800
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("\xF5\x80\x80\x80"), 0u);
  EXPECT_EQ(FindInvalidUtf8("\xE2\x82"), 0u);
}

TEST(Utf8Test, ErrorNamesLineAndColumn) {
  try {
    CheckUtf8("s.yaml", "name: a\nclasses: b\xC3(\n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 11);
    EXPECT_STREQ(e.what(),
                 "s.yaml:2:11: invalid UTF-8 (byte 0xC3); input files must "
                 "be UTF-8 text");
  }
}

TEST(Utf8Test, ControlCharactersOtherThanTabLfCrAreRefused) {
  EXPECT_EQ(FindControlCharacter("a:\tb\r\n"), std::string_view::npos);
  EXPECT_EQ(FindControlCharacter(std::string_view("ab\0c", 4)), 2u);
  EXPECT_EQ(FindControlCharacter("\x1B[0m"), 0u);
  try {
    CheckUtf8("q.json", std::string_view("{\n \"a\"\0\xFF", 8));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "q.json:2:5: control character 0x00; input files must be "
                 "text (tab, LF and CR are the only control characters "
                 "allowed)");
  }
}

TEST(Utf8Test, DecodesOneSequenceAndNamesControls) {
  EXPECT_EQ(DecodeUtf8("a").value, 'a');
  EXPECT_EQ(DecodeUtf8("\xc3\xa9x").value, 0xE9);  // é
  EXPECT_EQ(DecodeUtf8("\xc3\xa9x").size, 2u);
  EXPECT_EQ(DecodeUtf8("\xe2\x80\xa8").value, 0x2028);
  EXPECT_EQ(DecodeUtf8("\xf0\x9f\x98\x80").value, 0x1F600);
  EXPECT_EQ(DecodeUtf8("\xf0\x9f\x98\x80").size, 4u);
  // Overlong, surrogate, truncated, stray continuation: -1, one byte.
  for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xe2\x80", "\x80"}) {
    EXPECT_EQ(DecodeUtf8(bad).value, -1) << bad;
    EXPECT_EQ(DecodeUtf8(bad).size, 1u) << bad;
  }
  EXPECT_TRUE(IsControlCodePoint(0));
  EXPECT_TRUE(IsControlCodePoint('\t'));
  EXPECT_TRUE(IsControlCodePoint(0x7F));
  EXPECT_TRUE(IsControlCodePoint(0x85));
  EXPECT_FALSE(IsControlCodePoint(' '));
  EXPECT_FALSE(IsControlCodePoint(0xA0));
  EXPECT_FALSE(IsControlCodePoint(-1));
}

}  // namespace
}  // namespace gpushare
