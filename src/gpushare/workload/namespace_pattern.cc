#include "gpushare/workload/namespace_pattern.h"

#include <algorithm>

namespace gpushare {
namespace {

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

size_t LiteralCharacters(std::string_view pattern) {
  return static_cast<size_t>(std::count_if(pattern.begin(), pattern.end(),
                                           [](char c) { return c != '*'; }));
}

}  // namespace

bool IsNamespacePattern(std::string_view pattern) {
  if (pattern.empty() || pattern.size() > 63) return false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '*' || IsLowerAlnum(c)) continue;
    // '-' only inside: a name neither starts nor ends with it.
    if (c != '-' || i == 0 || i + 1 == pattern.size()) return false;
  }
  return true;
}

bool MatchesNamespace(std::string_view pattern, std::string_view name) {
  // Greedy glob with one back-track point: the last `*` seen.
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

int MostSpecificMatch(size_t count,
                      const std::function<std::string_view(size_t)>& pattern,
                      std::string_view name) {
  int best = -1;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view p = pattern(i);
    if (!MatchesNamespace(p, name)) continue;
    if (p == name) return static_cast<int>(i);
    if (best < 0 || LiteralCharacters(p) > LiteralCharacters(pattern(best))) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

int MostSpecificMatch(const std::vector<std::string>& patterns,
                      std::string_view name) {
  return MostSpecificMatch(
      patterns.size(),
      [&](size_t i) -> std::string_view { return patterns[i]; }, name);
}

}  // namespace gpushare
