#include "gpushare/io/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace json_syntax_test {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    CheckJsonSyntax("x.json", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonSyntaxTest, AcceptsJson) {
  EXPECT_EQ(ErrorOf("{\"items\": [1, 2.5, \"a\", null, true, {}]}"),
            "no error");
  EXPECT_EQ(ErrorOf(std::string(kMaxJsonDepth, '[') +
                    std::string(kMaxJsonDepth, ']')),
            "no error");
}

TEST(JsonSyntaxTest, LocatesTheFirstBadByte) {
  EXPECT_EQ(ErrorOf("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            "x.json:3:7: invalid JSON: syntax error while parsing object "
            "separator - unexpected number literal; expected ':'");
  EXPECT_EQ(ErrorOf("{\"a\": [1, 2"),
            "x.json:1:12: invalid JSON: syntax error while parsing array - "
            "unexpected end of input; expected ']'");
  EXPECT_NE(ErrorOf("").find("x.json:1:1: invalid JSON"), std::string::npos);
  EXPECT_NE(ErrorOf("a: b\n").find("x.json:1:1: invalid JSON"),
            std::string::npos);
}

TEST(JsonSyntaxTest, RefusesDeepNesting) {
  const std::string deep = "{\"a\": " + std::string(10000, '[');
  EXPECT_EQ(ErrorOf(deep), "x.json:1:262: invalid JSON: nested deeper than "
                           "256 levels");
}

}  // namespace
}  // namespace json_syntax_test
}  // namespace gpushare
