// Quoting of the strings the emitters write into files a platform team
// applies or runs: POSIX shell words, YAML scalars, JSON strings and comment
// lines (docs/emit.md, "What is quoted and what is refused").
//
// Contract: every function takes any bytes and returns text that, put in its
// place, is read back as one token holding the original string — never as
// more words, more YAML nodes, another type or a further line:
//   ShellQuote  'text' for a POSIX shell, each ' written '\'' ; always
//               quoted, even when empty.
//   ShellWord   the bare word when it is non-empty and only of
//               [A-Za-z0-9._/:=@%+,-] (no expansion, globbing or splitting
//               applies to it), else ShellQuote. For arguments, not for the
//               command word (NAME=x there is an assignment); a leading '-'
//               stays an option to the command, so callers validate names.
//   YamlNeedsQuotes
//               true when `text` written as a plain YAML scalar would not
//               read back as the same string under YAML 1.1 or 1.2 (PyYAML,
//               yaml-cpp, the Go yaml packages Kubernetes uses): empty;
//               a character outside [A-Za-z0-9._/+-] (so every indicator,
//               ': ', ' #', spaces, quotes and line breaks); a first
//               character that is not a letter or digit; null or a boolean
//               of any YAML version in any case (null, true, yes, y, on,
//               ...); or a digit first and nothing but number, date and hex
//               characters after it (12, 0x1f, 1e5, 0o7, 1.5, 2024-01-02).
//               Conservative: some strings it quotes would read back fine.
//   YamlScalar  the plain scalar when !YamlNeedsQuotes, else YamlQuoted;
//               a mapping key or a value.
//   YamlQuoted  always a double-quoted scalar: \" \\ \n \r \t, \xNN for
//               other C0 controls, DEL and C1 controls, \uNNNN for U+2028,
//               U+2029 and U+FEFF (which YAML 1.1 readers take as line
//               breaks or a byte-order mark) and the noncharacters U+FFFE,
//               U+FFFF; other UTF-8 as is. Bytes that
//               are not UTF-8 are written as U+FFFD (\uFFFD).
//   JsonString  a JSON string (RFC 8259) with \" \\ \n \r \t \b \f and
//               \uNNNN for other control characters (C0, DEL, C1) and the
//               characters YamlQuoted escapes; U+FFFD for bytes that are not
//               UTF-8. So a JSON string is a YAML double-quoted scalar too,
//               and reads back the same in either.
//   CommentText one line of printable text safe after '#' in a shell script
//               or YAML file, or in a Markdown heading: LF, CR and tab
//               written \n, \r, \t; other control characters (C0, DEL, C1)
//               \xNN; U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF \uNNNN;
//               bytes that are not UTF-8 \xNN. Not meant to be read back;
//               printable text is kept as is.
// Pure functions of their argument.

#ifndef GPUSHARE_EMIT_QUOTING_H_
#define GPUSHARE_EMIT_QUOTING_H_

#include <string>
#include <string_view>

namespace gpushare {

std::string ShellQuote(std::string_view text);
std::string ShellWord(std::string_view text);

bool YamlNeedsQuotes(std::string_view text);
std::string YamlScalar(std::string_view text);
std::string YamlQuoted(std::string_view text);

std::string JsonString(std::string_view text);

std::string CommentText(std::string_view text);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_QUOTING_H_
