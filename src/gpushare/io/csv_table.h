// CsvTable: a comma-separated file with a fixed header, read row by row.
//
// Contract: the whole text is held in memory; the first line must equal one
// of the expected headers exactly (InputError at line 1 naming the expected
// columns otherwise). Next() advances to the following data row, skipping
// blank lines; a row must have exactly as many fields as the header. Fields
// are not unquoted: a field holding '"' is an error (the traces this reads
// never quote). A trailing '\r' (CRLF files) is dropped. A field holding a
// control character (a tab, DEL, a C1 control; utf8.h) is an error. Every
// error is an InputError at file:line:col (col: 1-based byte of the field)
// that names the column. Field views point into the table's text and live
// as long as it.

#ifndef GPUSHARE_IO_CSV_TABLE_H_
#define GPUSHARE_IO_CSV_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

class CsvTable {
 public:
  // Reads `path`; InputError when it cannot be read.
  static CsvTable FromFile(const std::string& path,
                           const std::vector<std::string>& headers);
  // `file` names the text in error messages. The header must be one of
  // `headers` (each a comma-separated line).
  CsvTable(std::string file, std::string text,
           const std::vector<std::string>& headers);

  CsvTable(CsvTable&&) = default;
  CsvTable& operator=(CsvTable&&) = default;

  // Which of the expected headers the file has (index into `headers`).
  int header_index() const { return header_index_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& file() const { return file_; }

  // Moves to the next data row; false at the end of the file.
  bool Next();
  // 1-based line of the current row.
  int line() const { return line_; }

  std::string_view Field(int column) const { return fields_[column]; }
  // The field as a decimal integer in [min, max]; InputError otherwise.
  int64_t Int(int column, int64_t min, int64_t max) const;
  // The field as a finite decimal number in [min, max]; InputError
  // otherwise ("expected a number", "value V is out of range (MIN..MAX)").
  double Number(int column, double min, double max) const;
  // Like Int(), but an empty field gives `if_empty`.
  int64_t OptionalInt(int column, int64_t min, int64_t max,
                      int64_t if_empty) const;
  // A non-empty field; InputError when empty.
  std::string_view NonEmpty(int column) const;

  // Throws InputError at the current row and `column`'s field:
  // "column 'NAME': MESSAGE".
  [[noreturn]] void Fail(int column, const std::string& message) const;

 private:
  void Split(std::string_view line_text);

  std::string file_;
  std::string text_;
  std::vector<std::string> columns_;
  int header_index_ = -1;
  size_t pos_ = 0;  // start of the next line in text_
  int line_ = 0;
  std::string_view line_text_;
  std::vector<std::string_view> fields_;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_CSV_TABLE_H_
