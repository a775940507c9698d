#include "gpushare/io/json_value.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "gpushare/io/quote.h"
#include "gpushare/io/utf8.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

bool IsIdentifier(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string MemberPath(const std::string& path, const std::string& key) {
  if (IsIdentifier(key)) return path.empty() ? key : path + "." + key;
  return path + "[\"" + ShortValue(key) + "\"]";
}

}  // namespace

JsonValue::JsonValue(std::string file, YAML::Node root)
    : JsonValue(std::move(file), root, root, "") {}

JsonValue::JsonValue(std::string file, YAML::Node node, YAML::Node located,
                     std::string path)
    : file_(std::move(file)),
      node_(std::move(node)),
      located_(std::move(located)),
      path_(std::move(path)) {}

std::string JsonValue::Describe() const {
  if (!node_.IsDefined()) return "nothing";
  return DescribeYamlNode(node_);
}

void JsonValue::Fail(const std::string& message) const {
  FailAt(file_, located_,
         (path_.empty() ? "document" : path_) + ": " + message);
}

JsonValue JsonValue::Get(const std::string& key) const {
  const std::string path = MemberPath(path_, key);
  if (Missing()) return JsonValue(file_, YAML::Node(), located_, path);
  if (!node_.IsMap()) Fail("expected an object, got " + Describe());
  for (const auto& entry : node_) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) {
      return JsonValue(file_, entry.second, entry.second, path);
    }
  }
  return JsonValue(file_, YAML::Node(), located_, path);
}

std::vector<JsonValue> JsonValue::Items() const {
  std::vector<JsonValue> items;
  if (Missing()) return items;
  if (!node_.IsSequence()) Fail("expected an array, got " + Describe());
  items.reserve(node_.size());
  for (size_t i = 0; i < node_.size(); ++i) {
    const YAML::Node item = node_[i];
    items.push_back(
        JsonValue(file_, item, item, path_ + "[" + std::to_string(i) + "]"));
  }
  return items;
}

std::vector<std::pair<std::string, JsonValue>> JsonValue::Members() const {
  std::vector<std::pair<std::string, JsonValue>> members;
  if (Missing()) return members;
  if (!node_.IsMap()) Fail("expected an object, got " + Describe());
  for (const auto& entry : node_) {
    if (!entry.first.IsScalar()) {
      JsonValue(file_, entry.first, entry.first, path_)
          .Fail("expected a string key");
    }
    const std::string key = entry.first.Scalar();
    char32_t code_point = 0;
    if (FindControlCodePoint(key, &code_point) != std::string::npos) {
      JsonValue(file_, entry.first, entry.first, path_)
          .Fail("key: " + ControlCharacterMessage(key, code_point));
    }
    members.emplace_back(key, JsonValue(file_, entry.second, entry.second,
                                        MemberPath(path_, key)));
  }
  return members;
}

int JsonValue::Line() const {
  const YAML::Mark mark = located_.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

int JsonValue::Column() const {
  const YAML::Mark mark = located_.Mark();
  return mark.column >= 0 ? mark.column + 1 : 0;
}

std::string JsonValue::String(const std::string& if_missing) const {
  if (Missing()) return if_missing;
  if (!node_.IsScalar()) Fail("expected a string, got " + Describe());
  char32_t code_point = 0;
  if (FindControlCodePoint(node_.Scalar(), &code_point) != std::string::npos) {
    Fail(ControlCharacterMessage(node_.Scalar(), code_point));
  }
  return node_.Scalar();
}

std::string JsonValue::MultilineString() const {
  if (Missing()) return "";
  if (!node_.IsScalar()) Fail("expected a string, got " + Describe());
  char32_t code_point = 0;
  if (FindNonWhitespaceControlCodePoint(node_.Scalar(), &code_point) !=
      std::string::npos) {
    Fail(ControlCharacterMessage(node_.Scalar(), code_point));
  }
  return node_.Scalar();
}

size_t JsonValue::Size() const {
  if (Missing()) return 0;
  if (!node_.IsSequence()) Fail("expected an array, got " + Describe());
  return node_.size();
}

int64_t JsonValue::Int(int64_t min, int64_t max) const {
  if (Missing()) Fail("expected an integer, got nothing");
  if (!node_.IsScalar()) Fail("expected an integer, got " + Describe());
  const std::string& s = node_.Scalar();
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    Fail("expected an integer, got " + QuoteValue(s));
  }
  if (v < min || v > max) {
    Fail(ShortValue(s) + " is out of range (expected " + std::to_string(min) +
         ".." + std::to_string(max) + ")");
  }
  return v;
}

double JsonValue::Double(double min, double max) const {
  if (Missing()) Fail("expected a number, got nothing");
  if (!node_.IsScalar()) Fail("expected a number, got " + Describe());
  const std::string& s = node_.Scalar();
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() ||
      !std::isfinite(v)) {
    Fail("expected a number, got " + QuoteValue(s));
  }
  if (v < min || v > max) {
    Fail(fmt::format("{} is out of range (expected {:g}..{:g})", ShortValue(s),
                     min, max));
  }
  return v;
}

bool JsonValue::Bool() const {
  const std::string s = String("false");
  if (s == "true") return true;
  if (s == "false") return false;
  Fail("expected true or false, got " + QuoteValue(s));
}

}  // namespace gpushare
