#include "gpushare/emit/comment_wrap.h"

#include "gpushare/emit/quoting.h"

namespace gpushare {

std::string WrappedComment(const std::string& text, const std::string& first,
                           const std::string& rest, size_t width) {
  const std::string safe = CommentText(text);
  std::string out;
  std::string line = first;
  bool empty = true;  // no word on `line` yet
  size_t at = 0;
  while (at < safe.size()) {
    if (safe[at] == ' ') {
      ++at;
      continue;
    }
    size_t end = safe.find(' ', at);
    if (end == std::string::npos) end = safe.size();
    const std::string word = safe.substr(at, end - at);
    at = end;
    if (!empty && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = rest;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  if (!empty) out += line + "\n";
  return out;
}

}  // namespace gpushare
