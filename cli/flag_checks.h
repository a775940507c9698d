// Strict checks of numeric command-line values.
//
// Contract: CLI11 reads integers with strtoll (base 0), so "010" is 8,
// "0x10" 16 and a value above 2^63 - 1 silently becomes 2^63 - 1; and its
// Range check lets NaN through (NaN compares false). These validators read
// the value's text themselves before CLI11 converts it: a decimal integer
// (an optional leading '-') or a finite decimal number, inside [min, max].
// Anything else is refused by CLI11 as "--FLAG: expected ..., got 'TEXT'"
// (exit status 2), the text quoted with quote.h's bound. An accepted value
// is handed to CLI11 in canonical decimal form ("010" is ten).

#ifndef GPUSHARE_CLI_FLAG_CHECKS_H_
#define GPUSHARE_CLI_FLAG_CHECKS_H_

#include <cstdint>

#include <CLI/CLI.hpp>

namespace gpushare::cli {

// Register them with Option::transform() (check() would not pass the
// canonical form on).

// A decimal integer in [min, max].
CLI::Validator IntegerFlag(int64_t min, int64_t max);

// A finite decimal number in [min, max] (no nan, inf or hex floats).
CLI::Validator NumberFlag(double min, double max);

// Adds `--seed N` to `cmd`: a decimal integer 0..2^63 - 1 replacing the
// scenario's seed; `*seed` keeps -1 when the flag is not given.
CLI::Option* AddSeedOption(CLI::App* cmd, int64_t* seed);

}  // namespace gpushare::cli

#endif  // GPUSHARE_CLI_FLAG_CHECKS_H_
