#include "gpushare/io/csv_table.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/quote.h"
#include "gpushare/io/utf8.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

std::string_view NextLine(const std::string& text, size_t* pos) {
  const size_t end = text.find('\n', *pos);
  const size_t stop = end == std::string::npos ? text.size() : end;
  std::string_view line(text.data() + *pos, stop - *pos);
  *pos = end == std::string::npos ? text.size() : end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::vector<std::string> SplitHeader(std::string_view header) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = header.find(',', start);
    out.emplace_back(header.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

CsvTable CsvTable::FromFile(const std::string& path,
                            const std::vector<std::string>& headers) {
  return CsvTable(path, ReadInputFile(path), headers);
}

CsvTable::CsvTable(std::string file, std::string text,
                   const std::vector<std::string>& headers)
    : file_(std::move(file)), text_(std::move(text)) {
  CheckUtf8(file_, text_);
  // A byte-order mark (spreadsheets write one) is not part of the header.
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
  const std::string_view header = NextLine(text_, &pos_);
  line_ = 1;
  for (size_t i = 0; i < headers.size(); ++i) {
    if (header == headers[i]) header_index_ = static_cast<int>(i);
  }
  if (header_index_ < 0) {
    std::string expected;
    for (const std::string& h : headers) {
      expected += (expected.empty() ? "'" : " or '") + h + "'";
    }
    throw InputError(file_, 1, 1,
                     "expected the header " + expected + ", got " +
                         QuoteValue(header));
  }
  columns_ = SplitHeader(header);
}

void CsvTable::Split(std::string_view line_text) {
  fields_.clear();
  size_t start = 0;
  while (true) {
    const size_t comma = line_text.find(',', start);
    fields_.push_back(line_text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

bool CsvTable::Next() {
  while (pos_ < text_.size()) {
    line_text_ = NextLine(text_, &pos_);
    ++line_;
    if (line_text_.empty()) continue;
    Split(line_text_);
    if (fields_.size() != columns_.size()) {
      throw InputError(
          file_, line_, 1,
          "expected " + std::to_string(columns_.size()) + " fields (" +
              std::string(text_.data(), text_.find_first_of("\r\n")) +
              "), got " + std::to_string(fields_.size()) +
              (fields_.size() < columns_.size()
                   ? "; missing column '" + columns_[fields_.size()] + "'"
                   : ""));
    }
    for (size_t c = 0; c < fields_.size(); ++c) {
      if (fields_[c].find('"') != std::string_view::npos) {
        Fail(static_cast<int>(c), "quoted fields are not supported");
      }
      char32_t code_point = 0;
      if (FindControlCodePoint(fields_[c], &code_point) !=
          std::string_view::npos) {
        Fail(static_cast<int>(c),
             ControlCharacterMessage(fields_[c], code_point));
      }
    }
    return true;
  }
  return false;
}

void CsvTable::Fail(int column, const std::string& message) const {
  const int col =
      static_cast<int>(fields_[column].data() - line_text_.data()) + 1;
  throw InputError(file_, line_, col,
                   "column '" + columns_[column] + "': " + message);
}

int64_t CsvTable::Int(int column, int64_t min, int64_t max) const {
  const std::string_view f = fields_[column];
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
  if (f.empty() || ec != std::errc() || end != f.data() + f.size()) {
    Fail(column, "expected an integer, got " + QuoteValue(f));
  }
  if (value < min || value > max) {
    Fail(column, std::to_string(value) + " is out of range [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return value;
}

double CsvTable::Number(int column, double min, double max) const {
  const std::string_view f = fields_[column];
  double value = 0;
  const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
  if (f.empty() || ec != std::errc() || end != f.data() + f.size() ||
      !std::isfinite(value)) {
    Fail(column, "expected a number, got " + QuoteValue(f));
  }
  if (value < min || value > max) {
    Fail(column, fmt::format("value {} is out of range ({}..{})", ShortValue(f),
                             min, max));
  }
  return value;
}

int64_t CsvTable::OptionalInt(int column, int64_t min, int64_t max,
                              int64_t if_empty) const {
  if (fields_[column].empty()) return if_empty;
  return Int(column, min, max);
}

std::string_view CsvTable::NonEmpty(int column) const {
  if (fields_[column].empty()) Fail(column, "must not be empty");
  return fields_[column];
}

}  // namespace gpushare
