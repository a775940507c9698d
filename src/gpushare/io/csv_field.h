// Writing one CSV field (RFC 4180), safe to open in a spreadsheet.
//
// Contract: a text field that starts with '=', '+', '-', '@', a tab or a
// carriage return — what Excel, LibreOffice and Google Sheets read as a
// formula — gets a leading single quote and is quoted (OWASP's rule against
// CSV injection; docs/output.md). A field with a comma, a double quote, CR or
// LF is quoted, its quotes doubled; any other field is written as it is.
// Numbers are not written through CsvField(): a negative number stays one.

#ifndef GPUSHARE_IO_CSV_FIELD_H_
#define GPUSHARE_IO_CSV_FIELD_H_

#include <string>

namespace gpushare {

inline bool CsvFieldReadsAsFormula(const std::string& s) {
  return !s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' ||
                        s[0] == '@' || s[0] == '\t' || s[0] == '\r');
}

inline std::string CsvField(const std::string& s) {
  const bool formula = CsvFieldReadsAsFormula(s);
  if (!formula && s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = formula ? "\"'" : "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace gpushare

#endif  // GPUSHARE_IO_CSV_FIELD_H_
