// Python float semantics needed to reproduce Python programs bit for bit.
//
// Contract: each function returns exactly what CPython 3 returns for the same
// double operands (same bits, including the sign of zero), so C++ ports of
// Python arithmetic print the same text. Preconditions are checked with
// GS_CHECK (they are programming errors, not user input).

#ifndef GPUSHARE_DEMO_PYTHON_FLOAT_H_
#define GPUSHARE_DEMO_PYTHON_FLOAT_H_

#include <string>

namespace gpushare {

// Python's round(x, ndigits) for a float x and ndigits >= 0: x rounded to
// ndigits decimals, correctly rounded from its exact binary value with ties
// to even, then converted back to the nearest double. NaN and infinities are
// returned unchanged, as are all x when ndigits exceeds 323 (as in CPython).
double PythonRound(double x, int ndigits);

// Python's x // y for floats (CPython's float_floor_div). y must not be 0
// (Python raises ZeroDivisionError).
double PythonFloorDiv(double x, double y);

// Python's format(x, f".{precision}f"): fixed notation with `precision`
// decimals (>= 0), correctly rounded with ties to even; "inf", "-inf" and
// "nan" for non-finite values.
std::string PythonFormatFixed(double x, int precision);

// Python's format(x, f".{precision}%"): x * 100 formatted as fixed with
// `precision` decimals, followed by "%".
std::string PythonFormatPercent(double x, int precision);

}  // namespace gpushare

#endif  // GPUSHARE_DEMO_PYTHON_FLOAT_H_
