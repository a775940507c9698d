#include "gpushare/cluster/dra/cel_lexer.h"

#include <limits>

#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

bool IsCelIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool IsCelDigit(char c) { return c >= '0' && c <= '9'; }

bool CelLexFail(CelCompileError* error, size_t pos, std::string message) {
  if (error != nullptr) {
    error->column = static_cast<int>(pos) + 1;
    error->message = std::move(message);
  }
  return false;
}

}  // namespace

bool TokenizeCel(std::string_view expression, std::vector<CelToken>& tokens,
                 CelCompileError* error) {
  tokens.clear();
  const std::string_view e = expression;
  size_t i = 0;
  auto push = [&](CelTokenKind kind, size_t start, size_t length) {
    CelToken t;
    t.kind = kind;
    t.column = static_cast<int>(start) + 1;
    t.text = std::string(e.substr(start, length));
    tokens.push_back(std::move(t));
    i = start + length;
  };
  while (i < e.size()) {
    const char c = e[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < e.size() && e[i + 1] == '/') {
      while (i < e.size() && e[i] != '\n') ++i;
      continue;
    }
    const char next = i + 1 < e.size() ? e[i + 1] : '\0';
    if (IsCelIdentStart(c)) {
      size_t end = i + 1;
      while (end < e.size() &&
             (IsCelIdentStart(e[end]) || IsCelDigit(e[end]))) {
        ++end;
      }
      if (end < e.size() && (e[end] == '"' || e[end] == '\'') && end - i == 1) {
        return CelLexFail(error, i,
                          "raw and bytes string literals are not supported");
      }
      push(CelTokenKind::kIdent, i, end - i);
      continue;
    }
    if (IsCelDigit(c)) {
      if (c == '0' && (next == 'x' || next == 'X')) {
        return CelLexFail(error, i, "hexadecimal literals are not supported");
      }
      size_t end = i;
      int64_t value = 0;
      bool overflow = false;
      while (end < e.size() && IsCelDigit(e[end])) {
        const int digit = e[end] - '0';
        if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
          overflow = true;
        } else {
          value = value * 10 + digit;
        }
        ++end;
      }
      if (end < e.size() && (e[end] == '.' || e[end] == 'e' || e[end] == 'E')) {
        return CelLexFail(error, i,
                          "floating-point literals are not supported (use "
                          "integers, or quantity(\"...\") for amounts)");
      }
      if (end < e.size() && (e[end] == 'u' || e[end] == 'U')) {
        return CelLexFail(error, i, "unsigned literals are not supported");
      }
      // 2^63 is the magnitude of int64's minimum: a literal of its own only
      // after a '-'.
      const bool min_magnitude =
          overflow && e.substr(i, end - i) == "9223372036854775808" &&
          !tokens.empty() && tokens.back().kind == CelTokenKind::kMinus;
      if (overflow && !min_magnitude) {
        return CelLexFail(error, i, "integer literal out of the int64 range");
      }
      push(CelTokenKind::kInt, i, end - i);
      tokens.back().int_value = min_magnitude ? 0 : value;
      tokens.back().int64_min_magnitude = min_magnitude;
      continue;
    }
    if (c == '"' || c == '\'') {
      if (next == c && i + 2 < e.size() && e[i + 2] == c) {
        return CelLexFail(error, i, "triple-quoted strings are not supported");
      }
      std::string value;
      size_t end = i + 1;
      while (true) {
        if (end >= e.size() || e[end] == '\n') {
          return CelLexFail(error, i, "unterminated string literal");
        }
        const char s = e[end];
        if (s == c) break;
        if (s == '\\') {
          const char x = end + 1 < e.size() ? e[end + 1] : '\0';
          switch (x) {
            case '\\':
            case '\'':
            case '"':
              value.push_back(x);
              break;
            case 'n':
              value.push_back('\n');
              break;
            case 'r':
              value.push_back('\r');
              break;
            case 't':
              value.push_back('\t');
              break;
            default:
              return CelLexFail(error, end,
                                "escape " + QuoteValue(e.substr(end, 2)) +
                                    " is not supported (only \\\\ \\' \\\" "
                                    "\\n \\r \\t)");
          }
          end += 2;
          continue;
        }
        value.push_back(s);
        ++end;
      }
      push(CelTokenKind::kString, i, end + 1 - i);
      tokens.back().text = std::move(value);
      continue;
    }
    switch (c) {
      case '(':
        push(CelTokenKind::kLParen, i, 1);
        continue;
      case ')':
        push(CelTokenKind::kRParen, i, 1);
        continue;
      case '[':
        push(CelTokenKind::kLBracket, i, 1);
        continue;
      case ']':
        push(CelTokenKind::kRBracket, i, 1);
        continue;
      case ',':
        push(CelTokenKind::kComma, i, 1);
        continue;
      case '.':
        if (IsCelDigit(next)) {
          return CelLexFail(error, i,
                            "floating-point literals are not supported");
        }
        push(CelTokenKind::kDot, i, 1);
        continue;
      case '=':
        if (next == '=') {
          push(CelTokenKind::kEq, i, 2);
          continue;
        }
        return CelLexFail(error, i, "'=' is not an operator (use '==')");
      case '!':
        if (next == '=') {
          push(CelTokenKind::kNe, i, 2);
        } else {
          push(CelTokenKind::kNot, i, 1);
        }
        continue;
      case '<':
        push(next == '=' ? CelTokenKind::kLe : CelTokenKind::kLt, i,
             next == '=' ? 2 : 1);
        continue;
      case '>':
        push(next == '=' ? CelTokenKind::kGe : CelTokenKind::kGt, i,
             next == '=' ? 2 : 1);
        continue;
      case '&':
        if (next == '&') {
          push(CelTokenKind::kAnd, i, 2);
          continue;
        }
        return CelLexFail(error, i, "'&' is not an operator (use '&&')");
      case '|':
        if (next == '|') {
          push(CelTokenKind::kOr, i, 2);
          continue;
        }
        return CelLexFail(error, i, "'|' is not an operator (use '||')");
      case '-':
        push(CelTokenKind::kMinus, i, 1);
        continue;
      case '+':
      case '*':
      case '/':
      case '%':
        push(CelTokenKind::kArithmetic, i, 1);
        continue;
      case '?':
        push(CelTokenKind::kQuestion, i, 1);
        continue;
      case ':':
        push(CelTokenKind::kColon, i, 1);
        continue;
      case '{':
      case '}':
        push(CelTokenKind::kBrace, i, 1);
        continue;
      default:
        return CelLexFail(error, i,
                          "unexpected character " + QuoteValue(e.substr(i, 1)));
    }
  }
  CelToken end;
  end.kind = CelTokenKind::kEnd;
  end.column = static_cast<int>(e.size()) + 1;
  tokens.push_back(std::move(end));
  return true;
}

}  // namespace gpushare
