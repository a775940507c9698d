// Bounded, printable echoes of user values in error messages.
//
// Contract: an error message may quote what the user wrote, but never all
// of a 100 MB value and never a raw control byte (a terminal escape in a
// name would reach stderr). QuoteValue() writes at most kMaxQuotedBytes
// bytes of the value in single quotes, cut at a UTF-8 character boundary,
// with "…" and the value's whole length after the quote when it was cut;
// C0 controls (tab and LF included), DEL and C1 controls (U+0080..U+009F)
// are written as \xNN or \uNNNN and an ill-formed UTF-8 byte as \xNN, so
// the echo is one line of printable UTF-8. CapErrorMessage() bounds a whole
// message (InputError applies it to every message) at kMaxErrorMessageBytes.

#ifndef GPUSHARE_IO_QUOTE_H_
#define GPUSHARE_IO_QUOTE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace gpushare {

// At most this many bytes of a value are echoed in an error message.
inline constexpr size_t kMaxQuotedBytes = 64;
// An error message (location included) is cut at this many bytes.
inline constexpr size_t kMaxErrorMessageBytes = 4096;

// 'value', or 'first 64 bytes…' (N bytes) when the value is longer; control
// characters and ill-formed bytes escaped.
std::string QuoteValue(std::string_view value);

// The same without the quotes, for numbers and names shown bare.
std::string ShortValue(std::string_view value);

// `message` when it is at most kMaxErrorMessageBytes bytes; else its first
// bytes up to a UTF-8 character boundary and "… (N bytes in all)".
std::string CapErrorMessage(std::string message);

}  // namespace gpushare

#endif  // GPUSHARE_IO_QUOTE_H_
