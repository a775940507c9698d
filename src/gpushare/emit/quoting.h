// Quoting of the strings the emitters write into files a platform team
// applies or runs: POSIX shell words, YAML scalars, JSON strings and comment
// lines (docs/emit.md, "What is quoted and what is refused").
//
// Contract: ShellQuote, ShellWord, YamlScalar, YamlQuoted and JsonString
// take any bytes and return text that, put in its place, reads back as one
// token holding the original string (bytes that are not UTF-8 excepted, see
// below) — never as more words, more YAML nodes, another type or a further
// line; CommentText keeps any text on its comment line. One by one:
//   ShellQuote  'text' for a POSIX shell, each ' written '\'' ; always
//               quoted, even when empty.
//   ShellWord   the bare word when it is non-empty and only of
//               [A-Za-z0-9._/:=@%+,-] (no expansion, globbing or splitting
//               applies to it), else ShellQuote. For arguments, not for the
//               command word (NAME=x there is an assignment); a leading '-'
//               stays an option to the command, so callers validate names.
//   YamlPlainIsNotString
//               true when `text` as a plain scalar is read as something
//               other than a string by a YAML 1.1 or 1.2 reader (PyYAML,
//               yaml-cpp's users, the Go yaml packages Kubernetes uses):
//               empty, ~, null and the booleans of either version in any
//               case (null, true, yes, y, on, ...), <<, =, .inf and .nan,
//               and, after an optional sign, a digit (or '.' and a digit)
//               first and nothing but number characters after it (12, 012,
//               0x1f, 0o7, 1e5, 1.5, 1_000, 1:20) or a date (2024-01-02...).
//               Conservative: some strings it flags would read back fine.
//   YamlNeedsQuotes
//               true when `text` written as a plain scalar might not read
//               back as the same string: YamlPlainIsNotString, a character
//               outside [A-Za-z0-9._/+-] (so every indicator, ': ', ' #',
//               spaces, quotes and line breaks) or a first character that
//               is not a letter or digit.
//   YamlScalar  the plain scalar when !YamlNeedsQuotes, else YamlQuoted;
//               a mapping key or a value.
//   YamlQuoted  always a double-quoted scalar: \" \\ \n \r \t, \xNN for
//               other C0 controls, DEL and C1 controls, \uNNNN for U+2028,
//               U+2029 and U+FEFF (which YAML 1.1 readers take as line
//               breaks or a byte-order mark) and the noncharacters U+FFFE,
//               U+FFFF; other UTF-8 as is. Bytes that are not UTF-8 are
//               written as U+FFFD (\uFFFD).
//   YamlBlockPrintable
//               true when `text` may stand as is in a YAML block scalar:
//               UTF-8 without control characters other than LF (no tab, CR,
//               DEL or C1) and without U+2028, U+2029, U+FEFF, U+FFFE and
//               U+FFFF.
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

bool YamlPlainIsNotString(std::string_view text);
bool YamlNeedsQuotes(std::string_view text);
std::string YamlScalar(std::string_view text);
std::string YamlQuoted(std::string_view text);
bool YamlBlockPrintable(std::string_view text);

std::string JsonString(std::string_view text);

std::string CommentText(std::string_view text);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_QUOTING_H_
