#include "gpushare/io/yaml_input.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/json_syntax.h"
#include "gpushare/io/quote.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/utf8.h"

namespace gpushare {
namespace {


}  // namespace

std::string DescribeYamlNode(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      return QuoteValue(node.Scalar());
    default:
      return "an undefined value";
  }
}

namespace {

[[noreturn]] void FailAtMark(const std::string& file, const YAML::Mark& mark,
                             const std::string& message);

// A tag as it is written: "!!str" for the core schema's, else as resolved.
std::string WrittenTag(const std::string& tag) {
  constexpr std::string_view kCore = "tag:yaml.org,2002:";
  if (tag.rfind(kCore, 0) == 0) return "!!" + tag.substr(kCore.size());
  return tag;
}

// Reads the events of the documents without building them: records where
// each document's first node starts (for counting documents), and screens
// the first document (kMaxAliasNodes, alias cycles, tags, control
// characters; yaml_input.h).
class DocumentScreen : public YAML::EventHandler {
 public:
  DocumentScreen(const std::string& file, const std::string& text)
      : file_(file), text_(text) {}

  void OnDocumentStart(const YAML::Mark&) override { first_ = true; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node(mark);
    Leaf(anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node(mark);
    if (!Screened()) return;
    if (std::find(open_anchors_.begin(), open_anchors_.end(), anchor) !=
        open_anchors_.end()) {
      FailAtMark(file_, mark,
                 fmt::format("invalid YAML: alias {} refers to a node that "
                             "contains it (a cycle)",
                             AliasName(mark)));
    }
    const auto size = anchor_sizes_.find(anchor);
    const int64_t nodes = size == anchor_sizes_.end() ? 1 : size->second;
    alias_nodes_ += nodes;
    if (alias_nodes_ > kMaxAliasNodes) {
      FailAtMark(file_, mark,
                 fmt::format("invalid YAML: aliases expand to more than {} "
                             "nodes (alias {} adds {})",
                             kMaxAliasNodes, AliasName(mark), nodes));
    }
    Add(nodes);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag,
                YAML::anchor_t anchor, const std::string& value) override {
    Node(mark);
    if (!Screened()) return;
    CheckTag(mark, tag);
    char32_t code_point = 0;
    if (FindControlCodePoint(value, &code_point) != std::string::npos) {
      FailAtMark(file_, mark, ControlCharacterMessage(value, code_point));
    }
    Leaf(anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Node(mark);
    Open(mark, tag, anchor);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag,
                  YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    Node(mark);
    Open(mark, tag, anchor);
  }
  void OnMapEnd() override { Close(); }

  const std::vector<YAML::Mark>& starts() const { return starts_; }

 private:
  // A collection being read: its anchor and its nodes so far (itself, its
  // items, and what its aliases expand to).
  struct Frame {
    YAML::anchor_t anchor;
    int64_t nodes;
  };

  void Node(const YAML::Mark& mark) {
    if (first_) starts_.push_back(mark);
    first_ = false;
  }
  // Only the first document is built, so only it is screened.
  bool Screened() const { return starts_.size() == 1; }

  void Add(int64_t nodes) {
    if (!frames_.empty()) frames_.back().nodes += nodes;
  }
  void Leaf(YAML::anchor_t anchor) {
    if (!Screened()) return;
    if (anchor != YAML::NullAnchor) anchor_sizes_[anchor] = 1;
    Add(1);
  }
  void Open(const YAML::Mark& mark, const std::string& tag,
            YAML::anchor_t anchor) {
    if (!Screened()) return;
    CheckTag(mark, tag);
    frames_.push_back({anchor, 1});
    if (anchor != YAML::NullAnchor) open_anchors_.push_back(anchor);
  }
  void Close() {
    if (!Screened() || frames_.empty()) return;
    const Frame frame = frames_.back();
    frames_.pop_back();
    if (frame.anchor != YAML::NullAnchor) {
      open_anchors_.pop_back();
      anchor_sizes_[frame.anchor] = frame.nodes;
    }
    Add(frame.nodes);
  }

  // "?" is an untagged plain node's tag and "!" a quoted scalar's (or an
  // explicit non-specific "!", which reads the same); any other is written.
  void CheckTag(const YAML::Mark& mark, const std::string& tag) const {
    if (tag.empty() || tag == "?" || tag == "!") return;
    FailAtMark(file_, mark,
               fmt::format("YAML tag {} is not supported: a value's type is "
                           "the one its key takes (write the value without "
                           "the tag)",
                           QuoteValue(WrittenTag(tag))));
  }

  // "'*name'" as written at `mark`.
  std::string AliasName(const YAML::Mark& mark) const {
    if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= text_.size() ||
        text_[mark.pos] != '*') {
      return "'*'";
    }
    size_t end = mark.pos + 1;
    while (end < text_.size() && text_[end] != ' ' && text_[end] != '\n' &&
           text_[end] != '\r' && text_[end] != '\t' && text_[end] != ',' &&
           text_[end] != ']' && text_[end] != '}') {
      ++end;
    }
    return QuoteValue(std::string_view(text_).substr(mark.pos, end - mark.pos));
  }

  const std::string& file_;
  const std::string& text_;
  bool first_ = false;
  std::vector<YAML::Mark> starts_;
  std::vector<Frame> frames_;
  std::vector<YAML::anchor_t> open_anchors_;
  std::unordered_map<YAML::anchor_t, int64_t> anchor_sizes_;
  int64_t alias_nodes_ = 0;
};

[[noreturn]] void FailAtMark(const std::string& file, const YAML::Mark& mark,
                             const std::string& message) {
  throw InputError(file, mark.line + 1, mark.column + 1, message);
}

// yaml-cpp's parser, translated: a syntax error at its mark, too deep a
// nesting (its depth guard says only "bad file") with the limit.
template <typename Parse>
auto Parsed(const std::string& file, Parse parse) {
  try {
    return parse();
  } catch (const YAML::DeepRecursion& e) {
    FailAtMark(file, e.mark,
               fmt::format("invalid YAML: nested deeper than {} levels",
                           e.depth()));
  } catch (const YAML::ParserException& e) {
    FailAtMark(file, e.mark, "invalid YAML: " + e.msg);
  }
}

}  // namespace

YAML::Node ParseYaml(const std::string& text, const std::string& file) {
  CheckUtf8(file, text);
  // yaml-cpp 0.7's LoadAll() never ends on some text (a document that starts
  // with ','), so documents are counted here, stopping where the parser
  // makes no progress; YAML::Load() builds the first one.
  const std::vector<YAML::Mark> starts = Parsed(file, [&] {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentScreen handler(file, text);
    while (parser.HandleNextDocument(handler)) {
      const auto& s = handler.starts();
      if (s.size() >= 2 && s[s.size() - 1].pos <= s[s.size() - 2].pos) {
        const YAML::Mark& at = s.back();
        FailAtMark(file, at,
                   fmt::format("invalid YAML: no value can start with '{}'",
                               text.substr(at.pos, 1)));
      }
    }
    return handler.starts();
  });
  if (starts.size() > 1) {
    FailAtMark(file, starts[1],
               fmt::format("expected one YAML document, found {}",
                           starts.size()));
  }
  if (starts.empty()) return YAML::Node(YAML::NodeType::Null);
  return Parsed(file, [&] { return YAML::Load(text); });
}

YAML::Node ParseCheckedJson(const std::string& text, const std::string& file) {
  const std::string yaml = JsonTextForYamlCpp(text);
  return Parsed(file, [&] { return YAML::Load(yaml); });
}

std::string ReadInputFile(const std::string& path) {
  // A FIFO or a device would block or never end: only regular files (or
  // links to them) are read.
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    throw InputError(path, 0, 0, "no such file");
  }
  if (std::filesystem::is_directory(status)) {
    throw InputError(path, 0, 0, "is a directory, expected a file");
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(path, 0, 0,
                     "not a regular file (a FIFO, socket or device is not "
                     "read)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, 0, "cannot read file");
  return text.str();
}

YAML::Node LoadYamlFile(const std::string& path) {
  return ParseYaml(ReadInputFile(path), path);
}

void FailAt(const std::string& file, const YAML::Node& node,
            const std::string& message) {
  const YAML::Mark mark =
      node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  if (mark.is_null()) throw InputError(file, 0, 0, message);
  throw InputError(file, mark.line + 1, mark.column + 1, message);
}

std::string ScalarString(const std::string& file, const YAML::Node& node,
                         const std::string& what) {
  if (!node.IsScalar()) {
    FailAt(file, node, what + ": expected a string, got " + DescribeYamlNode(node));
  }
  return node.Scalar();
}

// from_chars over `s` with at most one leading sign ('+' is skipped, "+-5"
// is refused): true when all of `s` is the number.
template <typename T>
bool ParseSigned(const std::string& s, T* value) {
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  const bool plus = begin != end && *begin == '+';
  if (plus) ++begin;
  if (begin == end || (plus && *begin == '-')) return false;
  auto [ptr, ec] = std::from_chars(begin, end, *value);
  return ec == std::errc() && ptr == end;
}

int64_t ScalarInt(const std::string& file, const YAML::Node& node,
                  const std::string& what, int64_t min, int64_t max) {
  if (!node.IsScalar()) {
    FailAt(file, node, what + ": expected an integer, got " + DescribeYamlNode(node));
  }
  const std::string& s = node.Scalar();
  int64_t value = 0;
  if (!ParseSigned(s, &value)) {
    FailAt(file, node, what + ": expected an integer, got " + QuoteValue(s));
  }
  if (value < min || value > max) {
    FailAt(file, node,
           fmt::format("{}: {} is out of range (expected {}..{})", what, value,
                       min, max));
  }
  return value;
}

double ScalarDouble(const std::string& file, const YAML::Node& node,
                    const std::string& what, double min, double max) {
  if (!node.IsScalar()) {
    FailAt(file, node, what + ": expected a number, got " + DescribeYamlNode(node));
  }
  const std::string& s = node.Scalar();
  double value = 0;
  if (!ParseSigned(s, &value) || !std::isfinite(value)) {
    FailAt(file, node, what + ": expected a number, got " + QuoteValue(s));
  }
  if (value == 0) value = 0.0;  // -0 reads as 0 (no "-0.00" in output)
  if (value < min || value > max) {
    FailAt(file, node,
           fmt::format("{}: {} is out of range (expected {}..{})", what,
                       ShortValue(s), min, max));
  }
  return value;
}

std::string YamlMap::ResolveInputPath(const YAML::Node& at,
                                      const std::string& label,
                                      const std::string& written) const {
  if (written.empty()) Fail(at, label + ": expected a file path, got ''");
  const std::filesystem::path p(written);
  const std::string path =
      p.is_absolute()
          ? written
          : (std::filesystem::path(file_).parent_path() / p)
                .lexically_normal()
                .string();
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  std::string problem;
  if (!std::filesystem::exists(status)) {
    problem = "no such file '" + path + "'";
  } else if (std::filesystem::is_directory(status)) {
    problem = "'" + path + "' is a directory, expected a file";
  } else if (!std::filesystem::is_regular_file(status)) {
    problem = "'" + path +
              "' is not a regular file (a FIFO, socket or device is not read)";
  }
  if (!problem.empty()) Fail(at, label + ": " + problem);
  return path;
}

std::string YamlMap::InputPath(std::string_view key) const {
  return ResolveInputPath(Get(key), std::string(key), String(key));
}

std::vector<std::string> YamlMap::InputPathList(std::string_view key) const {
  YAML::Node value = Value(key, "a list of file paths");
  if (!value.IsSequence()) {
    FailAt(file_, value,
           what_ + " " + std::string(key) + ": expected a list of file " +
               "paths, got " + DescribeYamlNode(value));
  }
  std::vector<std::string> out;
  for (const auto& item : value) {
    const std::string label = std::string(key);
    out.push_back(ResolveInputPath(
        item, label, ScalarString(file_, item, what_ + " " + label)));
  }
  return out;
}

void CheckNoDuplicateKeys(const std::string& file, const YAML::Node& node) {
  std::vector<YAML::Node> pending = {node};
  std::unordered_set<std::string> keys;
  while (!pending.empty()) {
    const YAML::Node current = pending.back();
    pending.pop_back();
    if (current.IsMap()) {
      keys.clear();
      for (const auto& entry : current) {
        if (entry.first.IsScalar() &&
            !keys.insert(entry.first.Scalar()).second) {
          FailAt(file, entry.first,
                 "duplicate key '" + entry.first.Scalar() + "'");
        }
        pending.push_back(entry.second);
      }
    } else if (current.IsSequence()) {
      for (const auto& item : current) pending.push_back(item);
    }
  }
}

YamlMap::YamlMap(const std::string& file, const YAML::Node& node,
                 std::string what)
    : file_(file), node_(node), what_(std::move(what)) {
  if (!node.IsMap()) {
    FailAt(file, node, what_ + ": expected a mapping, got " + DescribeYamlNode(node));
  }
}

void YamlMap::AllowOnly(std::initializer_list<std::string_view> allowed) const {
  AllowOnlyKeys(std::vector<std::string_view>(allowed));
}

void YamlMap::AllowOnlyKeys(const std::vector<std::string_view>& allowed) const {
  std::vector<std::string> names(allowed.begin(), allowed.end());
  std::vector<std::string> seen;
  for (const auto& entry : node_) {
    const std::string key = ScalarString(file_, entry.first, what_ + " key");
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      Fail(entry.first, "duplicate key '" + key + "'");
    }
    seen.push_back(key);
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known) {
      Fail(entry.first, "unknown key '" + key + "'" +
                            DidYouMean(key, names, 1) +
                            " (allowed: " + JoinNames(names) + ")");
    }
  }
}

bool YamlMap::Has(std::string_view key) const {
  return static_cast<bool>(node_[std::string(key)]);
}

YAML::Node YamlMap::Get(std::string_view key) const {
  YAML::Node value = node_[std::string(key)];
  if (!value) Fail(node_, "missing required key '" + std::string(key) + "'");
  return value;
}

YAML::Node YamlMap::KeyNode(std::string_view key) const {
  for (const auto& entry : node_) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) {
      return entry.first;
    }
  }
  return node_;
}

YAML::Node YamlMap::Value(std::string_view key,
                          std::string_view expected) const {
  YAML::Node value = Get(key);
  if (value.IsNull()) {
    // yaml-cpp marks an empty value at the token after it, often on a later
    // line: report it at its key instead.
    FailAt(
        file_, KeyNode(key),
        fmt::format("{} {}: expected {}, got nothing", what_, key, expected));
  }
  return value;
}

std::string YamlMap::String(std::string_view key) const {
  return ScalarString(file_, Value(key, "a string"),
                      what_ + " " + std::string(key));
}

int64_t YamlMap::Int(std::string_view key, int64_t min, int64_t max) const {
  return ScalarInt(file_, Value(key, "an integer"),
                   what_ + " " + std::string(key), min, max);
}

double YamlMap::Double(std::string_view key, double min, double max) const {
  return ScalarDouble(file_, Value(key, "a number"),
                      what_ + " " + std::string(key), min, max);
}

bool YamlMap::Bool(std::string_view key) const {
  YAML::Node value = Value(key, "true or false");
  if (value.IsScalar()) {
    if (value.Scalar() == "true") return true;
    if (value.Scalar() == "false") return false;
  }
  FailAt(file_, value,
         what_ + " " + std::string(key) + ": expected true or false, got " +
             DescribeYamlNode(value));
}

std::vector<std::string> YamlMap::StringList(std::string_view key) const {
  YAML::Node value = Value(key, "a list");
  const std::string label = what_ + " " + std::string(key);
  if (!value.IsSequence()) {
    FailAt(file_, value, label + ": expected a list, got " + DescribeYamlNode(value));
  }
  std::vector<std::string> out;
  for (const auto& item : value) {
    out.push_back(ScalarString(file_, item, label));
  }
  return out;
}

std::vector<int64_t> YamlMap::IntList(std::string_view key, int64_t min,
                                      int64_t max) const {
  YAML::Node value = Value(key, "a list");
  const std::string label = what_ + " " + std::string(key);
  if (!value.IsSequence()) {
    FailAt(file_, value, label + ": expected a list, got " + DescribeYamlNode(value));
  }
  std::vector<int64_t> out;
  for (const auto& item : value) {
    out.push_back(ScalarInt(file_, item, label, min, max));
  }
  return out;
}

void YamlMap::Fail(const YAML::Node& at, const std::string& message) const {
  FailAt(file_, at, what_ + ": " + message);
}

YamlMap YamlMap::Map(std::string_view key, std::string child_what) const {
  return YamlMap(file_, Value(key, "a mapping"), std::move(child_what));
}

}  // namespace gpushare
