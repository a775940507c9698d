#include "gpushare/report/text_table.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

namespace {

// East Asian wide (and fullwidth) ranges: two terminal columns each.
struct CodePointRange {
  char32_t first;
  char32_t last;
};
constexpr CodePointRange kWideRanges[] = {
    {0x1100, 0x115F}, {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF},
    {0x4E00, 0x9FFF}, {0xA000, 0xA4CF}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF},
    {0xFE30, 0xFE4F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x20000, 0x3FFFD},
};

bool IsWide(char32_t cp) {
  for (const CodePointRange& r : kWideRanges) {
    if (cp >= r.first && cp <= r.last) return true;
  }
  return false;
}

// Decodes the UTF-8 sequence at s[i]; sets `length` to its byte count. An
// invalid, overlong or truncated sequence decodes as U+FFFD with length 1.
char32_t DecodeUtf8(const std::string& s, size_t i, size_t& length) {
  constexpr char32_t kReplacement = 0xFFFD;
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  length = 1;
  size_t extra = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if (lead < 0x80) {
    return lead;
  } else if ((lead & 0xE0) == 0xC0) {
    extra = 1;
    cp = lead & 0x1F;
    min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2;
    cp = lead & 0x0F;
    min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    return kReplacement;  // a continuation byte or 0xF8..0xFF
  }
  if (i + extra >= s.size()) return kReplacement;  // truncated
  for (size_t k = 1; k <= extra; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return kReplacement;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return kReplacement;
  }
  length = extra + 1;
  return cp;
}

}  // namespace

size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  size_t length = 0;
  for (size_t i = 0; i < s.size(); i += length) {
    width += IsWide(DecodeUtf8(s, i, length)) ? 2 : 1;
  }
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
