// CelSelector: a DRA device selector written in a documented subset of CEL,
// compiled once and evaluated against many devices.
//
// Contract. The subset (docs/model.md, "DRA objects"): the variable
// `device` with device.driver (string), device.allowMultipleAllocations
// (bool, KEP-5075; false for a device without it), device.attributes["DOMAIN"].NAME or
// device.attributes["DOMAIN"]["NAME"] (the attribute's own type: int, bool,
// string or semver), device.capacity["DOMAIN"].NAME (a quantity), and the
// presence test "NAME" in device.attributes["DOMAIN"] (or device.capacity);
// string, int and bool literals; list literals of literals; quantity("40Gi")
// and semver("1.2.3"), checked at compile time; ==, != on any two values,
// <, <=, >, >= on ints, strings and bools; .compareTo() (-1, 0 or 1),
// .isGreaterThan() and .isLessThan() on quantities and versions, as the
// Kubernetes CEL libraries name them; `x in [list]`; &&, ||, ! and
// parentheses. Anything else (arithmetic, ?:, macros such as has() or
// all(), other functions, double literals, cel.bind) is refused by Compile
// with its column, as is an expression over kMaxCelExpressionBytes (the
// API's CELSelectorExpressionMaxLength, kubernetes/api resource/v1
// types.go) and any static type error CEL's checker reports.
//
// Semantics, as the scheduler's CEL environment has them (kubernetes/
// kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go):
//   - device.attributes["D"] of a domain the device lacks is an empty map,
//     so a presence test on it is false, and reading a missing attribute or
//     capacity is a runtime error "no such key: NAME";
//   - an attribute is dynamically typed: == and != of different types are
//     false and true (CEL's heterogeneous equality); an ordering or method
//     on mismatched types is a runtime error "no such overload";
//   - && and || are commutative and absorb errors as CEL does: false && E
//     and E && false are false, true || E and E || true are true; otherwise
//     an error operand makes the result an error; ! of an error is an error.
// A runtime error is not "no match": the scheduler's allocator stops with
// "class NAME: selector #I: CEL runtime error: ..." (structured/internal/
// stable/allocator_stable.go selectorsMatch), so Evaluate reports it as
// such and leaves the decision to its caller. Evaluate never allocates and
// never throws.

#ifndef GPUSHARE_CLUSTER_DRA_CEL_SELECTOR_H_
#define GPUSHARE_CLUSTER_DRA_CEL_SELECTOR_H_

#include <optional>
#include <string>
#include <string_view>

#include "gpushare/cluster/dra/cel_ast.h"
#include "gpushare/cluster/dra/cel_lexer.h"
#include "gpushare/cluster/dra/device.h"

namespace gpushare {

inline constexpr size_t kMaxCelExpressionBytes = 10 * 1024;

// The outcome of one evaluation. On kError, the fields say which error:
// `key` for kNoSuchKey; `op` and the runtime type names for kNoSuchOverload
// and kNotBool. Views point into the selector or the device: valid while
// both live.
struct CelResult {
  enum class Outcome { kFalse, kTrue, kError };
  enum class Error { kNone, kNoSuchKey, kNoSuchOverload, kNotBool };

  Outcome outcome = Outcome::kFalse;
  Error error = Error::kNone;
  int column = 0;  // of the node that failed
  std::string_view key;
  std::string_view op;
  const char* lhs_type = "";
  const char* rhs_type = "";

  bool matches() const { return outcome == Outcome::kTrue; }
  bool failed() const { return outcome == Outcome::kError; }
  // The error as CEL words it: "no such key: profile", "no such overload:
  // string < int", "CEL result of type string could not be converted to
  // bool"; "" when there is none.
  std::string ErrorMessage() const;
};

class CelSelector {
 public:
  // The selector of `expression`, or nullopt with `*error` (1-based column
  // in the expression and what is wrong).
  static std::optional<CelSelector> Compile(std::string_view expression,
                                            CelCompileError* error);

  // Compile, or throw InputError at file:line:(column + error column - 1),
  // where `column` is that of the expression's first character in the file.
  static CelSelector CompileAt(std::string_view expression,
                               const std::string& file, int line, int column);

  const std::string& expression() const { return expression_; }

  // Evaluates against `device` of a slice of `driver`.
  CelResult Evaluate(const Device& device, std::string_view driver) const;

 private:
  CelSelector() = default;

  std::string expression_;
  CelAst ast_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CEL_SELECTOR_H_
