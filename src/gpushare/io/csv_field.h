// Writing one CSV field (RFC 4180).
//
// Contract: a field with a comma, a double quote, CR or LF is quoted, its
// quotes doubled; any other field is written as it is.

#ifndef GPUSHARE_IO_CSV_FIELD_H_
#define GPUSHARE_IO_CSV_FIELD_H_

#include <string>

namespace gpushare {

inline std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace gpushare

#endif  // GPUSHARE_IO_CSV_FIELD_H_
