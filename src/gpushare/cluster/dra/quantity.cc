#include "gpushare/cluster/dra/quantity.h"

#include <fmt/format.h>

#include "gpushare/cluster/quantity.h"
#include "gpushare/io/check.h"

namespace gpushare {

std::optional<int64_t> ParseQuantity(std::string_view text,
                                     std::string* why_not) {
  auto refuse = [&](const std::string& why) -> std::optional<int64_t> {
    if (why_not != nullptr) *why_not = why;
    return std::nullopt;
  };
  Quantity q;
  std::string error;
  if (!Quantity::Parse(text, &q, &error)) return refuse(error);
  if (q.negative() && !q.zero()) {
    return refuse(fmt::format("'{}' is negative (a capacity is >= 0)", text));
  }
  int64_t value = 0;
  bool whole = true;
  if (!q.CeilIn(0, 0, &value, &whole)) {
    return refuse(fmt::format("'{}' is too large (at most 2^63-1 units)",
                              text));
  }
  if (!whole) {
    return refuse(fmt::format(
        "'{}' is not a whole number of units (bytes, engines, "
        "multiprocessors)",
        text));
  }
  return value;
}

std::string FormatQuantity(int64_t value) {
  GS_CHECK(value >= 0, "a negative quantity");
  if (value == 0) return "0";
  static constexpr const char* kBinarySuffixes[] = {"", "Ki", "Mi",
                                                    "Gi", "Ti", "Pi", "Ei"};
  for (int i = 6; i >= 1; --i) {
    const int64_t multiplier = int64_t{1} << (10 * i);
    if (value % multiplier == 0) {
      return std::to_string(value / multiplier) + kBinarySuffixes[i];
    }
  }
  return std::to_string(value);
}

}  // namespace gpushare
