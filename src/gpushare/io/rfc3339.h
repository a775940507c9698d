// RFC 3339 times as Kubernetes (metav1.Time) and Prometheus's HTTP API write
// and read them: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`.
//
// Contract: ParseRfc3339() reads `text` into Unix seconds and the
// fraction's nanoseconds (1 to 9 digits, as Go's time.RFC3339Nano; more are
// not RFC 3339 here). It says kNotRfc3339 for text of any other shape,
// kNoSuchTime for a date or time of day that does not exist (2023-02-29,
// 24:00:00) and kBadOffset for an offset from UTC above 23:59; the outputs
// are set only on kOk. Dates from year 0000 to 9999 of the proleptic
// Gregorian calendar. Pure.

#ifndef GPUSHARE_IO_RFC3339_H_
#define GPUSHARE_IO_RFC3339_H_

#include <cstdint>
#include <string_view>

namespace gpushare {

enum class Rfc3339 { kOk, kNotRfc3339, kNoSuchTime, kBadOffset };

Rfc3339 ParseRfc3339(std::string_view text, int64_t* unix_s, int64_t* nanos);

}  // namespace gpushare

#endif  // GPUSHARE_IO_RFC3339_H_
