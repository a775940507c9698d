// TextTable: a plain-text table for terminal output.
//
// Contract: columns have a header and an alignment; rows are strings. Render()
// pads each column to its widest cell in terminal columns (see DisplayWidth),
// separates columns by two spaces and trims trailing spaces.

#ifndef GPUSHARE_REPORT_TEXT_TABLE_H_
#define GPUSHARE_REPORT_TEXT_TABLE_H_

#include <cstddef>
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

// Display width of a UTF-8 string in terminal columns: an East Asian wide or
// fullwidth character (CJK ideographs, kana, Hangul syllables, fullwidth
// forms; U+1100-115F, U+2E80-303E, U+3041-33FF, U+3400-4DBF, U+4E00-9FFF,
// U+A000-A4CF, U+AC00-D7A3, U+F900-FAFF, U+FE30-FE4F, U+FF00-FF60,
// U+FFE0-FFE6, U+20000-3FFFD) counts 2, every other code point 1. Each byte of
// invalid UTF-8 counts 1. Combining marks, emoji and control characters are
// not special-cased (1 each).
size_t DisplayWidth(const std::string& s);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_TEXT_TABLE_H_
