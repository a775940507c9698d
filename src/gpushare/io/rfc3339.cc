#include "gpushare/io/rfc3339.h"

namespace gpushare {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads `n` digits of `text` at `*pos` into `*value`.
bool Digits(std::string_view text, size_t* pos, size_t n, int64_t* value) {
  if (*pos + n > text.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = text[*pos + i];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *value = v;
  return true;
}

bool Literal(std::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Days from 1970-01-01 to y-m-d (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

Rfc3339 ParseRfc3339(std::string_view text, int64_t* unix_s, int64_t* nanos) {
  size_t p = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(text, &p, 4, &year) || !Literal(text, &p, '-') ||
      !Digits(text, &p, 2, &month) || !Literal(text, &p, '-') ||
      !Digits(text, &p, 2, &day) || !Literal(text, &p, 'T') ||
      !Digits(text, &p, 2, &hour) || !Literal(text, &p, ':') ||
      !Digits(text, &p, 2, &minute) || !Literal(text, &p, ':') ||
      !Digits(text, &p, 2, &second)) {
    return Rfc3339::kNotRfc3339;
  }
  int64_t fraction = 0;
  if (Literal(text, &p, '.')) {
    const size_t begin = p;
    while (p < text.size() && IsDigit(text[p])) ++p;
    if (p == begin || p - begin > 9) return Rfc3339::kNotRfc3339;
    for (size_t i = 0; i < 9; ++i) {
      fraction = fraction * 10 + (begin + i < p ? text[begin + i] - '0' : 0);
    }
  }
  int64_t offset_s = 0;
  if (!Literal(text, &p, 'Z')) {
    if (p >= text.size() || (text[p] != '+' && text[p] != '-')) {
      return Rfc3339::kNotRfc3339;
    }
    const int sign = text[p] == '-' ? -1 : 1;
    ++p;
    int64_t oh = 0, om = 0;
    if (!Digits(text, &p, 2, &oh) || !Literal(text, &p, ':') ||
        !Digits(text, &p, 2, &om) || p != text.size()) {
      return Rfc3339::kNotRfc3339;
    }
    if (oh > 23 || om > 59) return Rfc3339::kBadOffset;
    offset_s = sign * (oh * 3600 + om * 60);
  }
  if (p != text.size()) return Rfc3339::kNotRfc3339;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) ||
      hour > 23 || minute > 59 || second > 59) {
    return Rfc3339::kNoSuchTime;
  }
  *unix_s = DaysFromCivil(year, month, day) * 86400 + hour * 3600 +
            minute * 60 + second - offset_s;
  *nanos = fraction;
  return Rfc3339::kOk;
}

}  // namespace gpushare
