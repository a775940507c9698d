#include "gpushare/cluster/dra/cel_selector.h"

#include <cstdint>
#include <utility>

#include "gpushare/cluster/dra/cel_parser.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// A runtime value. Strings are views into the selector or the device.
struct CelValue {
  enum class Kind { kBool, kInt, kString, kQuantity, kSemver, kList, kError };
  Kind kind = Kind::kBool;
  bool b = false;
  int64_t i = 0;  // int, quantity
  std::string_view s;
  Semver v;
  int list = -1;  // kList: the node
  // kError:
  CelResult::Error error = CelResult::Error::kNone;
  int column = 0;
  std::string_view key;
  std::string_view op;
  const char* lhs_type = "";
  const char* rhs_type = "";
};

const char* CelValueTypeName(const CelValue& value) {
  switch (value.kind) {
    case CelValue::Kind::kBool:
      return "bool";
    case CelValue::Kind::kInt:
      return "int";
    case CelValue::Kind::kString:
      return "string";
    case CelValue::Kind::kQuantity:
      return "quantity";
    case CelValue::Kind::kSemver:
      return "semver";
    case CelValue::Kind::kList:
      return "list";
    case CelValue::Kind::kError:
      return "error";
  }
  return "?";
}

CelValue CelBoolValue(bool b) {
  CelValue v;
  v.kind = CelValue::Kind::kBool;
  v.b = b;
  return v;
}

CelValue CelNoSuchKey(const CelNode& node) {
  CelValue v;
  v.kind = CelValue::Kind::kError;
  v.error = CelResult::Error::kNoSuchKey;
  v.column = node.column;
  v.key = node.text;
  return v;
}

CelValue CelNoSuchOverload(const CelNode& node, std::string_view op,
                           const CelValue& lhs, const CelValue* rhs) {
  CelValue v;
  v.kind = CelValue::Kind::kError;
  v.error = CelResult::Error::kNoSuchOverload;
  v.column = node.column;
  v.op = op;
  v.lhs_type = CelValueTypeName(lhs);
  v.rhs_type = rhs == nullptr ? "" : CelValueTypeName(*rhs);
  return v;
}

// CEL's heterogeneous equality: values of different types are unequal.
bool CelEqual(const CelValue& a, const CelValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case CelValue::Kind::kBool:
      return a.b == b.b;
    case CelValue::Kind::kInt:
    case CelValue::Kind::kQuantity:
      return a.i == b.i;
    case CelValue::Kind::kString:
      return a.s == b.s;
    case CelValue::Kind::kSemver:
      return a.v == b.v;
    default:
      return false;
  }
}

// -1, 0, 1 for two values of one orderable kind.
int CelCompare(const CelValue& a, const CelValue& b) {
  switch (a.kind) {
    case CelValue::Kind::kBool:
      return a.b == b.b ? 0 : (a.b ? 1 : -1);
    case CelValue::Kind::kInt:
    case CelValue::Kind::kQuantity:
      return a.i == b.i ? 0 : (a.i < b.i ? -1 : 1);
    case CelValue::Kind::kString: {
      const int c = a.s.compare(b.s);
      return c == 0 ? 0 : (c < 0 ? -1 : 1);
    }
    case CelValue::Kind::kSemver:
      return a.v == b.v ? 0 : (a.v < b.v ? -1 : 1);
    default:
      return 0;
  }
}

class CelEvaluator {
 public:
  CelEvaluator(const CelAst& ast, const Device& device, std::string_view driver)
      : ast_(ast), device_(device), driver_(driver) {}

  CelValue Eval(int index) const {
    const CelNode& n = ast_.nodes[static_cast<size_t>(index)];
    CelValue v;
    switch (n.op) {
      case CelOp::kBool:
        return CelBoolValue(n.bool_value);
      case CelOp::kInt:
        v.kind = CelValue::Kind::kInt;
        v.i = n.int_value;
        return v;
      case CelOp::kString:
        v.kind = CelValue::Kind::kString;
        v.s = n.text;
        return v;
      case CelOp::kQuantity:
        v.kind = CelValue::Kind::kQuantity;
        v.i = n.int_value;
        return v;
      case CelOp::kSemver:
        v.kind = CelValue::Kind::kSemver;
        v.v = n.semver;
        return v;
      case CelOp::kList:
        v.kind = CelValue::Kind::kList;
        v.list = index;
        return v;
      case CelOp::kDriver:
        v.kind = CelValue::Kind::kString;
        v.s = driver_;
        return v;
      case CelOp::kAllowMultiple:
        v.kind = CelValue::Kind::kBool;
        v.b = device_.allow_multiple_allocations;
        return v;
      case CelOp::kAttribute:
        return Attribute(n);
      case CelOp::kCapacity: {
        const DeviceCapacity* c = device_.FindCapacity(n.domain, n.text);
        if (c == nullptr) return CelNoSuchKey(n);
        v.kind = CelValue::Kind::kQuantity;
        v.i = c->value;
        return v;
      }
      case CelOp::kAttributeMap:
      case CelOp::kCapacityMap:
        // The parser lets a map stand only on the right of `in`.
        return CelNoSuchOverload(n, "map", v, nullptr);
      case CelOp::kHasAttribute:
        return CelBoolValue(device_.FindAttribute(n.domain, n.text) != nullptr);
      case CelOp::kHasCapacity:
        return CelBoolValue(device_.FindCapacity(n.domain, n.text) != nullptr);
      case CelOp::kNot: {
        const CelValue operand = Eval(n.lhs);
        if (operand.kind == CelValue::Kind::kError) return operand;
        if (operand.kind != CelValue::Kind::kBool) {
          return CelNoSuchOverload(n, "!", operand, nullptr);
        }
        return CelBoolValue(!operand.b);
      }
      case CelOp::kAnd:
        return Logical(n, /*absorbing=*/false);
      case CelOp::kOr:
        return Logical(n, /*absorbing=*/true);
      case CelOp::kEq:
      case CelOp::kNe: {
        const CelValue a = Eval(n.lhs);
        if (a.kind == CelValue::Kind::kError) return a;
        const CelValue b = Eval(n.rhs);
        if (b.kind == CelValue::Kind::kError) return b;
        return CelBoolValue(CelEqual(a, b) == (n.op == CelOp::kEq));
      }
      case CelOp::kLt:
      case CelOp::kLe:
      case CelOp::kGt:
      case CelOp::kGe:
        return Ordering(n);
      case CelOp::kInList: {
        const CelValue a = Eval(n.lhs);
        if (a.kind == CelValue::Kind::kError) return a;
        const CelNode& list = ast_.nodes[static_cast<size_t>(n.rhs)];
        for (const int item : list.items) {
          if (CelEqual(a, Eval(item))) return CelBoolValue(true);
        }
        return CelBoolValue(false);
      }
      case CelOp::kCompareTo:
      case CelOp::kIsGreaterThan:
      case CelOp::kIsLessThan:
        return Method(n);
    }
    return v;
  }

 private:
  CelValue Attribute(const CelNode& n) const {
    const DeviceAttribute* a = device_.FindAttribute(n.domain, n.text);
    if (a == nullptr) return CelNoSuchKey(n);
    CelValue v;
    switch (a->kind()) {
      case DeviceAttribute::Kind::kInt:
        v.kind = CelValue::Kind::kInt;
        v.i = a->int_value();
        break;
      case DeviceAttribute::Kind::kBool:
        v.kind = CelValue::Kind::kBool;
        v.b = a->bool_value();
        break;
      case DeviceAttribute::Kind::kString:
        v.kind = CelValue::Kind::kString;
        v.s = a->string_value();
        break;
      case DeviceAttribute::Kind::kVersion:
        v.kind = CelValue::Kind::kSemver;
        v.v = a->version_value();
        break;
    }
    return v;
  }

  // && (absorbing false) and || (absorbing true), commutative as CEL's.
  CelValue Logical(const CelNode& n, bool absorbing) const {
    const CelValue a = Eval(n.lhs);
    if (a.kind == CelValue::Kind::kBool && a.b == absorbing) return a;
    const CelValue b = Eval(n.rhs);
    if (b.kind == CelValue::Kind::kBool && b.b == absorbing) return b;
    const std::string_view op = absorbing ? "||" : "&&";
    if (a.kind == CelValue::Kind::kError) return a;
    if (a.kind != CelValue::Kind::kBool) {
      return CelNoSuchOverload(n, op, a, &b);
    }
    if (b.kind == CelValue::Kind::kError) return b;
    if (b.kind != CelValue::Kind::kBool) {
      return CelNoSuchOverload(n, op, a, &b);
    }
    return CelBoolValue(!absorbing);
  }

  CelValue Ordering(const CelNode& n) const {
    const CelValue a = Eval(n.lhs);
    if (a.kind == CelValue::Kind::kError) return a;
    const CelValue b = Eval(n.rhs);
    if (b.kind == CelValue::Kind::kError) return b;
    std::string_view op;
    switch (n.op) {
      case CelOp::kLt:
        op = "<";
        break;
      case CelOp::kLe:
        op = "<=";
        break;
      case CelOp::kGt:
        op = ">";
        break;
      default:
        op = ">=";
        break;
    }
    const bool orderable = a.kind == CelValue::Kind::kBool ||
                           a.kind == CelValue::Kind::kInt ||
                           a.kind == CelValue::Kind::kString;
    if (a.kind != b.kind || !orderable) {
      return CelNoSuchOverload(n, op, a, &b);
    }
    const int c = CelCompare(a, b);
    switch (n.op) {
      case CelOp::kLt:
        return CelBoolValue(c < 0);
      case CelOp::kLe:
        return CelBoolValue(c <= 0);
      case CelOp::kGt:
        return CelBoolValue(c > 0);
      default:
        return CelBoolValue(c >= 0);
    }
  }

  CelValue Method(const CelNode& n) const {
    const CelValue a = Eval(n.lhs);
    if (a.kind == CelValue::Kind::kError) return a;
    const CelValue b = Eval(n.rhs);
    if (b.kind == CelValue::Kind::kError) return b;
    const std::string_view op = n.op == CelOp::kCompareTo ? "compareTo"
                                : n.op == CelOp::kIsGreaterThan
                                    ? "isGreaterThan"
                                    : "isLessThan";
    const bool comparable = a.kind == CelValue::Kind::kQuantity ||
                            a.kind == CelValue::Kind::kSemver;
    if (a.kind != b.kind || !comparable) {
      return CelNoSuchOverload(n, op, a, &b);
    }
    const int c = CelCompare(a, b);
    if (n.op == CelOp::kCompareTo) {
      CelValue v;
      v.kind = CelValue::Kind::kInt;
      v.i = c;
      return v;
    }
    return CelBoolValue(n.op == CelOp::kIsGreaterThan ? c > 0 : c < 0);
  }

  const CelAst& ast_;
  const Device& device_;
  std::string_view driver_;
};

}  // namespace

std::string CelResult::ErrorMessage() const {
  switch (error) {
    case Error::kNone:
      return "";
    case Error::kNoSuchKey:
      return "no such key: " + std::string(key);
    case Error::kNoSuchOverload:
      if (*rhs_type == '\0') {
        return "no such overload: " + std::string(op) + lhs_type;
      }
      return "no such overload: " + std::string(lhs_type) + " " +
             std::string(op) + " " + rhs_type;
    case Error::kNotBool:
      return std::string("CEL result of type ") + lhs_type +
             " could not be converted to bool";
  }
  return "";
}

std::optional<CelSelector> CelSelector::Compile(std::string_view expression,
                                                CelCompileError* error) {
  if (expression.size() > kMaxCelExpressionBytes) {
    if (error != nullptr) {
      error->column = static_cast<int>(kMaxCelExpressionBytes) + 1;
      error->message = "the expression is " +
                       std::to_string(expression.size()) +
                       " bytes long; at most " +
                       std::to_string(kMaxCelExpressionBytes) + " are allowed";
    }
    return std::nullopt;
  }
  CelSelector selector;
  selector.expression_ = std::string(expression);
  if (!ParseCelSelector(expression, selector.ast_, error)) return std::nullopt;
  return selector;
}

CelSelector CelSelector::CompileAt(std::string_view expression,
                                   const std::string& file, int line,
                                   int column) {
  CelCompileError error;
  std::optional<CelSelector> selector = Compile(expression, &error);
  if (!selector) {
    throw InputError(file, line, column > 0 ? column + error.column - 1 : 0,
                     "CEL selector: " + error.message);
  }
  return std::move(*selector);
}

CelResult CelSelector::Evaluate(const Device& device,
                                std::string_view driver) const {
  const CelValue v = CelEvaluator(ast_, device, driver).Eval(ast_.root);
  CelResult result;
  if (v.kind == CelValue::Kind::kBool) {
    result.outcome =
        v.b ? CelResult::Outcome::kTrue : CelResult::Outcome::kFalse;
    return result;
  }
  result.outcome = CelResult::Outcome::kError;
  if (v.kind == CelValue::Kind::kError) {
    result.error = v.error;
    result.column = v.column;
    result.key = v.key;
    result.op = v.op;
    result.lhs_type = v.lhs_type;
    result.rhs_type = v.rhs_type;
  } else {
    result.error = CelResult::Error::kNotBool;
    result.column = 1;
    result.lhs_type = CelValueTypeName(v);
  }
  return result;
}

}  // namespace gpushare
