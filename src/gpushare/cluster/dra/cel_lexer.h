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
// its column. Never throws; whitespace and `//` comments are skipped.

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
