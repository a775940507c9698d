// Short human forms of fractions, durations and money for terminal tables.

#ifndef GPUSHARE_REPORT_UNITS_H_
#define GPUSHARE_REPORT_UNITS_H_

#include <string>

namespace gpushare {

// "42.0%" for 0.42; "-" when fraction < 0 (not applicable).
std::string FormatPercent(double fraction);
// "12.5s", "3.2m", "1.5h"; "-" when seconds < 0.
std::string FormatSeconds(double seconds);
// "1234.56" with two decimals.
std::string FormatMoney(double amount);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_UNITS_H_
