// InputError: the one exception type for bad user input.
//
// Contract: thrown at the boundary where user-supplied data (a file, a flag, a
// layout string) is read or validated. It carries where the problem is
// (file:line:col when known, 1-based) and what was expected. The CLI catches
// it, prints "error: <what()>" to stderr and exits with status 2, writing no
// partial output. Internal invariant violations are not InputErrors; they abort
// (see GS_CHECK in io/check.h). A message, and what() with its location, is
// cut at kMaxErrorMessageBytes (io/quote.h), so a huge value quoted in it
// never floods the terminal.

#ifndef GPUSHARE_IO_INPUT_ERROR_H_
#define GPUSHARE_IO_INPUT_ERROR_H_

#include <stdexcept>
#include <string>

namespace gpushare {

class InputError : public std::runtime_error {
 public:
  // An error with no location (a command-line argument, for example).
  explicit InputError(const std::string& message);

  // An error at file:line:col. line and column are 1-based; 0 means unknown
  // (then it is left out of what()).
  InputError(const std::string& file, int line, int column,
             const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // The message without the location prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

}  // namespace gpushare

#endif  // GPUSHARE_IO_INPUT_ERROR_H_
