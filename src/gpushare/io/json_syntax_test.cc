#include "gpushare/io/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

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

TEST(JsonSyntaxTest, SurrogatePairsBecomeYamlEscapesKeepingColumns) {
  EXPECT_EQ(JsonTextForYamlCpp("{\"a\": \"x\"}"), "{\"a\": \"x\"}");
  // A lone high surrogate never reaches it (CheckJsonSyntax refuses one).
  EXPECT_NE(ErrorOf("[\"\\ud83d\"]"), "no error");
  EXPECT_EQ(ErrorOf("[\"\\ud83d\\ude00\"]"), "no error");
  // A value: padded after its closing quote.
  EXPECT_EQ(JsonTextForYamlCpp("[\"a\\ud83d\\ude00b\", 1]"),
            "[\"a\\U0001F600b\"  , 1]");
  // A key: padded after its ':'; two pairs, two pads; other escapes kept.
  EXPECT_EQ(JsonTextForYamlCpp(
                "{\"\\uD83D\\uDE00\\\"\\uD83D\\uDE01\" : \"\\n\"}"),
            "{\"\\U0001F600\\\"\\U0001F601\" :     \"\\n\"}");
}

TEST(JsonSyntaxTest, SurrogatePairIsReadAsItsCharacter) {
  // Was "invalid YAML: invalid unicode: 55357".
  const std::string text = "{\"a\": \"\\ud83d\\ude00!\", \"b\": 1}";
  CheckJsonSyntax("x.json", text);
  const YAML::Node root = ParseCheckedJson(text, "x.json");
  EXPECT_EQ(root["a"].Scalar(), "\xF0\x9F\x98\x80!");
  // `1` keeps its column (0-based in the mark).
  EXPECT_EQ(root["b"].Mark().column, static_cast<int>(text.find('1')));
}

}  // namespace
}  // namespace json_syntax_test
}  // namespace gpushare
