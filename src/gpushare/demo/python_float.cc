#include "gpushare/demo/python_float.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "gpushare/io/check.h"

namespace gpushare {
namespace {

// CPython's NDIGITS_MAX: beyond this many decimals every double is exact.
constexpr int kMaxRoundDigits = 323;

// Enough for DBL_MAX in fixed notation with kMaxRoundDigits decimals.
using FixedBuffer = std::array<char, 1024>;

// Writes x in fixed notation with `precision` decimals; returns the length.
size_t ToFixed(double x, int precision, FixedBuffer& buffer) {
  const std::to_chars_result result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), x,
                    std::chars_format::fixed, precision);
  GS_CHECK(result.ec == std::errc(), "fixed-point buffer too small");
  return static_cast<size_t>(result.ptr - buffer.data());
}

}  // namespace

double PythonRound(double x, int ndigits) {
  GS_CHECK(ndigits >= 0, "negative ndigits are not supported");
  if (!std::isfinite(x) || ndigits > kMaxRoundDigits) return x;
  FixedBuffer buffer;
  const size_t length = ToFixed(x, ndigits, buffer);
  double rounded = 0.0;
  const std::from_chars_result result = std::from_chars(
      buffer.data(), buffer.data() + length, rounded, std::chars_format::fixed);
  GS_CHECK(result.ec == std::errc() && result.ptr == buffer.data() + length,
           "cannot parse back a rounded value");
  return rounded;
}

double PythonFloorDiv(double x, double y) {
  GS_CHECK(y != 0.0, "float floor division by zero");
  double mod = std::fmod(x, y);
  double div = (x - mod) / y;
  if (mod != 0.0) {
    // Make the remainder take the sign of the divisor.
    if ((y < 0) != (mod < 0)) {
      mod += y;
      div -= 1.0;
    }
  }
  double floor_div;
  if (div != 0.0) {
    floor_div = std::floor(div);
    if (div - floor_div > 0.5) floor_div += 1.0;
  } else {
    floor_div = std::copysign(0.0, x / y);
  }
  return floor_div;
}

std::string PythonFormatFixed(double x, int precision) {
  GS_CHECK(precision >= 0 && precision <= kMaxRoundDigits,
           "unsupported precision");
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  FixedBuffer buffer;
  const size_t length = ToFixed(x, precision, buffer);
  return std::string(buffer.data(), length);
}

std::string PythonFormatPercent(double x, int precision) {
  return PythonFormatFixed(x * 100.0, precision) + "%";
}

}  // namespace gpushare
