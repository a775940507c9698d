#include "gpushare/io/utf8.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "gpushare/io/input_error.h"
#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

// The length of the well-formed sequence starting at `at`, or 0.
size_t SequenceLength(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) {
    return static_cast<uint8_t>(text[at + i]);
  };
  const uint8_t lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint8_t low = 0x80, high = 0xBF;  // bounds of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

Utf8CodePoint DecodeUtf8(std::string_view text) {
  const size_t length = SequenceLength(text, 0);
  if (length == 0) return {-1, 1};
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  if (length == 1) return {byte(0), 1};
  int32_t value = byte(0) & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) value = (value << 6) | (byte(i) & 0x3F);
  return {value, length};
}

bool IsControlCodePoint(int32_t c) {
  return (c >= 0 && c < 0x20) || (c >= 0x7F && c <= 0x9F);
}

size_t FindInvalidUtf8(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    // ASCII runs are the common case.
    if (static_cast<uint8_t>(text[at]) < 0x80) {
      ++at;
      continue;
    }
    const size_t length = SequenceLength(text, at);
    if (length == 0) return at;
    at += length;
  }
  return std::string_view::npos;
}

size_t FindControlCharacter(std::string_view text) {
  for (size_t at = 0; at < text.size(); ++at) {
    const uint8_t c = static_cast<uint8_t>(text[at]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return at;
  }
  return std::string_view::npos;
}

size_t FindControlCodePoint(std::string_view value, char32_t* code_point) {
  for (size_t at = 0; at < value.size(); ++at) {
    const uint8_t c = static_cast<uint8_t>(value[at]);
    if (c < 0x20 || c == 0x7F) {
      *code_point = c;
      return at;
    }
    // C1: U+0080..U+009F is C2 80..C2 9F in UTF-8.
    if (c == 0xC2 && at + 1 < value.size() &&
        static_cast<uint8_t>(value[at + 1]) >= 0x80 &&
        static_cast<uint8_t>(value[at + 1]) <= 0x9F) {
      *code_point = static_cast<uint8_t>(value[at + 1]);
      return at;
    }
  }
  return std::string_view::npos;
}

size_t FindNonWhitespaceControlCodePoint(std::string_view value,
                                         char32_t* code_point) {
  size_t from = 0;
  while (from < value.size()) {
    const size_t at = FindControlCodePoint(value.substr(from), code_point);
    if (at == std::string_view::npos) return at;
    if (*code_point != '\t' && *code_point != '\n' && *code_point != '\r') {
      return from + at;
    }
    from += at + 1;
  }
  return std::string_view::npos;
}

std::string ControlCharacterMessage(std::string_view value,
                                    char32_t code_point) {
  return fmt::format(
      "control character U+{:04X} in {}; names and values must not hold "
      "control characters (C0, DEL, C1), escaped or not",
      static_cast<uint32_t>(code_point), QuoteValue(value));
}

void CheckUtf8(const std::string& file, std::string_view text) {
  const size_t invalid = FindInvalidUtf8(text);
  const size_t control = FindControlCharacter(text);
  const size_t bad = std::min(invalid, control);
  if (bad == std::string_view::npos) return;
  const std::string_view before = text.substr(0, bad);
  const int line =
      1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const int column = static_cast<int>(
      line_start == std::string_view::npos ? bad + 1 : bad - line_start);
  const uint8_t byte = static_cast<uint8_t>(text[bad]);
  throw InputError(
      file, line, column,
      bad == control
          ? fmt::format("control character 0x{:02X}; input files must be "
                        "text (tab, LF and CR are the only control "
                        "characters allowed)",
                        byte)
          : fmt::format("invalid UTF-8 (byte 0x{:02X}); input files must be "
                        "UTF-8 text",
                        byte));
}

}  // namespace gpushare
