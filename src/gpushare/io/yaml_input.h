// Strict, located reading of YAML input files.
//
// Contract: every accessor either returns a value of the expected type and
// range or throws InputError naming file:line:col (1-based) and what was
// expected. An empty value ("key:" with nothing after it) is reported at its
// key as "got nothing". Unknown keys are errors that name the closest allowed
// key. Used by every YAML reader of the project (catalog, scenario) so that
// all input errors look the same.

#ifndef GPUSHARE_IO_YAML_INPUT_H_
#define GPUSHARE_IO_YAML_INPUT_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace gpushare {

// Aliases of one document may expand to at most this many nodes in all
// (each alias counts the nodes of what it names, aliases inside included):
// ten levels of ten aliases each would otherwise make a tree of 10^10 nodes
// that every reader walking it (a sweep grid's values, duplicate-key checks)
// takes minutes or memory to read.
inline constexpr int64_t kMaxAliasNodes = 1'000'000;

// Parses YAML text of one document; `file` is the name used in error
// messages. A syntax error becomes an InputError at its line and column; a
// second document ("---") is an InputError at its start. Text without a
// document (empty, or only comments) gives a null node. Every YAML reader
// parses through here, and the document is screened before it is built;
// each of these is an InputError at the node:
//   - aliases expanding to more than kMaxAliasNodes nodes, and an alias
//     inside the node it names (a cycle: `a: &x [*x]`);
//   - an explicit tag (`!!str 2`, `!local`): readers take a value's type
//     from its key, so a tag would be silently ignored;
//   - a control character in a key or value after escapes are decoded
//     (`"\x1b"`, `"\0"`, a literal tab or a line break in a block scalar):
//     C0, DEL or C1 (utf8.h).
YAML::Node ParseYaml(const std::string& text, const std::string& file);

// Parses text that CheckJsonSyntax() (json_syntax.h) accepted — one JSON
// value — into a node with yaml-cpp's line and column marks, without
// counting documents again.
YAML::Node ParseCheckedJson(const std::string& text, const std::string& file);

// The bytes of a file; a missing, unreadable or directory path is an
// InputError naming it.
std::string ReadInputFile(const std::string& path);

// Reads and parses a file. A missing or unreadable file, or a directory, is an
// InputError.
YAML::Node LoadYamlFile(const std::string& path);

// How an error message names a value: "nothing", "a list", "a mapping" or
// the scalar in quotes (at most kMaxQuotedBytes of it, quote.h).
std::string DescribeYamlNode(const YAML::Node& node);

// Throws InputError "duplicate key 'K'" at the second occurrence of a key in
// any mapping under `node` (JSON's RFC 8259 wants names unique; yaml-cpp
// keeps both and reading would silently take one).
void CheckNoDuplicateKeys(const std::string& file, const YAML::Node& node);

// Throws InputError at `node`'s position in `file`.
[[noreturn]] void FailAt(const std::string& file, const YAML::Node& node,
                         const std::string& message);

// A YAML mapping being read: `what` names it in errors ("model 'A100-40GB'").
class YamlMap {
 public:
  // Throws unless `node` is a mapping.
  YamlMap(const std::string& file, const YAML::Node& node, std::string what);

  // Throws on the first key not in `allowed` (in file order) and on a key
  // given twice.
  void AllowOnly(std::initializer_list<std::string_view> allowed) const;
  void AllowOnlyKeys(const std::vector<std::string_view>& allowed) const;

  bool Has(std::string_view key) const;
  // The value of a required key; throws "missing key".
  YAML::Node Get(std::string_view key) const;

  // Typed values of required keys. An empty value is an error at its key.
  std::string String(std::string_view key) const;
  int64_t Int(std::string_view key, int64_t min, int64_t max) const;
  // Finite doubles in [min, max].
  double Double(std::string_view key, double min, double max) const;
  bool Bool(std::string_view key) const;
  std::vector<std::string> StringList(std::string_view key) const;
  // A path to an input file written at `key`: relative paths are taken from
  // the directory of file(). It must name an existing regular file; a missing
  // file, a directory or a FIFO is an error at the value, before anything is
  // read.
  std::string InputPath(std::string_view key) const;
  // A list of such paths (each checked as InputPath does, at its element).
  std::vector<std::string> InputPathList(std::string_view key) const;
  std::vector<int64_t> IntList(std::string_view key, int64_t min,
                               int64_t max) const;

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }
  const std::string& what() const { return what_; }

  // Throws at `at` with "<what>: <message>".
  [[noreturn]] void Fail(const YAML::Node& at,
                         const std::string& message) const;

 // The mapping under `key`, named `what`; an empty value fails at the key.
  YamlMap Map(std::string_view key, std::string child_what) const;

 private:
  // `written` resolved against file()'s directory and checked; errors at
  // `at`, prefixed with `label`.
  std::string ResolveInputPath(const YAML::Node& at, const std::string& label,
                               const std::string& written) const;
  // The key node of `key`, or the mapping when it is not there.
  YAML::Node KeyNode(std::string_view key) const;
  // Get(key), but an empty value fails at its key: "expected <expected>, got
  // nothing".
  YAML::Node Value(std::string_view key, std::string_view expected) const;

  std::string file_;
  YAML::Node node_;
  std::string what_;
};

// Scalar conversions with located errors; `what` names the value.
std::string ScalarString(const std::string& file, const YAML::Node& node,
                         const std::string& what);
int64_t ScalarInt(const std::string& file, const YAML::Node& node,
                  const std::string& what, int64_t min, int64_t max);
double ScalarDouble(const std::string& file, const YAML::Node& node,
                    const std::string& what, double min, double max);

}  // namespace gpushare

#endif  // GPUSHARE_IO_YAML_INPUT_H_
