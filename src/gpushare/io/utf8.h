// UTF-8 validation of user input text.
//
// Contract: names read from a user's files (a scenario, a pod, a node, a
// class) end up in JSON, CSV, HTML and OpenMetrics output, all of which are
// UTF-8. Every reader of a text file checks it here first, so a file that is
// not UTF-8 is an InputError at the line and column (1-based, in bytes) of
// its first ill-formed byte rather than an abort when the report is written.
// Well-formed means RFC 3629: no overlong forms, no surrogates (U+D800..
// U+DFFF), nothing above U+10FFFF. A leading byte-order mark is well-formed
// (the YAML and CSV readers skip it). C0 control characters other than tab,
// LF and CR are refused too: YAML and JSON text cannot hold them raw, and
// yaml-cpp loops on some (a NUL found by the fuzzers).
//
// Strings read from a file (after YAML or JSON escapes are decoded, so
// "\x1b" and "\u0000" count) must not hold a control character at all:
// C0 (U+0000..U+001F, tab and LF included), DEL (U+007F) or C1 (U+0080..
// U+009F). They would reach a terminal, HTML, OpenMetrics labels and CSV
// cells raw. FindControlCodePoint() finds one; the readers refuse it with
// ControlCharacterMessage(). The one exception is text that is only parsed
// and never reaches an output, a terminal, a file name or a script: a CEL
// selector expression (json_value.h MultilineString()) may hold tab, LF
// and CR, which CEL reads as whitespace.

#ifndef GPUSHARE_IO_UTF8_H_
#define GPUSHARE_IO_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpushare {

// The code point of the UTF-8 sequence at the start of `text` (not empty)
// and its length in bytes; {-1, 1} when that sequence is ill-formed
// (RFC 3629, as FindInvalidUtf8 judges it).
struct Utf8CodePoint {
  int32_t value;
  size_t size;
};
Utf8CodePoint DecodeUtf8(std::string_view text);

// Whether `c` is a C0 (U+0000..U+001F), DEL (U+007F) or C1 (U+0080..U+009F)
// control character.
bool IsControlCodePoint(int32_t c);

// The byte offset of the first ill-formed sequence in `text`, or
// std::string_view::npos when all of it is well-formed UTF-8.
size_t FindInvalidUtf8(std::string_view text);

// The byte offset of the first C0 control character other than tab, LF and
// CR in `text`, or std::string_view::npos.
size_t FindControlCharacter(std::string_view text);

// The byte offset of the first C0, DEL or C1 control character in `value`
// (well-formed UTF-8), or std::string_view::npos; `*code_point` is set to it.
size_t FindControlCodePoint(std::string_view value, char32_t* code_point);

// The same, tab, LF and CR excepted: for a multi-line text that is only
// parsed, never written out (a CEL expression).
size_t FindNonWhitespaceControlCodePoint(std::string_view value,
                                         char32_t* code_point);

// "control character U+001B in 'a\x1B[31m'; ..." for a string holding the
// code point (the value quoted with quote.h's QuoteValue()).
std::string ControlCharacterMessage(std::string_view value,
                                    char32_t code_point);

// Throws InputError "FILE:LINE:COL: invalid UTF-8 (byte 0xNN); ..." at the
// first ill-formed byte of `text`, read from `file`, or "...: control
// character 0xNN; ..." at the first control character, whichever is first.
void CheckUtf8(const std::string& file, std::string_view text);

}  // namespace gpushare

#endif  // GPUSHARE_IO_UTF8_H_
