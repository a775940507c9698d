// One comment of the emitted YAML files and scripts, wrapped at a width.
//
// Contract: WrappedComment() makes `text` safe for a comment line
// (quoting.h CommentText: no line break can end the comment) and writes it
// as lines of at most `width` characters where spaces allow — a word longer
// than the line stays whole — each line `first` for the first and `rest`
// for the others, then the word, each ending in '\n'. "" for an empty text.

#ifndef GPUSHARE_EMIT_COMMENT_WRAP_H_
#define GPUSHARE_EMIT_COMMENT_WRAP_H_

#include <string>

namespace gpushare {

std::string WrappedComment(const std::string& text,
                           const std::string& first = "# ",
                           const std::string& rest = "# ", size_t width = 80);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_COMMENT_WRAP_H_
