// Strict checks of numeric command-line values (flag_checks.h).

#include "cli/flag_checks.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "gpushare/io/quote.h"

namespace gpushare::cli {
namespace {

// from_chars over the whole of `text`; nothing else accepted.
template <typename T>
bool ParseWholeFlag(const std::string& text, T* value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, *value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

CLI::Validator IntegerFlag(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        int64_t value = 0;
        if (!ParseWholeFlag(text, &value) || value < min || value > max) {
          return fmt::format("expected an integer {}..{}, got {}", min, max,
                             QuoteValue(text));
        }
        text = std::to_string(value);  // CLI11 would read "010" as octal
        return std::string();
      },
      fmt::format("INT in [{} - {}]", min, max));
}

CLI::Validator NumberFlag(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        double value = 0;
        if (!ParseWholeFlag(text, &value) || !std::isfinite(value) ||
            value < min || value > max) {
          return fmt::format("expected a number {:g}..{:g}, got {}", min, max,
                             QuoteValue(text));
        }
        text = fmt::format("{}", value);  // shortest exact decimal
        return std::string();
      },
      fmt::format("FLOAT in [{:g} - {:g}]", min, max));
}

CLI::Option* AddSeedOption(CLI::App* cmd, int64_t* seed) {
  return cmd->add_option("--seed", *seed, "Override the scenario's seed")
      ->transform(IntegerFlag(0, std::numeric_limits<int64_t>::max()));
}

}  // namespace gpushare::cli
