// The tokens of a CEL selector expression (the lexical part of the subset
// cel_selector.h documents).
//
// Contract: TokenizeCel() splits an expression into identifiers, decimal
// int literals, string literals (single or double quotes; escapes \\ \' \"
// \n \r \t), punctuation and operators, each with its 1-based byte column.
// Operators CEL has but the subset does not (+ - * / % ? : { }) are tokens
// too, so the parser can name them; what CEL itself would refuse, and CEL
// lexemes outside the subset (floating-point, unsigned and hex literals,
// bytes, raw and triple-quoted strings, other escapes), is an error with
// its column. An int literal above 2^63-1 is out of range, except 2^63
// right after a '-' (CEL reads `-9223372036854775808` as one literal; the
// parser takes it only there). Never throws; whitespace and `//` comments are skipped.

#ifndef GPUSHARE_CLUSTER_DRA_CEL_LEXER_H_
#define GPUSHARE_CLUSTER_DRA_CEL_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

enum class CelTokenKind {
  kEnd,
  kIdent,
  kInt,
  kString,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kDot,
  kEq,          // ==
  kNe,          // !=
  kLt,          // <
  kLe,          // <=
  kGt,          // >
  kGe,          // >=
  kAnd,         // &&
  kOr,          // ||
  kNot,         // !
  kMinus,       // -
  kArithmetic,  // + * / %
  kQuestion,    // ?
  kColon,       // :
  kBrace,       // { }
};

struct CelToken {
  CelTokenKind kind = CelTokenKind::kEnd;
  int column = 0;    // 1-based byte column of the first character
  std::string text;  // identifier, decoded string, or the lexeme
  int64_t int_value = 0;
  // kInt 9223372036854775808 (2^63, int_value 0): valid only as the operand
  // of a unary '-', where it is CEL's smallest int64 (-2^63).
  bool int64_min_magnitude = false;
};

// A lexical error: where, and what.
struct CelCompileError {
  int column = 0;  // 1-based, in the expression
  std::string message;
};

// The tokens of `expression`, ending with one kEnd token; false with
// `*error` set on a lexical error.
bool TokenizeCel(std::string_view expression, std::vector<CelToken>& tokens,
                 CelCompileError* error);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CEL_LEXER_H_
