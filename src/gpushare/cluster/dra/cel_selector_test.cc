// The CEL subset: compile errors with their columns (counted by hand), and
// evaluation truth tables against one hand-built device, including CEL's
// error absorption in && and || over a missing attribute.

#include "gpushare/cluster/dra/cel_selector.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// The column and message of compiling `expression`; column 0 if it compiled.
CelCompileError CelCompileFailure(const std::string& expression) {
  CelCompileError error;
  if (CelSelector::Compile(expression, &error).has_value()) return {};
  return error;
}

void ExpectCelRefused(const std::string& expression, int column,
                      const std::string& message_part) {
  const CelCompileError error = CelCompileFailure(expression);
  EXPECT_EQ(error.column, column) << expression << ": " << error.message;
  EXPECT_NE(error.message.find(message_part), std::string::npos)
      << expression << ": " << error.message;
}

TEST(CelCompileTest, RefusesWhatIsOutsideTheSubsetAtItsColumn) {
  ExpectCelRefused("device.driver + 'x'", 15, "arithmetic ('+')");
  ExpectCelRefused("device.driver + 'x'", 15, "the supported subset is");
  ExpectCelRefused("device.driver == 'a' ? true : false", 22,
                   "conditional operator");
  ExpectCelRefused("has(device.attributes['d'].x)", 1, "has()");
  ExpectCelRefused("device.attributes['d'].x.startsWith('a')", 26,
                   "the method startsWith()");
  ExpectCelRefused("size('abc') == 3", 1, "the function size()");
  ExpectCelRefused("x == 1", 1, "unknown name 'x'");
  ExpectCelRefused("device.foo == 1", 8, "device has no field 'foo'");
  ExpectCelRefused("'a' in device.attributes", 25,
                   "device.attributes without [\"DOMAIN\"]");
  ExpectCelRefused("device.attributes[device.driver].x == 1", 19,
                   "must be a string literal");
  ExpectCelRefused("1.5 > 1", 1, "floating-point");
  ExpectCelRefused("device.driver == 'abc", 18, "unterminated string");
  ExpectCelRefused("device.driver = 'abc'", 15, "use '=='");
  ExpectCelRefused("{'a': 1} == 1", 1, "map literal");
  ExpectCelRefused("null == 1", 1, "null");
  ExpectCelRefused("device.driver == ", 18, "unexpected end");
  ExpectCelRefused("(device.driver == 'a'", 22, "expected ')'");
  ExpectCelRefused("device.driver in [device.driver]", 19,
                   "list items must be literals");
}

TEST(CelCompileTest, RefusesStaticTypeErrors) {
  ExpectCelRefused("device.driver == 1", 15,
                   "no matching overload for '==' applied to (string, int)");
  // device.capacity['gpu.nvidia.com'].memory ends at column 40.
  ExpectCelRefused(
      "device.capacity['gpu.nvidia.com'].memory > quantity('40Gi')", 42,
      "use .compareTo(), .isGreaterThan() or .isLessThan()");
  ExpectCelRefused("device.driver", 1, "must evaluate to a bool, not string");
  ExpectCelRefused("1 && true", 1, "'&&' needs a bool, not int");
  ExpectCelRefused("!'a'", 2, "'!' needs a bool, not string");
  ExpectCelRefused("device.driver.compareTo(quantity('1'))", 15,
                   "applies to quantities and versions, not to a string");
  ExpectCelRefused("quantity('1').compareTo(semver('1.0.0')) == 0", 25,
                   "no matching overload for compareTo() applied to "
                   "(quantity, semver)");
  ExpectCelRefused("quantity('40Gb').compareTo(quantity('1')) == 0", 10,
                   "quantity(): '40Gb' is not a Kubernetes quantity");
  ExpectCelRefused("semver('1.2') == semver('1.2.0')", 8,
                   "semver(): '1.2' is not a version");
  ExpectCelRefused("1 in device.attributes['d']", 1,
                   "must be a string literal");
  ExpectCelRefused("1 in 2", 6, "'in' needs a list literal");
}

TEST(CelCompileTest, RefusesDeepNestingAndLongExpressions) {
  ExpectCelRefused(std::string(70, '!') + "true", 66, "nests deeper than 64");
  ExpectCelRefused(std::string(70, '(') + "true" + std::string(70, ')'), 66,
                   "nests deeper than 64");
  std::string long_expression = "true";
  while (long_expression.size() <= kMaxCelExpressionBytes) {
    long_expression += " && true";
  }
  ExpectCelRefused(long_expression, 10241, "at most 10240");
}

TEST(CelCompileTest, CompileAtThrowsAtTheFileColumn) {
  try {
    CelSelector::CompileAt("device.driver + 'x'", "classes.yaml", 3, 12);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "classes.yaml");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 26);  // 12 + 15 - 1
    EXPECT_EQ(e.message().rfind("CEL selector: arithmetic ('+')", 0), 0u)
        << e.message();
  }
}

class CelSelectorTest : public ::testing::Test {
 protected:
  CelSelectorTest() {
    device_.name = "gpu-0";
    const std::string d = "gpu.nvidia.com";
    device_.SetAttribute(d, "type", DeviceAttribute::String("gpu"));
    device_.SetAttribute(d, "count", DeviceAttribute::Int(4));
    device_.SetAttribute(d, "ok", DeviceAttribute::Bool(true));
    device_.SetAttribute(d, "cc", DeviceAttribute::Version({8, 0, 0}));
    device_.SetCapacity(d, "memory", int64_t{80} << 30);
  }

  CelResult Eval(const std::string& expression) {
    CelCompileError error;
    const std::optional<CelSelector> selector =
        CelSelector::Compile(expression, &error);
    EXPECT_TRUE(selector.has_value())
        << expression << ": column " << error.column << ": " << error.message;
    if (!selector) return {};
    const CelResult result = selector->Evaluate(device_, "gpu.nvidia.com");
    message_ = result.ErrorMessage();
    return result;
  }

  // 'T', 'F' or 'E'.
  char Outcome(const std::string& expression) {
    const CelResult r = Eval(expression);
    return r.failed() ? 'E' : (r.matches() ? 'T' : 'F');
  }

  Device device_;
  std::string message_;
};

constexpr const char* kMissing =
    "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'";

TEST_F(CelSelectorTest, DriverAttributesAndLiterals) {
  EXPECT_EQ(Outcome("device.driver == 'gpu.nvidia.com'"), 'T');
  EXPECT_EQ(Outcome("device.driver != 'gpu.nvidia.com'"), 'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type == 'gpu'"), 'T');
  EXPECT_EQ(Outcome("device.attributes[\"gpu.nvidia.com\"][\"type\"] == "
                    "\"gpu\""),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type == 'mig'"), 'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count >= 4"), 'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count > 4"), 'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count < 5"), 'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count <= 3"), 'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].ok"), 'T');
  EXPECT_EQ(Outcome("!device.attributes['gpu.nvidia.com'].ok"), 'F');
  EXPECT_EQ(Outcome("-1 < 0 && 'abc' < 'abd' && false < true"), 'T');
  EXPECT_EQ(Outcome("true // a comment"), 'T');
}

// KEP-5075: device.allowMultipleAllocations is a bool, false unless the
// device sets it (upstream's classWithAllowMultipleAllocations selects on it).
TEST_F(CelSelectorTest, AllowMultipleAllocationsIsABool) {
  EXPECT_EQ(Outcome("device.allowMultipleAllocations"), 'F');
  EXPECT_EQ(Outcome("device.allowMultipleAllocations == false"), 'T');
  device_.allow_multiple_allocations = true;
  EXPECT_EQ(Outcome("device.driver == 'gpu.nvidia.com' && "
                    "device.allowMultipleAllocations == true"),
            'T');
  EXPECT_EQ(Outcome("!device.allowMultipleAllocations"), 'F');
  ExpectCelRefused("device.allowMultipleAllocations == 1", 33,
                   "no matching overload for '==' applied to (bool, int)");
}

TEST_F(CelSelectorTest, Int64RangeLiteralsAndMultiLineExpressions) {
  // CEL's smallest int64 is a literal of its own (cel-go's grammar reads the
  // sign with the digits); 2^63 alone is out of range.
  EXPECT_EQ(Outcome("-9223372036854775808 < -9223372036854775807"), 'T');
  EXPECT_EQ(Outcome("-9223372036854775808 in [1, -9223372036854775808]"),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count > "
                    "-9223372036854775808"),
            'T');
  ExpectCelRefused("9223372036854775808 > 0", 1, "out of the int64 range");
  ExpectCelRefused("-9223372036854775809 < 0", 2, "out of the int64 range");
  ExpectCelRefused("1 -9223372036854775808 < 0", 3, "arithmetic ('-')");
  // Line breaks and tabs are whitespace.
  EXPECT_EQ(Outcome("device.driver == 'gpu.nvidia.com' &&\n"
                    "\tdevice.attributes['gpu.nvidia.com'].type == 'gpu'"),
            'T');
}

TEST_F(CelSelectorTest, HeterogeneousEqualityIsFalseOrderingIsAnError) {
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count == 'four'"),
            'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count != 'four'"),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count < 'four'"), 'E');
  EXPECT_EQ(message_, "no such overload: int < string");
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type"), 'E');
  EXPECT_EQ(message_,
            "CEL result of type string could not be converted to "
            "bool");
}

TEST_F(CelSelectorTest, MissingAttributeIsAnErrorThatAndOrCanAbsorb) {
  EXPECT_EQ(Outcome(kMissing), 'E');
  EXPECT_EQ(message_, "no such key: profile");
  const std::string m = std::string("(") + kMissing + ")";
  // && : false absorbs the error on either side; true does not.
  EXPECT_EQ(Outcome("false && " + m), 'F');
  EXPECT_EQ(Outcome(m + " && false"), 'F');
  EXPECT_EQ(Outcome("true && " + m), 'E');
  EXPECT_EQ(Outcome(m + " && true"), 'E');
  // || : true absorbs the error on either side; false does not.
  EXPECT_EQ(Outcome("true || " + m), 'T');
  EXPECT_EQ(Outcome(m + " || true"), 'T');
  EXPECT_EQ(Outcome("false || " + m), 'E');
  EXPECT_EQ(Outcome(m + " || false"), 'E');
  EXPECT_EQ(Outcome("!" + m), 'E');
  // A domain the device lacks is an empty map.
  EXPECT_EQ(Outcome("device.attributes['example.com'].type == 'gpu'"), 'E');
  EXPECT_EQ(message_, "no such key: type");
  EXPECT_EQ(Outcome("device.capacity['gpu.nvidia.com'].decoders."
                    "compareTo(quantity('1')) >= 0"),
            'E');
  EXPECT_EQ(message_, "no such key: decoders");
}

TEST_F(CelSelectorTest, PresenceAndListMembership) {
  EXPECT_EQ(Outcome("'type' in device.attributes['gpu.nvidia.com']"), 'T');
  EXPECT_EQ(Outcome("'profile' in device.attributes['gpu.nvidia.com']"), 'F');
  EXPECT_EQ(Outcome("'type' in device.attributes['example.com']"), 'F');
  EXPECT_EQ(Outcome("'memory' in device.capacity['gpu.nvidia.com']"), 'T');
  EXPECT_EQ(Outcome("!('profile' in device.attributes['gpu.nvidia.com']) || " +
                    std::string(kMissing)),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type in ['mig', "
                    "'gpu',]"),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type in ['mig']"),
            'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count in [1, 4]"),
            'T');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].count in ['4']"), 'F');
  EXPECT_EQ(Outcome("device.driver in []"), 'F');
}

TEST_F(CelSelectorTest, QuantitiesAndVersionsCompareByMethods) {
  const std::string memory = "device.capacity['gpu.nvidia.com'].memory";
  EXPECT_EQ(Outcome(memory + ".compareTo(quantity('80Gi')) == 0"), 'T');
  EXPECT_EQ(Outcome(memory + ".compareTo(quantity('40Gi')) > 0"), 'T');
  EXPECT_EQ(Outcome(memory + ".compareTo(quantity('81Gi')) == -1"), 'T');
  EXPECT_EQ(Outcome(memory + ".isGreaterThan(quantity('80Gi'))"), 'F');
  EXPECT_EQ(Outcome(memory + ".isLessThan(quantity('81Gi'))"), 'T');
  EXPECT_EQ(Outcome(memory + " == quantity('81920Mi')"), 'T');
  const std::string cc = "device.attributes['gpu.nvidia.com'].cc";
  EXPECT_EQ(Outcome(cc + ".isGreaterThan(semver('7.5.0'))"), 'T');
  EXPECT_EQ(Outcome(cc + ".isLessThan(semver('8.0.0'))"), 'F');
  EXPECT_EQ(Outcome(cc + " == semver('8.0.0')"), 'T');
  EXPECT_EQ(Outcome(cc + " == '8.0.0'"), 'F');
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type."
                    "isGreaterThan(semver('7.5.0'))"),
            'E');
  EXPECT_EQ(message_, "no such overload: string isGreaterThan semver");
}

}  // namespace
}  // namespace gpushare
