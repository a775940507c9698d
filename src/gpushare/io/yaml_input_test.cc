#include "gpushare/io/yaml_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace yaml_input_test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kFile = "in.yaml";

// The InputError what() that `f` throws, or "(no error)".
std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A YamlMap named "thing" over `text` (which must be a mapping).
YamlMap MapOf(const std::string& text) {
  return YamlMap(kFile, ParseYaml(text, kFile), "thing");
}

// --- ParseYaml --------------------------------------------------------------

TEST(ParseYamlTest, ParsesValidText) {
  const YAML::Node node = ParseYaml("a: 1\nb: [x, y]\n", kFile);
  ASSERT_TRUE(node.IsMap());
  EXPECT_EQ(node["a"].Scalar(), "1");
  EXPECT_EQ(node["b"].size(), 2u);
}

TEST(ParseYamlTest, SyntaxErrorHasFileLineAndColumn) {
  try {
    ParseYaml("a: 1\nb: c: d\n", kFile);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), kFile);
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 5);
    EXPECT_EQ(e.message(), "invalid YAML: illegal map value");
    EXPECT_STREQ(e.what(), "in.yaml:2:5: invalid YAML: illegal map value");
  }
}

TEST(ParseYamlTest, LineAndColumnAreOneBased) {
  // yaml-cpp reports the tab at line index 1, column index 0.
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n\tb: 2\n", "tabs.yaml"); }),
            "tabs.yaml:2:1: invalid YAML: illegal tab when looking for "
            "indentation");
}

TEST(ParseYamlTest, UnclosedFlowSequence) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\nb: [1, 2\n", kFile); }),
            "in.yaml:3:1: invalid YAML: end of sequence flow not found");
}

TEST(ParseYamlTest, DeepNestingIsALocatedError) {
  const std::string deep = "a: " + std::string(5000, '[') +
                           std::string(5000, ']') + "\n";
  const std::string error = ErrorOf([&] { ParseYaml(deep, kFile); });
  EXPECT_EQ(error.rfind("in.yaml:1:", 0), 0u) << error;
  EXPECT_NE(error.find("invalid YAML: nested deeper than"), std::string::npos)
      << error;
}

TEST(CheckNoDuplicateKeysTest, FindsTheSecondKeyAtAnyDepth) {
  EXPECT_NO_THROW(CheckNoDuplicateKeys(
      kFile, ParseYaml("{\"a\": [{\"b\": 1}, {\"b\": 2}]}", kFile)));
  EXPECT_EQ(ErrorOf([] {
              CheckNoDuplicateKeys(
                  kFile,
                  ParseYaml("{\"a\": [{\"b\": 1,\n \"b\": 2}]}", kFile));
            }),
            "in.yaml:2:2: duplicate key 'b'");
}

TEST(ParseYamlTest, EmptyTextIsANullNode) {
  EXPECT_TRUE(ParseYaml("", kFile).IsNull());
  EXPECT_TRUE(ParseYaml("# only a comment\n", kFile).IsNull());
  EXPECT_TRUE(ParseYaml("---\n", kFile).IsNull());
}

TEST(ParseYamlTest, OneDocumentWithMarkers) {
  EXPECT_EQ(ParseYaml("---\na: 1\n", kFile)["a"].Scalar(), "1");
  EXPECT_EQ(ParseYaml("a: 1\n...\n", kFile)["a"].Scalar(), "1");
}

TEST(ParseYamlTest, SecondDocumentIsAnError) {
  // Not silently dropped: it is reported at its first node.
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n---\nb: 2\n", kFile); }),
            "in.yaml:3:1: expected one YAML document, found 2");
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n--- x\n", kFile); }),
            "in.yaml:2:5: expected one YAML document, found 2");
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n---\nb: 2\n---\nc: 3\n", kFile); }),
            "in.yaml:3:1: expected one YAML document, found 3");
}

TEST(ParseYamlTest, EmptySecondDocumentIsAnErrorToo) {
  try {
    ParseYaml("a: 1\n---\n", kFile);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), kFile);
    EXPECT_EQ(e.message(), "expected one YAML document, found 2");
  }
}

TEST(ParseYamlTest, SyntaxErrorInASecondDocument) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n---\nb: c: d\n", kFile); }),
            "in.yaml:3:5: invalid YAML: illegal map value");
}

// --- ParseYaml: the screen before a document is built ----------------------

// Ten levels, each a list of ten aliases of the level before: 10^10 nodes.
std::string AliasBomb(int levels) {
  std::string text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < levels; ++i) {
    text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) {
      text += std::string(k > 0 ? ", " : "") + "*l" + std::to_string(i - 1);
    }
    text += "]\n";
  }
  return text;
}

TEST(ParseYamlScreenTest, AliasesWithinTheLimitAreRead) {
  const YAML::Node node = ParseYaml(AliasBomb(5), kFile);  // 10^5 nodes
  EXPECT_EQ(node["l4"][9][9][9][9][0].Scalar(), "x");
  const YAML::Node shared =
      ParseYaml("base: &b {gpu: A100-40GB, nodes: 2}\nother: *b\n", kFile);
  EXPECT_EQ(shared["other"]["nodes"].Scalar(), "2");
}

TEST(ParseYamlScreenTest, AliasesExpandingPastTheLimitAreAnError) {
  // Levels 1-4 add 123,440 nodes through aliases; each alias of level 5
  // (line 6) adds 111,111 more, and its eighth passes kMaxAliasNodes.
  const std::string error = ErrorOf([] { ParseYaml(AliasBomb(10), kFile); });
  EXPECT_EQ(error,
            "in.yaml:6:45: invalid YAML: aliases expand to more than 1000000 "
            "nodes (alias '*l4' adds 111111)");
}

TEST(ParseYamlScreenTest, AnAliasInsideWhatItNamesIsACycle) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: &x [*x]\n", kFile); }),
            "in.yaml:1:8: invalid YAML: alias '*x' refers to a node that "
            "contains it (a cycle)");
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: &x\n  b:\n    c: *x\n", kFile); }),
            "in.yaml:3:8: invalid YAML: alias '*x' refers to a node that "
            "contains it (a cycle)");
}

TEST(ParseYamlScreenTest, ExplicitTagsAreAnError) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("nodes: !!str 2\n", kFile); }),
            "in.yaml:1:8: YAML tag '!!str' is not supported: a value's type "
            "is the one its key takes (write the value without the tag)");
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: !!map {b: 1}\n", kFile); }),
            "in.yaml:1:4: YAML tag '!!map' is not supported: a value's type "
            "is the one its key takes (write the value without the tag)");
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: [1, !local 2]\n", kFile); }),
            "in.yaml:1:8: YAML tag '!local' is not supported: a value's type "
            "is the one its key takes (write the value without the tag)");
  // The non-specific tag reads as a quoted scalar would.
  EXPECT_EQ(ParseYaml("a: ! 2\n", kFile)["a"].Scalar(), "2");
}

TEST(ParseYamlScreenTest, ControlCharactersAfterEscapesAreAnError) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("name: \"a\\x1b[31m\"\n", kFile); }),
            "in.yaml:1:7: control character U+001B in 'a\\x1B[31m'; names and "
            "values must not hold control characters (C0, DEL, C1), escaped "
            "or not");
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: \"\\0\"\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+0000"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: \"a\\tb\"\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+0009"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: \"a\tb\"\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+0009"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: |\n  a\n  b\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+000A"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: \"\\x7f\"\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+007F"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("name: \"\\x85\"\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:7: control character U+0085"));
  EXPECT_THAT(ErrorOf([] { ParseYaml("{\"\\u001b\": 1}\n", kFile); }),
              ::testing::StartsWith("in.yaml:1:2: control character U+001B"));
  // Folded plain and quoted scalars hold spaces, not line breaks.
  EXPECT_EQ(ParseYaml("a: one\n  two\nb: \"x\n  y\"\n", kFile)["b"].Scalar(),
            "x y");
}

TEST(ParseYamlScreenTest, OnlyTheFirstDocumentIsScreened) {
  EXPECT_EQ(ErrorOf([] { ParseYaml("a: 1\n---\nb: !!str 2\n", kFile); }),
            "in.yaml:3:1: expected one YAML document, found 2");
}

// --- YamlMap construction ---------------------------------------------------

TEST(YamlMapTest, KeepsFileNodeAndWhat) {
  const YamlMap map = MapOf("a: 1\n");
  EXPECT_EQ(map.file(), kFile);
  EXPECT_EQ(map.what(), "thing");
  EXPECT_TRUE(map.node().IsMap());
}

TEST(YamlMapTest, ListIsNotAMapping) {
  EXPECT_EQ(ErrorOf([] { MapOf("- a\n- b\n"); }),
            "in.yaml:1:1: thing: expected a mapping, got a list");
}

TEST(YamlMapTest, ScalarIsNotAMapping) {
  EXPECT_EQ(ErrorOf([] { MapOf("hello\n"); }),
            "in.yaml:1:1: thing: expected a mapping, got 'hello'");
}

TEST(YamlMapTest, NestedValueIsNotAMapping) {
  const YAML::Node root = ParseYaml("outer:\n  inner: [1, 2]\n", kFile);
  EXPECT_EQ(ErrorOf([&] {
              YamlMap(kFile, root["outer"]["inner"], "model 'X1' mig");
            }),
            "in.yaml:2:10: model 'X1' mig: expected a mapping, got a list");
}

TEST(YamlMapTest, EmptyDocumentIsNotAMappingAndHasNoLocation) {
  EXPECT_EQ(ErrorOf([] { MapOf(""); }),
            "in.yaml: thing: expected a mapping, got nothing");
}

// --- AllowOnly --------------------------------------------------------------

TEST(YamlMapAllowOnlyTest, AcceptsAllowedKeys) {
  const YamlMap map = MapOf("name: a\nsize: 1\n");
  EXPECT_EQ(ErrorOf([&] {
              map.AllowOnly({"name", "color", "size"});
            }),
            "(no error)");
}

TEST(YamlMapAllowOnlyTest, UnknownKeyNamesTheClosestAllowedKey) {
  const YamlMap map = MapOf("name: a\ncolour: red\n");
  EXPECT_EQ(ErrorOf([&] {
              map.AllowOnly({"name", "color", "size"});
            }),
            "in.yaml:2:1: thing: unknown key 'colour'; did you mean color? "
            "(allowed: name, color, size)");
}

TEST(YamlMapAllowOnlyTest, UnknownKeyInANestedMapping) {
  const YAML::Node root =
      ParseYaml("models:\n  - name: a\n    prise: 1\n", kFile);
  const YamlMap map(kFile, root["models"][0], "model 'a'");
  EXPECT_EQ(ErrorOf([&] {
              map.AllowOnly({"name", "price"});
            }),
            "in.yaml:3:5: model 'a': unknown key 'prise'; did you mean "
            "price? (allowed: name, price)");
}

TEST(YamlMapAllowOnlyTest, FirstProblemInFileOrder) {
  const YamlMap map = MapOf("name: a\nbogus: 1\nname: b\n");
  EXPECT_EQ(ErrorOf([&] { map.AllowOnly({"name"}); }),
            "in.yaml:2:1: thing: unknown key 'bogus'; did you mean name? "
            "(allowed: name)");
}

TEST(YamlMapAllowOnlyTest, DuplicateKey) {
  const YamlMap map = MapOf("name: a\nsize: 1\nname: b\n");
  EXPECT_EQ(ErrorOf([&] {
              map.AllowOnly({"name", "size"});
            }),
            "in.yaml:3:1: thing: duplicate key 'name'");
}

TEST(YamlMapAllowOnlyTest, NonScalarKey) {
  const YamlMap map = MapOf("name: a\n[x, y]: 1\n");
  EXPECT_EQ(ErrorOf([&] { map.AllowOnly({"name"}); }),
            "in.yaml:2:1: thing key: expected a string, got a list");
}

// --- Has and Get ------------------------------------------------------------

TEST(YamlMapGetTest, HasAndGet) {
  const YamlMap map = MapOf("name: a\nempty:\n");
  EXPECT_TRUE(map.Has("name"));
  EXPECT_TRUE(map.Has("empty"));  // present, with a null value
  EXPECT_FALSE(map.Has("size"));
  EXPECT_EQ(map.Get("name").Scalar(), "a");
  EXPECT_TRUE(map.Get("empty").IsNull());
}

TEST(YamlMapGetTest, MissingKeyIsReportedAtTheMapping) {
  const YamlMap map = MapOf("name: a\n");
  EXPECT_EQ(ErrorOf([&] { map.Get("size"); }),
            "in.yaml:1:1: thing: missing required key 'size'");
  EXPECT_EQ(ErrorOf([&] { map.Int("size", 0, 10); }),
            "in.yaml:1:1: thing: missing required key 'size'");
}

TEST(YamlMapGetTest, MissingKeyInANestedMapping) {
  const YAML::Node root = ParseYaml("top: 1\nmig:\n  sms: 7\n", kFile);
  const YamlMap map(kFile, root["mig"], "model 'X1' mig");
  EXPECT_EQ(ErrorOf([&] { map.Get("profiles"); }),
            "in.yaml:3:3: model 'X1' mig: missing required key 'profiles'");
}

TEST(YamlMapGetTest, FailPrefixesWhat) {
  const YamlMap map = MapOf("name: a\nsize: 3\n");
  EXPECT_EQ(ErrorOf([&] { map.Fail(map.Get("size"), "too big"); }),
            "in.yaml:2:7: thing: too big");
}

// --- String -----------------------------------------------------------------

TEST(YamlMapStringTest, AnyScalarIsAString) {
  const YamlMap map = MapOf("a: hello\nb: 12\nc: \"9.0\"\nd: ''\n");
  EXPECT_EQ(map.String("a"), "hello");
  EXPECT_EQ(map.String("b"), "12");
  EXPECT_EQ(map.String("c"), "9.0");
  EXPECT_EQ(map.String("d"), "");
}

TEST(YamlMapStringTest, NonScalars) {
  const YamlMap map = MapOf("l: [a]\nm: {k: v}\nn:\n");
  EXPECT_EQ(ErrorOf([&] { map.String("l"); }),
            "in.yaml:1:4: thing l: expected a string, got a list");
  EXPECT_EQ(ErrorOf([&] { map.String("m"); }),
            "in.yaml:2:4: thing m: expected a string, got a mapping");
  EXPECT_EQ(ErrorOf([&] { map.String("n"); }),
            "in.yaml:3:1: thing n: expected a string, got nothing");
}

// yaml-cpp marks an empty value at the next token; the error is at the key.
TEST(YamlMapEmptyValueTest, ReportedAtTheKey) {
  const YamlMap map = MapOf("a:\nb: 1\n\n\nc:\n\n# comment\nd: 2\ne:\n");
  EXPECT_EQ(ErrorOf([&] { map.String("a"); }),
            "in.yaml:1:1: thing a: expected a string, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.Int("c", 0, 9); }),
            "in.yaml:5:1: thing c: expected an integer, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.Double("c", 0, 9); }),
            "in.yaml:5:1: thing c: expected a number, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.Bool("e"); }),
            "in.yaml:9:1: thing e: expected true or false, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.StringList("e"); }),
            "in.yaml:9:1: thing e: expected a list, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.IntList("a", 0, 9); }),
            "in.yaml:1:1: thing a: expected a list, got nothing");
}

TEST(YamlMapEmptyValueTest, InANestedMapping) {
  const YAML::Node root =
      ParseYaml("models:\n  - name: a\n    sms:\n    memory: 1\n", kFile);
  const YamlMap map(kFile, root["models"][0], "model 'a'");
  EXPECT_EQ(ErrorOf([&] { map.Int("sms", 0, 9); }),
            "in.yaml:3:5: model 'a' sms: expected an integer, got nothing");
}

TEST(YamlMapEmptyValueTest, ExplicitNull) {
  const YamlMap map = MapOf("a: 1\nb: ~\n");
  EXPECT_EQ(ErrorOf([&] { map.Int("b", 0, 9); }),
            "in.yaml:2:1: thing b: expected an integer, got nothing");
}

// --- Int --------------------------------------------------------------------

TEST(YamlMapIntTest, AcceptsIntegersInRange) {
  const YamlMap map =
      MapOf("zero: 0\nten: 10\nneg: -3\nplus: +7\nquoted: \"5\"\n");
  EXPECT_EQ(map.Int("zero", 0, 10), 0);
  EXPECT_EQ(map.Int("ten", 0, 10), 10);
  EXPECT_EQ(map.Int("neg", -5, 5), -3);
  EXPECT_EQ(map.Int("plus", 0, 10), 7);
  EXPECT_EQ(map.Int("quoted", 0, 10), 5);
}

TEST(YamlMapIntTest, AcceptsTheInt64Limits) {
  const YamlMap map =
      MapOf("max: 9223372036854775807\nmin: -9223372036854775808\n");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(map.Int("max", kMin, kMax), kMax);
  EXPECT_EQ(map.Int("min", kMin, kMax), kMin);
}

TEST(YamlMapIntTest, OutOfRange) {
  const YamlMap map = MapOf("big: 11\nneg: -1\n");
  EXPECT_EQ(ErrorOf([&] { map.Int("big", 0, 10); }),
            "in.yaml:1:6: thing big: 11 is out of range (expected 0..10)");
  EXPECT_EQ(ErrorOf([&] { map.Int("neg", 0, 10); }),
            "in.yaml:2:6: thing neg: -1 is out of range (expected 0..10)");
}

TEST(YamlMapIntTest, RejectsNonIntegers) {
  const YamlMap map = MapOf(
      "a: 12abc\nb: 1.5\nc: \"\"\nd: abc\ne: 0x10\nf: 1_000\ng: \" 1\"\n"
      "h: 99999999999999999999\ni: +\nj: 1e3\n");
  EXPECT_EQ(ErrorOf([&] { map.Int("a", 0, 100); }),
            "in.yaml:1:4: thing a: expected an integer, got '12abc'");
  EXPECT_EQ(ErrorOf([&] { map.Int("b", 0, 100); }),
            "in.yaml:2:4: thing b: expected an integer, got '1.5'");
  EXPECT_EQ(ErrorOf([&] { map.Int("c", 0, 100); }),
            "in.yaml:3:4: thing c: expected an integer, got ''");
  EXPECT_EQ(ErrorOf([&] { map.Int("d", 0, 100); }),
            "in.yaml:4:4: thing d: expected an integer, got 'abc'");
  EXPECT_EQ(ErrorOf([&] { map.Int("e", 0, 100); }),
            "in.yaml:5:4: thing e: expected an integer, got '0x10'");
  EXPECT_EQ(ErrorOf([&] { map.Int("f", 0, 10000); }),
            "in.yaml:6:4: thing f: expected an integer, got '1_000'");
  EXPECT_EQ(ErrorOf([&] { map.Int("g", 0, 100); }),
            "in.yaml:7:4: thing g: expected an integer, got ' 1'");
  EXPECT_EQ(ErrorOf([&] { map.Int("h", 0, 100); }),
            "in.yaml:8:4: thing h: expected an integer, got "
            "'99999999999999999999'");
  EXPECT_EQ(ErrorOf([&] { map.Int("i", 0, 100); }),
            "in.yaml:9:4: thing i: expected an integer, got '+'");
  EXPECT_EQ(ErrorOf([&] { map.Int("j", 0, 10000); }),
            "in.yaml:10:4: thing j: expected an integer, got '1e3'");
}

TEST(YamlMapIntTest, RejectsADoubledSign) {
  const YamlMap map = MapOf("a: +-5\nb: -+5\nc: ++5\nd: --5\ne: +-0\n");
  EXPECT_EQ(ErrorOf([&] { map.Int("a", -10, 10); }),
            "in.yaml:1:4: thing a: expected an integer, got '+-5'");
  EXPECT_EQ(ErrorOf([&] { map.Int("b", -10, 10); }),
            "in.yaml:2:4: thing b: expected an integer, got '-+5'");
  EXPECT_EQ(ErrorOf([&] { map.Int("c", -10, 10); }),
            "in.yaml:3:4: thing c: expected an integer, got '++5'");
  EXPECT_EQ(ErrorOf([&] { map.Int("d", -10, 10); }),
            "in.yaml:4:4: thing d: expected an integer, got '--5'");
  EXPECT_EQ(ErrorOf([&] { map.Int("e", -10, 10); }),
            "in.yaml:5:4: thing e: expected an integer, got '+-0'");
}

TEST(YamlMapIntTest, MinusZeroIsZero) {
  EXPECT_EQ(MapOf("a: -0\n").Int("a", 0, 10), 0);
}

TEST(YamlMapIntTest, RejectsNonScalars) {
  const YamlMap map = MapOf("l: [1]\nm: {a: 1}\nn:\nb:\n  - 1\n");
  EXPECT_EQ(ErrorOf([&] { map.Int("l", 0, 10); }),
            "in.yaml:1:4: thing l: expected an integer, got a list");
  EXPECT_EQ(ErrorOf([&] { map.Int("m", 0, 10); }),
            "in.yaml:2:4: thing m: expected an integer, got a mapping");
  EXPECT_EQ(ErrorOf([&] { map.Int("n", 0, 10); }),
            "in.yaml:3:1: thing n: expected an integer, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.Int("b", 0, 10); }),
            "in.yaml:5:3: thing b: expected an integer, got a list");
}

// --- Double -----------------------------------------------------------------

TEST(YamlMapDoubleTest, AcceptsFiniteNumbersInRange) {
  const YamlMap map =
      MapOf("a: 1\nb: 0.5\nc: +0.25\nd: 1e2\ne: -0\nf: 2.5\ng: \"3.05\"\n");
  EXPECT_EQ(map.Double("a", 0, 1000), 1.0);
  EXPECT_EQ(map.Double("b", 0, 1000), 0.5);
  EXPECT_EQ(map.Double("c", 0, 1000), 0.25);
  EXPECT_EQ(map.Double("d", 0, 1000), 100.0);
  EXPECT_EQ(map.Double("e", 0, 1000), 0.0);
  EXPECT_EQ(map.Double("f", 0, 2.5), 2.5);
  EXPECT_EQ(map.Double("g", 0, 1000), 3.05);
}

TEST(YamlMapDoubleTest, MinusZeroIsPositiveZero) {
  const YamlMap map = MapOf("a: -0\nb: -0.0\nc: -0e5\n");
  for (const char* key : {"a", "b", "c"}) {
    const double value = map.Double(key, 0, 10);
    EXPECT_EQ(value, 0.0) << key;
    EXPECT_FALSE(std::signbit(value)) << key;
  }
}

TEST(YamlMapDoubleTest, RejectsADoubledSign) {
  const YamlMap map = MapOf("a: +-5\nb: -+0.5\nc: ++1\nd: +-.5\n");
  EXPECT_EQ(ErrorOf([&] { map.Double("a", -10, 10); }),
            "in.yaml:1:4: thing a: expected a number, got '+-5'");
  EXPECT_EQ(ErrorOf([&] { map.Double("b", -10, 10); }),
            "in.yaml:2:4: thing b: expected a number, got '-+0.5'");
  EXPECT_EQ(ErrorOf([&] { map.Double("c", -10, 10); }),
            "in.yaml:3:4: thing c: expected a number, got '++1'");
  EXPECT_EQ(ErrorOf([&] { map.Double("d", -10, 10); }),
            "in.yaml:4:4: thing d: expected a number, got '+-.5'");
}

TEST(YamlMapDoubleTest, RejectsNanAndInfinity) {
  const YamlMap map = MapOf(
      "a: nan\nb: inf\nc: .nan\nd: .inf\ne: -inf\nf: -.inf\ng: infinity\n"
      "h: NaN\ni: .Inf\n");
  EXPECT_EQ(ErrorOf([&] { map.Double("a", 0, 10); }),
            "in.yaml:1:4: thing a: expected a number, got 'nan'");
  EXPECT_EQ(ErrorOf([&] { map.Double("b", 0, 10); }),
            "in.yaml:2:4: thing b: expected a number, got 'inf'");
  EXPECT_EQ(ErrorOf([&] { map.Double("c", 0, 10); }),
            "in.yaml:3:4: thing c: expected a number, got '.nan'");
  EXPECT_EQ(ErrorOf([&] { map.Double("d", 0, 10); }),
            "in.yaml:4:4: thing d: expected a number, got '.inf'");
  EXPECT_EQ(ErrorOf([&] { map.Double("e", -10, 10); }),
            "in.yaml:5:4: thing e: expected a number, got '-inf'");
  EXPECT_EQ(ErrorOf([&] { map.Double("f", -10, 10); }),
            "in.yaml:6:4: thing f: expected a number, got '-.inf'");
  EXPECT_EQ(ErrorOf([&] { map.Double("g", 0, 10); }),
            "in.yaml:7:4: thing g: expected a number, got 'infinity'");
  EXPECT_EQ(ErrorOf([&] { map.Double("h", 0, 10); }),
            "in.yaml:8:4: thing h: expected a number, got 'NaN'");
  EXPECT_EQ(ErrorOf([&] { map.Double("i", 0, 10); }),
            "in.yaml:9:4: thing i: expected a number, got '.Inf'");
}

TEST(YamlMapDoubleTest, RejectsNonNumbers) {
  const YamlMap map =
      MapOf("a: 1.5x\nb: \"\"\nc: abc\nd: 1e400\ne: [1.5]\nf:\n");
  EXPECT_EQ(ErrorOf([&] { map.Double("a", 0, 10); }),
            "in.yaml:1:4: thing a: expected a number, got '1.5x'");
  EXPECT_EQ(ErrorOf([&] { map.Double("b", 0, 10); }),
            "in.yaml:2:4: thing b: expected a number, got ''");
  EXPECT_EQ(ErrorOf([&] { map.Double("c", 0, 10); }),
            "in.yaml:3:4: thing c: expected a number, got 'abc'");
  // Too large for a double.
  EXPECT_EQ(ErrorOf([&] { map.Double("d", 0, 10); }),
            "in.yaml:4:4: thing d: expected a number, got '1e400'");
  EXPECT_EQ(ErrorOf([&] { map.Double("e", 0, 10); }),
            "in.yaml:5:4: thing e: expected a number, got a list");
  EXPECT_EQ(ErrorOf([&] { map.Double("f", 0, 10); }),
            "in.yaml:6:1: thing f: expected a number, got nothing");
}

TEST(YamlMapDoubleTest, OutOfRange) {
  const YamlMap map = MapOf("big: 2.75\nneg: -0.5\ntiny: 0\nhuge: 1e300\n");
  EXPECT_EQ(ErrorOf([&] { map.Double("big", 0, 2); }),
            "in.yaml:1:6: thing big: 2.75 is out of range (expected 0..2)");
  EXPECT_EQ(ErrorOf([&] { map.Double("neg", 0, 100000); }),
            "in.yaml:2:6: thing neg: -0.5 is out of range (expected "
            "0..100000)");
  EXPECT_EQ(ErrorOf([&] { map.Double("tiny", 0.5, 1000); }),
            "in.yaml:3:7: thing tiny: 0 is out of range (expected 0.5..1000)");
  EXPECT_EQ(ErrorOf([&] { map.Double("huge", 0, 1000); }),
            "in.yaml:4:7: thing huge: 1e300 is out of range (expected "
            "0..1000)");
}

// --- Bool -------------------------------------------------------------------

TEST(YamlMapBoolTest, TrueAndFalse) {
  const YamlMap map = MapOf("a: true\nb: false\n");
  EXPECT_TRUE(map.Bool("a"));
  EXPECT_FALSE(map.Bool("b"));
}

TEST(YamlMapBoolTest, OnlyLowercaseTrueAndFalse) {
  const YamlMap map =
      MapOf("a: yes\nb: True\nc: 1\nd: on\ne: FALSE\nf: \"\"\n");
  EXPECT_EQ(ErrorOf([&] { map.Bool("a"); }),
            "in.yaml:1:4: thing a: expected true or false, got 'yes'");
  EXPECT_EQ(ErrorOf([&] { map.Bool("b"); }),
            "in.yaml:2:4: thing b: expected true or false, got 'True'");
  EXPECT_EQ(ErrorOf([&] { map.Bool("c"); }),
            "in.yaml:3:4: thing c: expected true or false, got '1'");
  EXPECT_EQ(ErrorOf([&] { map.Bool("d"); }),
            "in.yaml:4:4: thing d: expected true or false, got 'on'");
  EXPECT_EQ(ErrorOf([&] { map.Bool("e"); }),
            "in.yaml:5:4: thing e: expected true or false, got 'FALSE'");
  EXPECT_EQ(ErrorOf([&] { map.Bool("f"); }),
            "in.yaml:6:4: thing f: expected true or false, got ''");
}

TEST(YamlMapBoolTest, NonScalarEmptyAndMissing) {
  const YamlMap map = MapOf("l: [true]\nm: {a: true}\nn:\n");
  EXPECT_EQ(ErrorOf([&] { map.Bool("l"); }),
            "in.yaml:1:4: thing l: expected true or false, got a list");
  EXPECT_EQ(ErrorOf([&] { map.Bool("m"); }),
            "in.yaml:2:4: thing m: expected true or false, got a mapping");
  EXPECT_EQ(ErrorOf([&] { map.Bool("n"); }),
            "in.yaml:3:1: thing n: expected true or false, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.Bool("x"); }),
            "in.yaml:1:1: thing: missing required key 'x'");
}

// --- StringList -------------------------------------------------------------

TEST(YamlMapStringListTest, FlowAndBlockLists) {
  const YamlMap map = MapOf("a: [x, \"y\", 3]\nb:\n  - p\n  - q\nc: []\n");
  EXPECT_THAT(map.StringList("a"), ElementsAre("x", "y", "3"));
  EXPECT_THAT(map.StringList("b"), ElementsAre("p", "q"));
  EXPECT_THAT(map.StringList("c"), IsEmpty());
}

TEST(YamlMapStringListTest, TypeErrors) {
  const YamlMap map =
      MapOf("a: x\nb: {k: v}\nc:\nd: [x, [y]]\ne:\n  - x\n  - {k: v}\n");
  EXPECT_EQ(ErrorOf([&] { map.StringList("a"); }),
            "in.yaml:1:4: thing a: expected a list, got 'x'");
  EXPECT_EQ(ErrorOf([&] { map.StringList("b"); }),
            "in.yaml:2:4: thing b: expected a list, got a mapping");
  EXPECT_EQ(ErrorOf([&] { map.StringList("c"); }),
            "in.yaml:3:1: thing c: expected a list, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.StringList("d"); }),
            "in.yaml:4:8: thing d: expected a string, got a list");
  EXPECT_EQ(ErrorOf([&] { map.StringList("e"); }),
            "in.yaml:7:5: thing e: expected a string, got a mapping");
}

// --- IntList ----------------------------------------------------------------

TEST(YamlMapIntListTest, ReadsIntegers) {
  const YamlMap map = MapOf("a: [0, 2, 4, 6]\nb:\n  - 7\nc: []\n");
  EXPECT_THAT(map.IntList("a", 0, 7), ElementsAre(0, 2, 4, 6));
  EXPECT_THAT(map.IntList("b", 0, 7), ElementsAre(7));
  EXPECT_THAT(map.IntList("c", 0, 7), IsEmpty());
}

TEST(YamlMapIntListTest, TypeAndRangeErrors) {
  const YamlMap map = MapOf(
      "a: 5\nb: [1, x]\nc: [1, 99]\nd: [1, [2]]\ne:\nf:\n  - 1\n  - 1.5\n");
  EXPECT_EQ(ErrorOf([&] { map.IntList("a", 0, 10); }),
            "in.yaml:1:4: thing a: expected a list, got '5'");
  EXPECT_EQ(ErrorOf([&] { map.IntList("b", 0, 10); }),
            "in.yaml:2:8: thing b: expected an integer, got 'x'");
  EXPECT_EQ(ErrorOf([&] { map.IntList("c", 0, 10); }),
            "in.yaml:3:8: thing c: 99 is out of range (expected 0..10)");
  EXPECT_EQ(ErrorOf([&] { map.IntList("d", 0, 10); }),
            "in.yaml:4:8: thing d: expected an integer, got a list");
  EXPECT_EQ(ErrorOf([&] { map.IntList("e", 0, 10); }),
            "in.yaml:5:1: thing e: expected a list, got nothing");
  EXPECT_EQ(ErrorOf([&] { map.IntList("f", 0, 10); }),
            "in.yaml:8:5: thing f: expected an integer, got '1.5'");
}

// --- Free scalar functions --------------------------------------------------

TEST(ScalarTest, NamesTheValueAsGiven) {
  const YAML::Node root = ParseYaml("v: 12abc\n", kFile);
  EXPECT_EQ(ErrorOf([&] { ScalarInt(kFile, root["v"], "the value", 0, 9); }),
            "in.yaml:1:4: the value: expected an integer, got '12abc'");
  EXPECT_EQ(ErrorOf([&] { ScalarDouble(kFile, root["v"], "x", 0, 9); }),
            "in.yaml:1:4: x: expected a number, got '12abc'");
  EXPECT_EQ(ScalarString(kFile, root["v"], "x"), "12abc");
}

// --- LoadYamlFile -----------------------------------------------------------

std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

TEST(LoadYamlFileTest, MissingFile) {
  const std::string path = "/nonexistent-gpushare-dir/missing.yaml";
  try {
    LoadYamlFile(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.column(), 0);
    EXPECT_EQ(e.message(), "no such file");
    EXPECT_EQ(std::string(e.what()), path + ": no such file");
  }
}

TEST(LoadYamlFileTest, Directory) {
  const std::string path = ::testing::TempDir();
  try {
    LoadYamlFile(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.message(), "is a directory, expected a file");
  }
}

TEST(LoadYamlFileTest, FifoIsRefusedNotWaitedOn) {
  const std::string path = ::testing::TempDir() + "gs_yaml_input_fifo";
  std::remove(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  try {
    LoadYamlFile(path);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(),
              "not a regular file (a FIFO, socket or device is not read)");
  }
  std::remove(path.c_str());
}

TEST(LoadYamlFileTest, InvalidUtf8IsLocated) {
  const std::string path =
      WriteTempFile("gs_yaml_input_utf8.yaml", "name: ok\nclass: x\xFF\n");
  try {
    LoadYamlFile(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 9);
  }
}

TEST(LoadYamlFileTest, ReadsAFile) {
  const std::string path =
      WriteTempFile("gs_yaml_input_ok.yaml", "a: 1\nb: [x]\n");
  const YAML::Node node = LoadYamlFile(path);
  ASSERT_TRUE(node.IsMap());
  EXPECT_EQ(node["a"].Scalar(), "1");
}

TEST(LoadYamlFileTest, SyntaxErrorNamesThePath) {
  const std::string path =
      WriteTempFile("gs_yaml_input_bad.yaml", "a: 1\nb: c: d\n");
  EXPECT_EQ(ErrorOf([&] { LoadYamlFile(path); }),
            path + ":2:5: invalid YAML: illegal map value");
}

}  // namespace
}  // namespace yaml_input_test
}  // namespace gpushare
