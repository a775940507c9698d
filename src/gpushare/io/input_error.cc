#include "gpushare/io/input_error.h"

#include <string>

#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

std::string FormatLocation(const std::string& file, int line, int column,
                           const std::string& message) {
  if (file.empty()) return message;
  std::string out = file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  return out + ": " + message;
}

}  // namespace

InputError::InputError(const std::string& message)
    : std::runtime_error(CapErrorMessage(message)),
      message_(CapErrorMessage(message)) {}

InputError::InputError(const std::string& file, int line, int column,
                       const std::string& message)
    : std::runtime_error(
          CapErrorMessage(FormatLocation(file, line, column, message))),
      file_(file),
      line_(line),
      column_(column),
      message_(CapErrorMessage(message)) {}

}  // namespace gpushare
