#include "gpushare/cluster/dra/quantity.h"

#include <array>
#include <limits>

#include "gpushare/io/check.h"
#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

struct QuantitySuffix {
  std::string_view text;
  int64_t multiplier;
};

constexpr int64_t kKi = 1024;
constexpr std::array<QuantitySuffix, 12> kQuantitySuffixes = {{
    {"Ki", kKi},
    {"Mi", kKi* kKi},
    {"Gi", kKi* kKi* kKi},
    {"Ti", kKi* kKi* kKi* kKi},
    {"Pi", kKi* kKi* kKi* kKi* kKi},
    {"Ei", kKi* kKi* kKi* kKi* kKi* kKi},
    {"k", 1000},
    {"M", 1000'000},
    {"G", 1000'000'000},
    {"T", 1000'000'000'000},
    {"P", 1000'000'000'000'000},
    {"E", 1000'000'000'000'000'000},
}};

__extension__ typedef __int128 QuantityInt128;

bool IsQuantityDigit(char c) { return c >= '0' && c <= '9'; }

std::optional<int64_t> RefuseQuantity(std::string* why_not,
                                      std::string message) {
  if (why_not != nullptr) *why_not = std::move(message);
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> ParseQuantity(std::string_view text,
                                     std::string* why_not) {
  const std::string quoted = QuoteValue(text);
  if (text.empty()) return RefuseQuantity(why_not, "empty quantity");
  if (text[0] == '+' || text[0] == '-') {
    return RefuseQuantity(why_not, quoted +
                                       " has a sign (expected a "
                                       "non-negative quantity)");
  }
  size_t pos = 0;
  while (pos < text.size() && IsQuantityDigit(text[pos])) ++pos;
  const std::string_view whole = text.substr(0, pos);
  std::string_view fraction;
  if (pos < text.size() && text[pos] == '.') {
    const size_t start = ++pos;
    while (pos < text.size() && IsQuantityDigit(text[pos])) ++pos;
    fraction = text.substr(start, pos - start);
  }
  if (whole.empty() && fraction.empty()) {
    return RefuseQuantity(why_not,
                          quoted +
                              " does not start with a number (expected "
                              "digits and a suffix, such as 40Gi)");
  }
  const std::string_view suffix = text.substr(pos);
  int64_t multiplier = 1;
  if (!suffix.empty()) {
    if (suffix == "m") {
      return RefuseQuantity(why_not, quoted +
                                         ": milli-units are not whole "
                                         "numbers of units");
    }
    if (suffix[0] == 'e' || suffix[0] == 'E') {
      bool exponent = suffix.size() > 1;
      for (size_t i = 1; i < suffix.size(); ++i) {
        exponent = exponent &&
                   (IsQuantityDigit(suffix[i]) || (i == 1 && suffix[i] == '-'));
      }
      if (exponent) {
        return RefuseQuantity(why_not, quoted +
                                           ": exponents are not "
                                           "supported (write 1k or 1000)");
      }
    }
    bool known = false;
    for (const QuantitySuffix& s : kQuantitySuffixes) {
      if (s.text == suffix) {
        multiplier = s.multiplier;
        known = true;
      }
    }
    if (!known) {
      return RefuseQuantity(why_not, quoted + " has an unknown suffix " +
                                         QuoteValue(suffix) +
                                         " (expected Ki Mi Gi Ti Pi Ei or k "
                                         "M G T P E)");
    }
  }
  // value = (whole + fraction / 10^n) * multiplier, exactly, in 128 bits.
  constexpr QuantityInt128 kLimit = std::numeric_limits<int64_t>::max();
  QuantityInt128 numerator = 0;
  QuantityInt128 denominator = 1;
  for (const char c : whole) {
    numerator = numerator * 10 + (c - '0');
    if (numerator > kLimit) break;
  }
  for (const char c : fraction) {
    if (numerator > kLimit || denominator > kLimit) break;
    numerator = numerator * 10 + (c - '0');
    denominator *= 10;
  }
  if (numerator > kLimit || denominator > kLimit) {
    return RefuseQuantity(why_not,
                          quoted + " is too large (at most 2^63-1 units)");
  }
  const QuantityInt128 scaled = numerator * multiplier;
  if (scaled % denominator != 0) {
    return RefuseQuantity(why_not, quoted + " is not a whole number of units");
  }
  const QuantityInt128 value = scaled / denominator;
  if (value > kLimit) {
    return RefuseQuantity(why_not,
                          quoted + " is too large (at most 2^63-1 units)");
  }
  return static_cast<int64_t>(value);
}

std::string FormatQuantity(int64_t value) {
  GS_CHECK(value >= 0, "a negative quantity");
  if (value == 0) return "0";
  for (int i = 5; i >= 0; --i) {
    const QuantitySuffix& s = kQuantitySuffixes[static_cast<size_t>(i)];
    if (value % s.multiplier == 0) {
      return std::to_string(value / s.multiplier) + std::string(s.text);
    }
  }
  return std::to_string(value);
}

}  // namespace gpushare
