// Parsing and type-checking a CEL selector into a CelAst (cel_ast.h).
//
// Contract: ParseCelSelector() accepts exactly the subset cel_selector.h
// documents and fills `ast`; anything else — a syntax error, a construct
// outside the subset, or a static type error CEL's own checker would report
// (comparing a string with an int, `<` on quantities, a non-boolean
// selector) — returns false with `*error` naming the 1-based column in the
// expression and what is wrong; errors about constructs outside the subset
// list what is supported. Nesting deeper than kMaxCelDepth is refused, so a
// hostile expression cannot exhaust the stack. Never throws.

#ifndef GPUSHARE_CLUSTER_DRA_CEL_PARSER_H_
#define GPUSHARE_CLUSTER_DRA_CEL_PARSER_H_

#include <string_view>

#include "gpushare/cluster/dra/cel_ast.h"
#include "gpushare/cluster/dra/cel_lexer.h"

namespace gpushare {

inline constexpr int kMaxCelDepth = 64;

// What the subset has, for error messages.
inline constexpr const char* kCelSubsetSummary =
    "the supported subset is device.driver, device.attributes[\"DOMAIN\"]"
    ".NAME, device.capacity[\"DOMAIN\"].NAME, \"NAME\" in "
    "device.attributes[\"DOMAIN\"], string/int/bool literals, [list "
    "literals], quantity(\"40Gi\"), semver(\"1.2.3\"), .compareTo() "
    ".isGreaterThan() .isLessThan(), == != < <= > >= in && || ! and "
    "parentheses";

bool ParseCelSelector(std::string_view expression, CelAst& ast,
                      CelCompileError* error);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CEL_PARSER_H_
