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
//
// yaml-cpp 0.7 reads a JSON string's UTF-16 surrogate-pair escape
// (`"\ud83d\ude00"`, RFC 8259 section 7, how kubectl escapes characters
// above U+FFFF) as two code points and refuses each ("invalid unicode:
// 55357"). JsonTextForYamlCpp() rewrites every such pair of checked text
// into YAML's 8-digit escape (`\U0001F600`), padding with spaces after the
// string (after its `:` when it is a key) so that every later value keeps
// its line and column.

#ifndef GPUSHARE_IO_JSON_SYNTAX_H_
#define GPUSHARE_IO_JSON_SYNTAX_H_

#include <string>

namespace gpushare {

inline constexpr int kMaxJsonDepth = 256;

void CheckJsonSyntax(const std::string& file, const std::string& text);

// `text` (accepted by CheckJsonSyntax) with its surrogate-pair escapes
// rewritten for yaml-cpp; `text` itself when it has none.
std::string JsonTextForYamlCpp(const std::string& text);

}  // namespace gpushare

#endif  // GPUSHARE_IO_JSON_SYNTAX_H_
