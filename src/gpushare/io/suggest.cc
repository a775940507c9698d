#include "gpushare/io/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace gpushare {
namespace {

char Lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

size_t CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && Lower(a[n]) == Lower(b[n])) ++n;
  return n;
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      const int cost = Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates,
                                      size_t limit) {
  struct Scored {
    int distance;
    size_t prefix;
    size_t order;
  };
  std::vector<Scored> scored;
  if (name.size() > kMaxSuggestedNameBytes) return {};
  for (size_t i = 0; i < candidates.size(); ++i) {
    scored.push_back({EditDistance(name, candidates[i]),
                      CommonPrefix(name, candidates[i]), i});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& x, const Scored& y) {
                     if (x.distance != y.distance) return x.distance < y.distance;
                     if (x.prefix != y.prefix) return x.prefix > y.prefix;
                     return x.order < y.order;
                   });
  std::vector<std::string> out;
  for (const Scored& s : scored) {
    if (out.size() >= limit) break;
    const std::string& c = candidates[s.order];
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string DidYouMean(std::string_view name,
                       const std::vector<std::string>& candidates,
                       size_t limit) {
  std::vector<std::string> closest = ClosestNames(name, candidates, limit);
  if (closest.empty()) return "";
  std::string out = "; did you mean ";
  for (size_t i = 0; i < closest.size(); ++i) {
    if (i > 0) out += i + 1 == closest.size() ? " or " : ", ";
    out += closest[i];
  }
  return out + "?";
}

std::string JoinNames(const std::vector<std::string>& names,
                      std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

}  // namespace gpushare
