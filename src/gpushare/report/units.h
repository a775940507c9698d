// Short human forms of fractions, durations and money for terminal tables.

#ifndef GPUSHARE_REPORT_UNITS_H_
#define GPUSHARE_REPORT_UNITS_H_

#include <map>
#include <string>
#include <string_view>

namespace gpushare {

// What SLO MET counts, for every legend that shows it: its denominator is
// latency samples, not pods.
inline constexpr const char kSloMetMeaning[] =
    "share of latency samples (one per pod per sampling interval) whose p99 "
    "is within the pod's SLO";

// "42.0%" for 0.42; "-" when fraction < 0 (not applicable).
std::string FormatPercent(double fraction);
// "12.5s", "3.2m", "1.5h"; "-" when seconds < 0.
std::string FormatSeconds(double seconds);
// "1234.56" with two decimals.
std::string FormatMoney(double amount);
// "$1234.56/h" for a cost per hour.
std::string FormatMoneyPerHour(double amount);

// Patrol alerts per name: "GpuNoisyNeighbour 4, MigConfigDrift 1"; "-" when
// none fired.
std::string FormatAlertCounts(const std::map<std::string, int>& counts);
// "1.25x"; "-" when slowdown <= 0 (none measured).
std::string FormatSlowdown(double slowdown);
// A mean p99 against its SLO in ms: "45<sep>100", "45" without an SLO, "-"
// when p99_ms < 0 (no latency measured).
std::string FormatP99VsSlo(double p99_ms, double slo_ms,
                           std::string_view separator);
// A [0, 1] score on the 0..10 scale with one decimal: "8.5".
std::string FormatScore(double fraction);
// A pod count that may be a mean over seeds: "3" when whole, else one
// decimal ("3.3" for 10/3).
std::string FormatMeanCount(double count);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_UNITS_H_
