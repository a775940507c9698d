#include "gpushare/emit/yaml_text.h"

#include "gpushare/emit/quoting.h"

namespace gpushare {

std::string IndentLines(const std::string& text, const std::string& indent) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    out += (line.empty() ? "" : indent + line) + "\n";
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

std::string CommentLines(const std::string& text) {
  std::string out;
  std::string line;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find(' ', begin);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(begin, end - begin);
    if (!line.empty() && line.size() + 1 + word.size() > 76) {
      out += "# " + CommentText(line) + "\n";
      line.clear();
    }
    if (!word.empty()) line += (line.empty() ? "" : " ") + word;
    begin = end + 1;
  }
  if (!line.empty()) out += "# " + CommentText(line) + "\n";
  return out;
}

}  // namespace gpushare
