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
//
// A caller may bound arrays by where they are (JsonArrayLimit): an array
// whose path ends with `path` (member names; "[]" for "an element of an
// array") holding more than `max` elements is an InputError at its `[`,
// "FILE:LINE:COL: PATH: more than MAX WHAT", found in the syntax pass, before
// a node is built: an API limit (32 requests in a ResourceClaim) then
// refuses a huge array in the time it takes to scan it.

#ifndef GPUSHARE_IO_JSON_SYNTAX_H_
#define GPUSHARE_IO_JSON_SYNTAX_H_

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

inline constexpr int kMaxJsonDepth = 256;

struct JsonArrayLimit {
  std::vector<std::string_view> path;  // {"spec", "devices", "requests"}
  size_t max = 0;
  std::string_view what;  // "requests (the API's DeviceRequestsMaxSize)"
};

void CheckJsonSyntax(const std::string& file, const std::string& text,
                     std::span<const JsonArrayLimit> limits = {});

// `text` (accepted by CheckJsonSyntax) with its surrogate-pair escapes
// rewritten for yaml-cpp; `text` itself when it has none.
std::string JsonTextForYamlCpp(const std::string& text);

}  // namespace gpushare

#endif  // GPUSHARE_IO_JSON_SYNTAX_H_
