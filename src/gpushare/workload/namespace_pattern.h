// Namespace patterns: a namespace name in which `*` stands for any run of
// characters (none included), as the kubectl import's `workload_classes`
// keys and `system_namespaces` entries may be written ("team-*",
// "*-system", "*"), so that one line covers a platform's many namespaces.
//
// Contract: IsNamespacePattern() accepts what would be a namespace name
// (a DNS label: lowercase letters, digits and '-', at most 63 characters,
// alphanumeric at both ends) with any of its characters replaced by `*`
// (consecutive `*` count as one). MatchesNamespace() is true when the
// pattern covers the name; a pattern without `*` covers exactly itself.
// MostSpecificMatch() picks, among patterns covering a name, the exact name
// if listed, else the one with the most literal (non-`*`) characters, the
// first in the given order on a tie.

#ifndef GPUSHARE_WORKLOAD_NAMESPACE_PATTERN_H_
#define GPUSHARE_WORKLOAD_NAMESPACE_PATTERN_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

bool IsNamespacePattern(std::string_view pattern);

bool MatchesNamespace(std::string_view pattern, std::string_view name);

// The index in `patterns` of the most specific pattern covering `name`, or
// -1 when none does.
int MostSpecificMatch(const std::vector<std::string>& patterns,
                      std::string_view name);
// The same over `count` patterns read by `pattern(i)` (a table's keys).
int MostSpecificMatch(size_t count,
                      const std::function<std::string_view(size_t)>& pattern,
                      std::string_view name);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_NAMESPACE_PATTERN_H_
