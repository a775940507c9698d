#include "gpushare/emit/yaml_text.h"

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

}  // namespace gpushare
