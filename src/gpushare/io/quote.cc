#include "gpushare/io/quote.h"

#include <cstdint>

#include <fmt/format.h>

#include "gpushare/io/utf8.h"

namespace gpushare {
namespace {

// The length of the UTF-8 sequence that starts with `lead`, as its lead byte
// says (1 for ASCII and for bytes that cannot start one).
size_t QuoteLeadLength(uint8_t lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 1;
}

// Appends `value` with control characters and ill-formed bytes escaped,
// stopping before `limit` bytes of the value are passed; returns how many
// bytes of the value were written.
size_t AppendEscaped(std::string_view value, size_t limit, std::string* out) {
  size_t at = 0;
  while (at < value.size()) {
    const uint8_t byte = static_cast<uint8_t>(value[at]);
    size_t length = QuoteLeadLength(byte);
    if (at + length > limit) break;
    if (length > 1 &&
        (at + length > value.size() ||
         FindInvalidUtf8(value.substr(at, length)) != std::string_view::npos)) {
      length = 1;  // an ill-formed byte
    }
    if (length == 1 && (byte < 0x20 || byte >= 0x7F)) {
      *out += fmt::format("\\x{:02X}", byte);
    } else if (length == 2 && byte == 0xC2 &&
               static_cast<uint8_t>(value[at + 1]) <= 0x9F) {
      *out += fmt::format("\\u{:04X}", static_cast<uint8_t>(value[at + 1]));
    } else {
      out->append(value.substr(at, length));
    }
    at += length;
  }
  return at;
}

std::string BoundedEcho(std::string_view value, bool quoted) {
  std::string out;
  if (quoted) out += '\'';
  const size_t written = AppendEscaped(value, kMaxQuotedBytes, &out);
  if (written < value.size()) out += "\u2026";
  if (quoted) out += '\'';
  if (written < value.size()) out += fmt::format(" ({} bytes)", value.size());
  return out;
}

}  // namespace

std::string QuoteValue(std::string_view value) {
  return BoundedEcho(value, true);
}

std::string ShortValue(std::string_view value) {
  return BoundedEcho(value, false);
}

std::string CapErrorMessage(std::string message) {
  if (message.size() <= kMaxErrorMessageBytes) return message;
  const size_t total = message.size();
  size_t cut = kMaxErrorMessageBytes;
  // Back to the start of a character: continuation bytes are 10xxxxxx.
  while (cut > 0 && (static_cast<uint8_t>(message[cut]) & 0xC0) == 0x80) --cut;
  message.resize(cut);
  message += fmt::format("\u2026 ({} bytes in all)", total);
  return message;
}

}  // namespace gpushare
