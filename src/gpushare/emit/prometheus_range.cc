#include "gpushare/emit/prometheus_range.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>

#include "gpushare/io/input_error.h"
#include "gpushare/io/quote.h"
#include "gpushare/io/rfc3339.h"

namespace gpushare {
namespace {

constexpr std::string_view kTimeForms =
    "expected Unix seconds (1704067200) or an RFC 3339 time "
    "(2024-01-01T00:00:00Z)";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

[[noreturn]] void BadTime(const std::string& flag, const std::string& text,
                          std::string_view why) {
  throw InputError(fmt::format("{} {}: {}", flag, QuoteValue(text), why));
}

// An RFC 3339 time (io/rfc3339.h) in Unix milliseconds; false when `text`
// is not of that form, an error when it is but names no time.
bool ParseRfc3339Ms(const std::string& flag, const std::string& text,
                    int64_t* ms) {
  int64_t seconds = 0;
  int64_t nanos = 0;
  switch (ParseRfc3339(text, &seconds, &nanos)) {
    case Rfc3339::kOk:
      *ms = seconds * 1000 + nanos / 1000000;
      return true;
    case Rfc3339::kNotRfc3339:
      return false;
    case Rfc3339::kBadOffset:
      BadTime(flag, text, "the offset from UTC must be at most 23:59");
    case Rfc3339::kNoSuchTime:
      BadTime(flag, text, "no such date or time of day");
  }
  return false;
}

// Unix seconds as Prometheus reads them (a float), in milliseconds; false
// when `text` is not a plain decimal number.
bool ParseUnixSeconds(const std::string& text, int64_t* ms, bool* in_range) {
  // Digits, an optional fraction and exponent: no sign, hex, inf or nan.
  size_t p = 0;
  while (p < text.size() && IsDigit(text[p])) ++p;
  const size_t integer_digits = p;
  size_t fraction_digits = 0;
  if (p < text.size() && text[p] == '.') {
    ++p;
    while (p < text.size() && IsDigit(text[p])) ++p, ++fraction_digits;
  }
  if (integer_digits + fraction_digits == 0) return false;
  if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
    ++p;
    if (p < text.size() && (text[p] == '+' || text[p] == '-')) ++p;
    const size_t begin = p;
    while (p < text.size() && IsDigit(text[p])) ++p;
    if (p == begin) return false;
  }
  if (p != text.size()) return false;
  double seconds = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), seconds);
  *in_range = error == std::errc() && end == text.data() + text.size() &&
              std::isfinite(seconds) &&
              seconds * 1000 <= static_cast<double>(kMaxPrometheusTimeMs);
  if (*in_range) *ms = std::llround(seconds * 1000);
  return true;
}

}  // namespace

int64_t ParsePrometheusTime(const std::string& flag, const std::string& text) {
  int64_t ms = 0;
  bool in_range = true;
  if (!ParseUnixSeconds(text, &ms, &in_range) &&
      !ParseRfc3339Ms(flag, text, &ms)) {
    BadTime(flag, text, kTimeForms);
  }
  if (!in_range || ms < 0 || ms > kMaxPrometheusTimeMs) {
    BadTime(flag, text,
            "out of range (expected 1970-01-01T00:00:00Z to "
            "9999-12-31T23:59:59.999Z: Unix seconds 0 to 253402300799)");
  }
  return ms;
}

int64_t ParsePrometheusStep(const std::string& flag, const std::string& text) {
  static constexpr std::pair<std::string_view, int64_t> kUnits[] = {
      {"h", 3600000}, {"ms", 1}, {"m", 60000}, {"s", 1000}};
  // The order units must come in: h, m, s, ms.
  static constexpr int kRank[] = {0, 3, 1, 2};
  const auto bad = [&](std::string_view why) {
    return InputError(fmt::format("{} {}: {}", flag, QuoteValue(text), why));
  };
  constexpr std::string_view kForms =
      "expected a duration such as 30s, 1m or 1h30m (units h, m, s and ms, "
      "each at most once and in that order: what both Prometheus's API and "
      "promtool read)";
  size_t p = 0;
  int last_rank = -1;
  int64_t ms = 0;
  while (p < text.size()) {
    const size_t begin = p;
    while (p < text.size() && IsDigit(text[p])) ++p;
    if (p == begin || p - begin > 12) throw bad(kForms);
    int64_t amount = 0;
    std::from_chars(text.data() + begin, text.data() + p, amount);
    int unit = -1;
    for (int u = 0; u < 4; ++u) {
      if (std::string_view(text).substr(p).starts_with(kUnits[u].first)) {
        unit = u;
        break;
      }
    }
    if (unit < 0 || kRank[unit] <= last_rank) throw bad(kForms);
    last_rank = kRank[unit];
    p += kUnits[unit].first.size();
    ms += amount * kUnits[unit].second;
  }
  if (text.empty()) throw bad(kForms);
  if (ms <= 0) {
    throw bad("must be above zero (Prometheus refuses a zero step)");
  }
  return ms;
}

void CheckPrometheusRange(const std::string& start, const std::string& end,
                          const std::string& step) {
  const int64_t start_ms = ParsePrometheusTime("--start", start);
  const int64_t end_ms = ParsePrometheusTime("--end", end);
  const int64_t step_ms = ParsePrometheusStep("--step", step);
  if (start_ms >= end_ms) {
    throw InputError(fmt::format("--start {}: must be before --end ({})",
                                 QuoteValue(start), QuoteValue(end)));
  }
  const int64_t range_ms = end_ms - start_ms;
  if (range_ms / step_ms > kMaxPrometheusResolution) {
    const int64_t min_step_s =
        (range_ms / (kMaxPrometheusResolution + 1) + 1 + 999) / 1000;
    throw InputError(fmt::format(
        "--step {}: {} steps from --start to --end; Prometheus allows at "
        "most {} (\"exceeded maximum resolution of 11,000 points per "
        "timeseries\"): use --step {}s or more, or split the range into "
        "several queries and list every file under workload.trace.metrics",
        QuoteValue(step), range_ms / step_ms, kMaxPrometheusResolution,
        min_step_s));
  }
}

}  // namespace gpushare
