// RFC 3339 times of Kubernetes objects (kubernetes_time.h).

#include "gpushare/workload/kubernetes_time.h"

#include <cstdint>

namespace gpushare {
namespace {

bool KtDigits(std::string_view t, size_t* p, int n, int64_t* v) {
  if (*p + n > t.size()) return false;
  int64_t x = 0;
  for (int i = 0; i < n; ++i) {
    const char c = t[*p + i];
    if (c < '0' || c > '9') return false;
    x = x * 10 + (c - '0');
  }
  *p += n;
  *v = x;
  return true;
}

bool KtLiteral(std::string_view t, size_t* p, char c) {
  if (*p >= t.size() || t[*p] != c) return false;
  ++*p;
  return true;
}

int64_t KtDaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// days_from_civil).
int64_t KtDaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

bool ParseKubernetesTime(std::string_view t, double* unix_s) {
  size_t p = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!KtDigits(t, &p, 4, &year) || !KtLiteral(t, &p, '-') ||
      !KtDigits(t, &p, 2, &month) || !KtLiteral(t, &p, '-') ||
      !KtDigits(t, &p, 2, &day) || !KtLiteral(t, &p, 'T') ||
      !KtDigits(t, &p, 2, &hour) || !KtLiteral(t, &p, ':') ||
      !KtDigits(t, &p, 2, &minute) || !KtLiteral(t, &p, ':') ||
      !KtDigits(t, &p, 2, &second)) {
    return false;
  }
  double fraction = 0;
  if (KtLiteral(t, &p, '.')) {
    const size_t begin = p;
    double scale = 0.1;
    while (p < t.size() && t[p] >= '0' && t[p] <= '9') {
      fraction += (t[p] - '0') * scale;
      scale /= 10;
      ++p;
    }
    if (p == begin) return false;
  }
  int64_t offset_s = 0;
  if (!KtLiteral(t, &p, 'Z')) {
    if (p >= t.size() || (t[p] != '+' && t[p] != '-')) return false;
    const int sign = t[p] == '-' ? -1 : 1;
    ++p;
    int64_t oh = 0, om = 0;
    if (!KtDigits(t, &p, 2, &oh) || !KtLiteral(t, &p, ':') ||
        !KtDigits(t, &p, 2, &om) || oh > 23 || om > 59) {
      return false;
    }
    offset_s = sign * (oh * 3600 + om * 60);
  }
  if (p != t.size() || month < 1 || month > 12 || day < 1 ||
      day > KtDaysInMonth(year, month) || hour > 23 || minute > 59 ||
      second > 59) {
    return false;
  }
  const int64_t s = KtDaysFromCivil(year, month, day) * 86400 + hour * 3600 +
                    minute * 60 + second - offset_s;
  *unix_s = static_cast<double>(s) + fraction;
  return true;
}

}  // namespace gpushare
