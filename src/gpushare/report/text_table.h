// TextTable: a plain-text table for terminal output.
//
// Contract: columns have a header and an alignment; rows are strings. Render()
// pads each column to its widest cell (UTF-8 aware: a character counts as one
// column), separates columns by two spaces and trims trailing spaces.

#ifndef GPUSHARE_REPORT_TEXT_TABLE_H_
#define GPUSHARE_REPORT_TEXT_TABLE_H_

#include <string>
#include <vector>

namespace gpushare {

class TextTable {
 public:
  enum class Align { kLeft, kRight };

  // Adds a column; all columns must be added before the first row.
  void AddColumn(std::string header, Align align = Align::kLeft);
  // Adds a row with one cell per column.
  void AddRow(std::vector<std::string> cells);
  std::string Render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<Align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

// Display width of a UTF-8 string (code points).
size_t DisplayWidth(const std::string& s);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_TEXT_TABLE_H_
