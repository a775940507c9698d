// Strict JSON syntax check of a `kubectl get -o json` document before it is
// read.
//
// Contract: CheckJsonSyntax() accepts exactly RFC 8259 JSON (what kubectl
// writes) nested at most kMaxJsonDepth deep, and throws InputError
// "FILE:LINE:COL: invalid JSON: ..." at the first byte that is not, naming
// what was expected. The documents are then read through yaml-cpp
// (json_value.h) for its line and column marks; yaml-cpp's parser recurses
// per level and can loop on some malformed flow text, so only checked text
// reaches it.

#ifndef GPUSHARE_IO_JSON_SYNTAX_H_
#define GPUSHARE_IO_JSON_SYNTAX_H_

#include <string>

namespace gpushare {

inline constexpr int kMaxJsonDepth = 256;

void CheckJsonSyntax(const std::string& file, const std::string& text);

}  // namespace gpushare

#endif  // GPUSHARE_IO_JSON_SYNTAX_H_
