#include "gpushare/cluster/quantity.h"

#include <fmt/format.h>

#include <limits>

namespace gpushare {
namespace {

constexpr int kMaxDigits = 36;      // int128 holds 38
constexpr int kMaxExponent = 1000;  // |decimal exponent| accepted
// Products stay below this so that one more factor of 10 cannot overflow.
constexpr QuantityInt kLimit = static_cast<QuantityInt>(1) << 120;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// v *= base^power, false on overflow past kLimit.
bool MulPow(QuantityInt* v, int base, int power) {
  for (int i = 0; i < power; ++i) {
    if (*v > kLimit / base) return false;
    *v *= base;
  }
  return true;
}

}  // namespace

bool Quantity::Parse(std::string_view text, Quantity* q, std::string* error) {
  *q = Quantity();
  size_t i = 0;
  auto fail = [&](const std::string& why) {
    *error = fmt::format(
        "'{}' is not a Kubernetes quantity ({}; e.g. 500m, 2, 1.5, 16Gi, "
        "1e3, 2k)",
        text, why);
    return false;
  };
  if (text.empty()) return fail("empty");
  if (text[i] == '+' || text[i] == '-') {
    q->negative_ = text[i] == '-';
    ++i;
  }
  int digits = 0;
  int fraction_digits = 0;
  bool seen_dot = false;
  bool any_digit = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (seen_dot) return fail("two decimal points");
      seen_dot = true;
      continue;
    }
    if (!IsDigit(c)) break;
    any_digit = true;
    if (q->mantissa_ == 0 && c == '0') {
      if (seen_dot) ++fraction_digits;
      continue;  // leading zeros
    }
    if (++digits > kMaxDigits) return fail("too many digits");
    q->mantissa_ = q->mantissa_ * 10 + (c - '0');
    if (seen_dot) ++fraction_digits;
  }
  if (!any_digit) return fail("no digits");
  q->exp10_ = -fraction_digits;
  const std::string_view suffix = text.substr(i);
  struct Suffix {
    std::string_view name;
    int exp10;
    int exp2;
  };
  static constexpr Suffix kSuffixes[] = {
      {"Ki", 0, 10}, {"Mi", 0, 20}, {"Gi", 0, 30}, {"Ti", 0, 40},
      {"Pi", 0, 50}, {"Ei", 0, 60}, {"n", -9, 0},  {"u", -6, 0},
      {"m", -3, 0},  {"", 0, 0},    {"k", 3, 0},   {"M", 6, 0},
      {"G", 9, 0},   {"T", 12, 0},  {"P", 15, 0},  {"E", 18, 0},
  };
  for (const Suffix& s : kSuffixes) {
    if (suffix == s.name) {
      q->exp10_ += s.exp10;
      q->exp2_ += s.exp2;
      if (q->mantissa_ == 0) q->negative_ = false;
      return true;
    }
  }
  if (suffix[0] == 'e' || suffix[0] == 'E') {
    size_t j = 1;
    bool negative = false;
    if (j < suffix.size() && (suffix[j] == '+' || suffix[j] == '-')) {
      negative = suffix[j] == '-';
      ++j;
    }
    if (j == suffix.size()) return fail("exponent without digits");
    int exponent = 0;
    for (; j < suffix.size(); ++j) {
      if (!IsDigit(suffix[j])) return fail("bad exponent");
      exponent = exponent * 10 + (suffix[j] - '0');
      if (exponent > kMaxExponent) return fail("exponent out of range");
    }
    q->exp10_ += negative ? -exponent : exponent;
    if (q->mantissa_ == 0) q->negative_ = false;
    return true;
  }
  return fail("unknown suffix '" + std::string(suffix) + "'");
}

bool Quantity::CeilIn(int unit_exp10, int unit_exp2, int64_t* out,
                      bool* exact) const {
  if (exact != nullptr) *exact = true;
  if (mantissa_ == 0) {
    *out = 0;
    return true;
  }
  QuantityInt num = mantissa_;
  QuantityInt den = 1;
  const int a = exp10_ - unit_exp10;
  const int b = exp2_ - unit_exp2;
  if (a > 0 && !MulPow(&num, 10, a)) return false;
  if (b > 0 && !MulPow(&num, 2, b)) return false;
  bool tiny = false;  // the denominator dwarfs the numerator
  if (a < 0) tiny = tiny || !MulPow(&den, 10, -a);
  if (b < 0) tiny = tiny || !MulPow(&den, 2, -b);
  QuantityInt result;
  if (tiny) {
    result = negative_ ? 0 : 1;  // 0 < |value| < 1 unit
    if (exact != nullptr) *exact = false;
  } else {
    const QuantityInt quotient = num / den;
    const bool whole = quotient * den == num;
    result = negative_ ? -quotient : quotient + (whole ? 0 : 1);
    if (exact != nullptr) *exact = whole;
  }
  if (result > std::numeric_limits<int64_t>::max() ||
      result < std::numeric_limits<int64_t>::min()) {
    return false;
  }
  *out = static_cast<int64_t>(result);
  return true;
}

bool QuantityInUnitsOf(const Quantity& q, std::string_view resource,
                       int64_t* out) {
  if (resource == "cpu") return q.MilliValue(out);
  if (resource == "memory") return q.Mebibytes(out);
  return q.Value(out);
}

}  // namespace gpushare
