// Small text helpers of the emitters' hand-written YAML.
//
// Contract: IndentLines() puts `indent` before every non-empty line of
// `text` (a YAML block scalar's body or a nested document); empty lines stay
// empty; the result ends with a newline when `text` is not empty.
// CommentLines() writes `text` as `# ` comment lines of at most 78 columns,
// broken at spaces (a longer word stands on its own line), each through
// quoting.h CommentText; "" for an empty `text`.

#ifndef GPUSHARE_EMIT_YAML_TEXT_H_
#define GPUSHARE_EMIT_YAML_TEXT_H_

#include <string>

namespace gpushare {

std::string IndentLines(const std::string& text, const std::string& indent);
std::string CommentLines(const std::string& text);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_YAML_TEXT_H_
