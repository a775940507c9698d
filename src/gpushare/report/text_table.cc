#include "gpushare/report/text_table.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  for (unsigned char c : s) width += (c & 0xC0) != 0x80 ? 1 : 0;
  return width;
}

void TextTable::AddColumn(std::string header, Align align) {
  GS_CHECK(rows_.empty(), "columns must be added before rows");
  headers_.push_back(std::move(header));
  aligns_.push_back(align);
}

void TextTable::AddRow(std::vector<std::string> cells) {
  GS_CHECK(cells.size() == headers_.size(), "row has the wrong cell count");
  rows_.push_back(std::move(cells));
}

std::string TextTable::Render() const {
  std::vector<size_t> widths(headers_.size());
  for (size_t c = 0; c < headers_.size(); ++c) {
    widths[c] = DisplayWidth(headers_[c]);
    for (const auto& row : rows_) {
      widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
  }
  std::string out;
  auto render_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) line += "  ";
      const std::string pad(widths[c] - DisplayWidth(cells[c]), ' ');
      line += aligns_[c] == Align::kRight ? pad + cells[c] : cells[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  render_row(headers_);
  for (const auto& row : rows_) render_row(row);
  return out;
}

}  // namespace gpushare
