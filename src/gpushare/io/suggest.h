// Closest-name suggestions for "unknown X" errors.

#ifndef GPUSHARE_IO_SUGGEST_H_
#define GPUSHARE_IO_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

// Case-insensitive Levenshtein distance between a and b.
int EditDistance(std::string_view a, std::string_view b);

// Names longer than this get no suggestion: none would be close, and the
// edit distance of a 50 MB name to each candidate would take minutes.
inline constexpr size_t kMaxSuggestedNameBytes = 256;

// Up to `limit` candidates closest to `name` (by EditDistance, then by a
// shared prefix, then in the order given), without duplicates; none when
// `name` is longer than kMaxSuggestedNameBytes.
std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates,
                                      size_t limit = 3);

// "; did you mean A, B or C?" (empty when ClosestNames() gives none).
std::string DidYouMean(std::string_view name,
                       const std::vector<std::string>& candidates,
                       size_t limit = 3);

// "a, b, c" joined with ", ".
std::string JoinNames(const std::vector<std::string>& names,
                      std::string_view separator = ", ");

}  // namespace gpushare

#endif  // GPUSHARE_IO_SUGGEST_H_
