#include "gpushare/cluster/dra/cel_parser.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/io/quote.h"

namespace gpushare {

const char* CelTypeName(CelType type) {
  switch (type) {
    case CelType::kBool:
      return "bool";
    case CelType::kInt:
      return "int";
    case CelType::kString:
      return "string";
    case CelType::kQuantity:
      return "quantity";
    case CelType::kSemver:
      return "semver";
    case CelType::kList:
      return "list";
    case CelType::kMap:
      return "map";
    case CelType::kDyn:
      return "dyn";
  }
  return "?";
}

namespace {

// Thrown inside the parser only; ParseCelSelector turns it into an error.
struct CelParseFailure {
  int column;
  std::string message;
};

[[noreturn]] void CelFail(int column, std::string message) {
  throw CelParseFailure{column, std::move(message)};
}

[[noreturn]] void CelFailUnsupported(int column, const std::string& what) {
  CelFail(column, what + " is not supported; " + kCelSubsetSummary);
}

bool IsCelLiteralOp(CelOp op) {
  return op == CelOp::kBool || op == CelOp::kInt || op == CelOp::kString ||
         op == CelOp::kQuantity || op == CelOp::kSemver;
}

const char* CelOpSymbol(CelOp op) {
  switch (op) {
    case CelOp::kEq:
      return "==";
    case CelOp::kNe:
      return "!=";
    case CelOp::kLt:
      return "<";
    case CelOp::kLe:
      return "<=";
    case CelOp::kGt:
      return ">";
    case CelOp::kGe:
      return ">=";
    default:
      return "?";
  }
}

class CelParser {
 public:
  CelParser(std::vector<CelToken> tokens, CelAst& ast)
      : tokens_(std::move(tokens)), ast_(ast) {}

  void ParseAll() {
    ast_.nodes.clear();
    ast_.root = ParseExpr(0);
    if (Peek().kind != CelTokenKind::kEnd) FailUnexpected(Peek());
    const CelNode& root = Node(ast_.root);
    if (root.type != CelType::kBool && root.type != CelType::kDyn) {
      CelFail(root.column, std::string("a selector must evaluate to a bool, "
                                       "not ") +
                               CelTypeName(root.type));
    }
  }

 private:
  const CelToken& Peek() const { return tokens_[pos_]; }
  const CelToken& PeekAt(size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const CelToken& Take() {
    const CelToken& t = tokens_[pos_];
    if (t.kind != CelTokenKind::kEnd) ++pos_;
    return t;
  }
  const CelNode& Node(int index) const {
    return ast_.nodes[static_cast<size_t>(index)];
  }

  int Add(CelNode node) {
    ast_.nodes.push_back(std::move(node));
    return static_cast<int>(ast_.nodes.size()) - 1;
  }

  int AddBinary(CelOp op, CelType type, int column, int lhs, int rhs) {
    CelNode n;
    n.op = op;
    n.type = type;
    n.column = column;
    n.lhs = lhs;
    n.rhs = rhs;
    return Add(std::move(n));
  }

  [[noreturn]] void FailUnexpected(const CelToken& t) {
    switch (t.kind) {
      case CelTokenKind::kEnd:
        CelFail(t.column, "unexpected end of the expression");
      case CelTokenKind::kArithmetic:
      case CelTokenKind::kMinus:
        CelFailUnsupported(t.column, "arithmetic ('" + t.text + "')");
      case CelTokenKind::kQuestion:
      case CelTokenKind::kColon:
        CelFailUnsupported(t.column, "the conditional operator ?:");
      case CelTokenKind::kBrace:
        CelFailUnsupported(t.column, "a map literal");
      default:
        CelFail(t.column, "unexpected " + QuoteValue(t.text));
    }
  }

  void Expect(CelTokenKind kind, const char* what) {
    if (Peek().kind != kind) {
      if (Peek().kind == CelTokenKind::kEnd) {
        CelFail(Peek().column, std::string("expected ") + what +
                                   " before the end of the expression");
      }
      CelFail(Peek().column, std::string("expected ") + what + ", got " +
                                 QuoteValue(Peek().text));
    }
    Take();
  }

  void RequireBool(int node, const char* context) {
    const CelNode& n = Node(node);
    if (n.type != CelType::kBool && n.type != CelType::kDyn) {
      CelFail(n.column, std::string(context) + " needs a bool, not " +
                            CelTypeName(n.type));
    }
  }

  static bool IsCelContainer(CelType t) {
    return t == CelType::kList || t == CelType::kMap;
  }

  int ParseExpr(int depth) {
    if (depth > kMaxCelDepth) {
      CelFail(Peek().column, "the expression nests deeper than " +
                                 std::to_string(kMaxCelDepth) + " levels");
    }
    int lhs = ParseAnd(depth);
    while (Peek().kind == CelTokenKind::kOr) {
      const int column = Take().column;
      const int rhs = ParseAnd(depth);
      RequireBool(lhs, "'||'");
      RequireBool(rhs, "'||'");
      lhs = AddBinary(CelOp::kOr, CelType::kBool, column, lhs, rhs);
    }
    if (Peek().kind == CelTokenKind::kQuestion) FailUnexpected(Peek());
    return lhs;
  }

  int ParseAnd(int depth) {
    int lhs = ParseRelation(depth);
    while (Peek().kind == CelTokenKind::kAnd) {
      const int column = Take().column;
      const int rhs = ParseRelation(depth);
      RequireBool(lhs, "'&&'");
      RequireBool(rhs, "'&&'");
      lhs = AddBinary(CelOp::kAnd, CelType::kBool, column, lhs, rhs);
    }
    return lhs;
  }

  static std::optional<CelOp> RelationOp(const CelToken& t) {
    switch (t.kind) {
      case CelTokenKind::kEq:
        return CelOp::kEq;
      case CelTokenKind::kNe:
        return CelOp::kNe;
      case CelTokenKind::kLt:
        return CelOp::kLt;
      case CelTokenKind::kLe:
        return CelOp::kLe;
      case CelTokenKind::kGt:
        return CelOp::kGt;
      case CelTokenKind::kGe:
        return CelOp::kGe;
      case CelTokenKind::kIdent:
        if (t.text == "in") return CelOp::kInList;
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  int ParseRelation(int depth) {
    int lhs = ParseOperand(depth);
    while (true) {
      const CelToken& t = Peek();
      if (t.kind == CelTokenKind::kArithmetic ||
          t.kind == CelTokenKind::kMinus) {
        FailUnexpected(t);
      }
      const std::optional<CelOp> op = RelationOp(t);
      if (!op) return lhs;
      const int column = Take().column;
      const int rhs = ParseOperand(depth);
      lhs = *op == CelOp::kInList ? MakeIn(column, lhs, rhs)
                                  : MakeComparison(*op, column, lhs, rhs);
    }
  }

  int ParseOperand(int depth) {
    const int operand = ParseUnary(depth);
    const CelToken& t = Peek();
    if (t.kind == CelTokenKind::kArithmetic || t.kind == CelTokenKind::kMinus) {
      FailUnexpected(t);
    }
    return operand;
  }

  int MakeComparison(CelOp op, int column, int lhs, int rhs) {
    const CelType a = Node(lhs).type;
    const CelType b = Node(rhs).type;
    const std::string symbol = CelOpSymbol(op);
    if (IsCelContainer(a) || IsCelContainer(b)) {
      CelFail(column, "'" + symbol + "' cannot compare a " +
                          CelTypeName(IsCelContainer(a) ? a : b));
    }
    const bool ordering = op != CelOp::kEq && op != CelOp::kNe;
    if (ordering && (a == CelType::kQuantity || b == CelType::kQuantity ||
                     a == CelType::kSemver || b == CelType::kSemver)) {
      CelFail(column, "'" + symbol +
                          "' does not apply to quantities or versions; use "
                          ".compareTo(), .isGreaterThan() or .isLessThan()");
    }
    if (a != CelType::kDyn && b != CelType::kDyn && a != b) {
      CelFail(column, "no matching overload for '" + symbol + "' applied to (" +
                          CelTypeName(a) + ", " + CelTypeName(b) + ")");
    }
    return AddBinary(op, CelType::kBool, column, lhs, rhs);
  }

  int MakeIn(int column, int lhs, int rhs) {
    const CelNode& r = Node(rhs);
    const CelNode& l = Node(lhs);
    if (r.op == CelOp::kList) {
      if (IsCelContainer(l.type)) {
        CelFail(l.column,
                std::string("'in' cannot look for a ") + CelTypeName(l.type));
      }
      return AddBinary(CelOp::kInList, CelType::kBool, column, lhs, rhs);
    }
    if (r.op == CelOp::kAttributeMap || r.op == CelOp::kCapacityMap) {
      if (l.op != CelOp::kString) {
        CelFail(l.column,
                "the key of 'in' on device.attributes or device.capacity must "
                "be a string literal");
      }
      CelNode n;
      n.op = r.op == CelOp::kAttributeMap ? CelOp::kHasAttribute
                                          : CelOp::kHasCapacity;
      n.type = CelType::kBool;
      n.column = column;
      n.text = l.text;
      n.domain = r.domain;
      return Add(std::move(n));
    }
    CelFail(r.column,
            "'in' needs a list literal or device.attributes[\"DOMAIN\"] or "
            "device.capacity[\"DOMAIN\"] on its right");
  }

  int ParseUnary(int depth) {
    const CelToken& t = Peek();
    if (depth > kMaxCelDepth) {
      CelFail(t.column, "the expression nests deeper than " +
                            std::to_string(kMaxCelDepth) + " levels");
    }
    if (t.kind == CelTokenKind::kNot) {
      const int column = Take().column;
      const int operand = ParseUnary(depth + 1);
      RequireBool(operand, "'!'");
      CelNode n;
      n.op = CelOp::kNot;
      n.type = CelType::kBool;
      n.column = column;
      n.lhs = operand;
      return Add(std::move(n));
    }
    if (t.kind == CelTokenKind::kMinus) {
      const int column = Take().column;
      if (Peek().kind != CelTokenKind::kInt) {
        CelFailUnsupported(column,
                           "unary '-' other than before an integer literal");
      }
      CelNode n;
      n.op = CelOp::kInt;
      n.type = CelType::kInt;
      n.column = column;
      const CelToken& literal = Take();
      n.int_value = literal.int64_min_magnitude
                        ? std::numeric_limits<int64_t>::min()
                        : -literal.int_value;
      return ParseMember(Add(std::move(n)), depth);
    }
    return ParseMember(ParsePrimary(depth), depth);
  }

  int ParseMember(int base, int depth) {
    while (true) {
      const CelToken& t = Peek();
      if (t.kind == CelTokenKind::kLBracket) {
        CelFailUnsupported(t.column,
                           "indexing other than device.attributes[...] and "
                           "device.capacity[...]");
      }
      if (t.kind != CelTokenKind::kDot) return base;
      Take();
      const CelToken& name = Peek();
      if (name.kind != CelTokenKind::kIdent) {
        CelFail(name.column, "expected a name after '.'");
      }
      Take();
      if (Peek().kind != CelTokenKind::kLParen) {
        CelFailUnsupported(name.column,
                           "field selection ." + name.text +
                               " other than on device, device.attributes"
                               "[...] and device.capacity[...]");
      }
      base = ParseMethod(base, name, depth);
    }
  }

  int ParseMethod(int receiver, const CelToken& name, int depth) {
    CelOp op;
    if (name.text == "compareTo") {
      op = CelOp::kCompareTo;
    } else if (name.text == "isGreaterThan") {
      op = CelOp::kIsGreaterThan;
    } else if (name.text == "isLessThan") {
      op = CelOp::kIsLessThan;
    } else {
      CelFailUnsupported(name.column, "the method " + name.text + "()");
    }
    Expect(CelTokenKind::kLParen, "'('");
    if (Peek().kind == CelTokenKind::kRParen) {
      CelFail(Peek().column, name.text + "() takes one argument");
    }
    const int arg = ParseExpr(depth + 1);
    if (Peek().kind == CelTokenKind::kComma) {
      CelFail(Peek().column, name.text + "() takes one argument");
    }
    Expect(CelTokenKind::kRParen, "')'");
    const CelType r = Node(receiver).type;
    const CelType a = Node(arg).type;
    auto comparable = [](CelType t) {
      return t == CelType::kQuantity || t == CelType::kSemver ||
             t == CelType::kDyn;
    };
    if (!comparable(r)) {
      CelFail(name.column, name.text +
                               "() applies to quantities and "
                               "versions, not to a " +
                               CelTypeName(r));
    }
    if (!comparable(a) ||
        (r != CelType::kDyn && a != CelType::kDyn && r != a)) {
      CelFail(Node(arg).column, "no matching overload for " + name.text +
                                    "() applied to (" + CelTypeName(r) + ", " +
                                    CelTypeName(a) + ")");
    }
    return AddBinary(op,
                     op == CelOp::kCompareTo ? CelType::kInt : CelType::kBool,
                     name.column, receiver, arg);
  }

  int ParsePrimary(int depth) {
    const CelToken& t = Peek();
    CelNode n;
    n.column = t.column;
    switch (t.kind) {
      case CelTokenKind::kInt:
        if (t.int64_min_magnitude) {
          CelFail(t.column, "integer literal out of the int64 range");
        }
        n.op = CelOp::kInt;
        n.type = CelType::kInt;
        n.int_value = Take().int_value;
        return Add(std::move(n));
      case CelTokenKind::kString:
        n.op = CelOp::kString;
        n.type = CelType::kString;
        n.text = Take().text;
        return Add(std::move(n));
      case CelTokenKind::kLParen: {
        Take();
        const int inner = ParseExpr(depth + 1);
        Expect(CelTokenKind::kRParen, "')'");
        return inner;
      }
      case CelTokenKind::kLBracket:
        return ParseList(depth);
      case CelTokenKind::kIdent:
        return ParseIdent();
      default:
        FailUnexpected(t);
    }
  }

  int ParseList(int depth) {
    CelNode n;
    n.op = CelOp::kList;
    n.type = CelType::kList;
    n.column = Take().column;
    while (Peek().kind != CelTokenKind::kRBracket) {
      const int item = ParseExpr(depth + 1);
      if (!IsCelLiteralOp(Node(item).op)) {
        CelFail(Node(item).column,
                "list items must be literals (strings, ints, bools, "
                "quantity() or semver())");
      }
      n.items.push_back(item);
      if (Peek().kind != CelTokenKind::kComma) break;
      Take();
    }
    Expect(CelTokenKind::kRBracket, "',' or ']'");
    return Add(std::move(n));
  }

  int ParseIdent() {
    const CelToken& t = Take();
    CelNode n;
    n.column = t.column;
    if (t.text == "true" || t.text == "false") {
      n.op = CelOp::kBool;
      n.type = CelType::kBool;
      n.bool_value = t.text == "true";
      return Add(std::move(n));
    }
    if (t.text == "device") return ParseDevice(t);
    if (Peek().kind == CelTokenKind::kLParen) {
      if (t.text == "quantity" || t.text == "semver") {
        return ParseConversion(t);
      }
      if (t.text == "has") {
        CelFailUnsupported(t.column,
                           "has() (test presence with \"NAME\" in "
                           "device.attributes[\"DOMAIN\"])");
      }
      CelFailUnsupported(t.column, "the function " + t.text + "()");
    }
    if (t.text == "null") CelFailUnsupported(t.column, "null");
    CelFail(t.column, "unknown name " + QuoteValue(t.text) +
                          " (the only variable is device)");
  }

  // quantity("40Gi") or semver("1.2.3"), checked now.
  int ParseConversion(const CelToken& function) {
    Expect(CelTokenKind::kLParen, "'('");
    const CelToken& arg = Peek();
    if (arg.kind != CelTokenKind::kString) {
      CelFail(arg.column, function.text + "() takes one string literal");
    }
    Take();
    if (Peek().kind != CelTokenKind::kRParen) {
      CelFail(Peek().column, function.text + "() takes one string literal");
    }
    Take();
    CelNode n;
    n.column = function.column;
    std::string why;
    if (function.text == "quantity") {
      const std::optional<int64_t> q = ParseQuantity(arg.text, &why);
      if (!q) CelFail(arg.column, "quantity(): " + why);
      n.op = CelOp::kQuantity;
      n.type = CelType::kQuantity;
      n.int_value = *q;
    } else {
      const std::optional<Semver> v = ParseSemver(arg.text, &why);
      if (!v) CelFail(arg.column, "semver(): " + why);
      n.op = CelOp::kSemver;
      n.type = CelType::kSemver;
      n.semver = *v;
    }
    return Add(std::move(n));
  }

  // After `device`: .driver, .attributes[D](.NAME|["NAME"])?, .capacity...
  int ParseDevice(const CelToken& device) {
    if (Peek().kind != CelTokenKind::kDot) {
      CelFail(device.column,
              "device is an object; use device.driver, "
              "device.attributes[\"DOMAIN\"].NAME or "
              "device.capacity[\"DOMAIN\"].NAME");
    }
    Take();
    const CelToken& field = Peek();
    if (field.kind != CelTokenKind::kIdent) {
      CelFail(field.column, "expected a name after 'device.'");
    }
    Take();
    CelNode n;
    n.column = device.column;
    if (field.text == "driver") {
      n.op = CelOp::kDriver;
      n.type = CelType::kString;
      return Add(std::move(n));
    }
    if (field.text == "allowMultipleAllocations") {
      n.op = CelOp::kAllowMultiple;
      n.type = CelType::kBool;
      return Add(std::move(n));
    }
    const bool attributes = field.text == "attributes";
    if (!attributes && field.text != "capacity") {
      CelFail(field.column, "device has no field " + QuoteValue(field.text) +
                                " (it has driver, allowMultipleAllocations, "
                                "attributes and capacity)");
    }
    if (Peek().kind != CelTokenKind::kLBracket) {
      CelFailUnsupported(
          Peek().column,
          "device." + field.text + " without [\"DOMAIN\"] right after it");
    }
    Take();
    if (Peek().kind != CelTokenKind::kString) {
      CelFail(Peek().column, "the domain in device." + field.text +
                                 "[...] must be a string literal");
    }
    n.domain = Take().text;
    Expect(CelTokenKind::kRBracket, "']'");
    if (Peek().kind == CelTokenKind::kDot &&
        PeekAt(1).kind == CelTokenKind::kIdent &&
        PeekAt(2).kind != CelTokenKind::kLParen) {
      Take();
      n.text = Take().text;
    } else if (Peek().kind == CelTokenKind::kLBracket) {
      Take();
      if (Peek().kind != CelTokenKind::kString) {
        CelFail(Peek().column, "the name in device." + field.text +
                                   "[\"DOMAIN\"][...] must be a string "
                                   "literal");
      }
      n.text = Take().text;
      Expect(CelTokenKind::kRBracket, "']'");
    } else {
      n.op = attributes ? CelOp::kAttributeMap : CelOp::kCapacityMap;
      n.type = CelType::kMap;
      return Add(std::move(n));
    }
    n.op = attributes ? CelOp::kAttribute : CelOp::kCapacity;
    n.type = attributes ? CelType::kDyn : CelType::kQuantity;
    return Add(std::move(n));
  }

  std::vector<CelToken> tokens_;
  size_t pos_ = 0;
  CelAst& ast_;
};

}  // namespace

bool ParseCelSelector(std::string_view expression, CelAst& ast,
                      CelCompileError* error) {
  std::vector<CelToken> tokens;
  if (!TokenizeCel(expression, tokens, error)) return false;
  try {
    CelParser parser(std::move(tokens), ast);
    parser.ParseAll();
  } catch (const CelParseFailure& failure) {
    if (error != nullptr) {
      error->column = failure.column;
      error->message = failure.message;
    }
    ast = CelAst();
    return false;
  }
  return true;
}

}  // namespace gpushare
