#include "gpushare/emit/quoting.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpushare {
namespace {

using namespace std::string_literals;

// Strings that break out of a naive quoting, one per trap.
std::vector<std::string> HostileStrings() {
  return {"",
          "plain",
          "line\nbreak",
          "cr\rlf\r\n",
          "tab\there",
          "'single'",
          "\"double\"",
          "back\\slash",
          "key: value",
          "a #comment",
          "#comment",
          "- item",
          "-leading",
          "? key",
          "[flow]",
          "{flow: map}",
          "&anchor",
          "*alias",
          "!tag",
          "|literal",
          ">folded",
          "%directive",
          "@at",
          "`back`",
          "$(touch /tmp/pwned)",
          "x; rm -rf /",
          "true",
          "True",
          "yes",
          "NO",
          "on",
          "y",
          "~",
          "null",
          "0x1",
          "0o17",
          "012",
          "1e5",
          "1.5",
          "1_000",
          ".inf",
          "-.5",
          "2024-01-02",
          " leading space",
          "trailing space ",
          "nul\0byte"s,
          "bell\x07",
          "del\x7f",
          "nel\xc2\x85",
          "ls\xe2\x80\xa8ps\xe2\x80\xa9",
          "bom\xef\xbb\xbf",
          "noncharacter\xef\xbf\xbf",
          "unicode: \xe6\x98\xbe\xe5\x8d\xa1 \xf0\x9f\x9a\x80",
          "---",
          "...",
          "a\n---\nb: c",
          "=",
          "<<"};
}

TEST(QuotingTest, ShellQuote) {
  EXPECT_EQ(ShellQuote("abc"), "'abc'");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote("$(x)`y`\n"), "'$(x)`y`\n'");
}

TEST(QuotingTest, ShellWordIsBareOnlyForSafeCharacters) {
  EXPECT_EQ(ShellWord("gpu=on"), "gpu=on");
  EXPECT_EQ(ShellWord("nvidia.com/gpu.shared-1_2:3@4%5+6,7"),
            "nvidia.com/gpu.shared-1_2:3@4%5+6,7");
  EXPECT_EQ(ShellWord(""), "''");
  EXPECT_EQ(ShellWord("a b"), "'a b'");
  EXPECT_EQ(ShellWord("~root"), "'~root'");
  EXPECT_EQ(ShellWord("*"), "'*'");
  EXPECT_EQ(ShellWord("a$b"), "'a$b'");
  EXPECT_EQ(ShellWord("{a,b}"), "'{a,b}'");
  EXPECT_EQ(ShellWord("it's"), "'it'\\''s'");
}

TEST(QuotingTest, YamlScalarIsPlainForOrdinaryNames) {
  for (const char* name :
       {"gpu-operator", "nvidia.com/gpu", "all-1g.10gb", "pool-a-0",
        "gpushare.io/node-pool", "default-scheduler", "a", "A100", "cpu",
        "team_a", "mig-1g.5gb+me", "ip-10-0-0-1.ec2.internal"}) {
    EXPECT_FALSE(YamlNeedsQuotes(name)) << name;
    EXPECT_EQ(YamlScalar(name), name);
  }
  for (const std::string& s : HostileStrings()) {
    if (s == "plain") continue;
    EXPECT_TRUE(YamlNeedsQuotes(s)) << s;
  }
  for (const char* s : {"12", "0x1F", "0B1", "1e-5", "1-2", "0a", "Off", "NULL",
                        "n", "2024-01-02"}) {
    EXPECT_TRUE(YamlNeedsQuotes(s)) << s;
  }
}

TEST(QuotingTest, YamlPlainIsNotStringFlagsOtherTypesOnly) {
  for (const char* s :
       {"",      "~",     "null",       "Null",
        "TRUE",  "yes",   "Y",          "off",
        "<<",    "=",     "12",         "-12",
        "+1",    "012",   "0x1F",       "0o17",
        "0b101", "1e5",   "1.5",        "-.5",
        ".5",    "1_000", "1:20",       ".inf",
        "-.Inf", ".NaN",  "2024-01-02", "2001-12-14t21:59:43.10-05:00"}) {
    EXPECT_TRUE(YamlPlainIsNotString(s)) << s;
  }
  for (const char* s : {"a", "yess", "truex", "3g.40gb", "1g.10gb:7", "-",
                        "a b", "x: y", "32000m", "100Gi", ".a"}) {
    EXPECT_FALSE(YamlPlainIsNotString(s)) << s;
  }
}

TEST(QuotingTest, YamlBlockPrintable) {
  EXPECT_TRUE(YamlBlockPrintable("a: b\n  c\n\xe6\x98\xbe\n"));
  for (const std::string s : {"a\tb", "a\rb", "a\x01", "a\x7f", "a\xc2\x85",
                              "a\xe2\x80\xa8", "\xef\xbb\xbf", "a\xff"}) {
    EXPECT_FALSE(YamlBlockPrintable(s)) << s;
  }
}

TEST(QuotingTest, YamlQuotedEscapes) {
  EXPECT_EQ(YamlQuoted("abc"), "\"abc\"");
  EXPECT_EQ(YamlQuoted("a\"b\\c\nd\te\r"), "\"a\\\"b\\\\c\\nd\\te\\r\"");
  EXPECT_EQ(YamlQuoted("\x01\x7f\xc2\x85"), "\"\\x01\\x7F\\x85\"");
  EXPECT_EQ(YamlQuoted("\xe2\x80\xa8"), "\"\\u2028\"");
  EXPECT_EQ(YamlQuoted("bad\xff"), "\"bad\\uFFFD\"");
  EXPECT_EQ(YamlQuoted("\xe6\x98\xbe"), "\"\xe6\x98\xbe\"");
}

// Every string, as a value, a key and an item of a multi-document file,
// reads back through yaml-cpp as itself.
TEST(QuotingTest, YamlRoundTripsThroughYamlCpp) {
  for (const std::string& s : HostileStrings()) {
    for (const std::string& text :
         {YamlScalar(s), YamlQuoted(s), JsonString(s)}) {
      const std::string doc = "# " + CommentText(s) + "\nkey: " + text + "\n" +
                              text + ": value\nlist:\n  - " + text +
                              "\n---\nnext: 1\n";
      const std::vector<YAML::Node> docs = YAML::LoadAll(doc);
      ASSERT_EQ(docs.size(), 2u) << doc;
      const YAML::Node& d = docs[0];
      ASSERT_TRUE(d.IsMap()) << doc;
      EXPECT_EQ(d.size(), 3u) << doc;
      EXPECT_EQ(d["key"].as<std::string>(), s) << doc;
      EXPECT_EQ(d[s].as<std::string>(), "value") << doc;
      EXPECT_EQ(d["list"][0].as<std::string>(), s) << doc;
      EXPECT_EQ(docs[1]["next"].as<int>(), 1) << doc;
      // Plain text is tagged "?" (resolved by the reader), quoted "!".
      if (YamlNeedsQuotes(s)) {
        EXPECT_EQ(d["key"].Tag(), "!") << doc;
      }
    }
  }
}

TEST(QuotingTest, JsonStringRoundTripsThroughNlohmann) {
  for (const std::string& s : HostileStrings()) {
    EXPECT_EQ(nlohmann::json::parse(JsonString(s)).get<std::string>(), s) << s;
    // As nlohmann writes it, for the strings that need no escape of ours.
    if (s.find_first_of("\x7f\xc2\xe2\xef") == std::string::npos) {
      EXPECT_EQ(JsonString(s), nlohmann::json(s).dump()) << s;
    }
  }
  EXPECT_EQ(JsonString("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(JsonString("\xe2\x80\xa9"), "\"\\u2029\"");
}

TEST(QuotingTest, CommentTextIsOnePrintableLine) {
  EXPECT_EQ(CommentText("scenario 'a'"), "scenario 'a'");
  EXPECT_EQ(CommentText("a\nrm -rf /"), "a\\nrm -rf /");
  EXPECT_EQ(CommentText("a\r\nb\tc\x01\x7f"), "a\\r\\nb\\tc\\x01\\x7F");
  EXPECT_EQ(CommentText("\xc2\x85\xe2\x80\xa8\xef\xbb\xbf"),
            "\\x85\\u2028\\uFEFF");
  EXPECT_EQ(CommentText("bad\xff"), "bad\\xFF");
  EXPECT_EQ(CommentText("\xe6\x98\xbe\xe5\x8d\xa1"),
            "\xe6\x98\xbe\xe5\x8d\xa1");
  for (const std::string& s : HostileStrings()) {
    for (unsigned char c : CommentText(s)) {
      EXPECT_TRUE(c >= 0x20 && c != 0x7f) << s;
    }
  }
}

}  // namespace
}  // namespace gpushare
