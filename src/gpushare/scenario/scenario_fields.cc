#include "gpushare/scenario/scenario_fields.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace scenario_internal {

std::string MessageNum(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return fmt::format("{}", v);
}

std::string Label(const YamlMap& m, std::string_view key) {
  return m.what() + " " + std::string(key);
}

YAML::Node KeyNode(const YamlMap& m, std::string_view key) {
  for (const auto& entry : m.node()) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) {
      return entry.first;
    }
  }
  return m.node();
}

[[noreturn]] void FailKey(const YamlMap& m, std::string_view key,
                          const std::string& message) {
  FailAt(m.file(), KeyNode(m, key), Label(m, key) + ": " + message);
}

YAML::Node Value(const YamlMap& m, std::string_view key,
                 std::string_view expected) {
  YAML::Node value = m.Get(key);
  if (value.IsNull()) {
    FailKey(m, key, fmt::format("expected {}, got nothing", expected));
  }
  return value;
}

YAML::Node List(const YamlMap& m, std::string_view key, bool non_empty) {
  YAML::Node value = Value(m, key, "a list");
  if (!value.IsSequence()) {
    FailAt(m.file(), value,
           Label(m, key) + ": expected a list, got " + DescribeYamlNode(value));
  }
  if (non_empty && value.size() == 0) {
    FailAt(m.file(), value, Label(m, key) + ": expected at least one item");
  }
  return value;
}

double Number(const YamlMap& m, std::string_view key, double min, double max,
              bool above_min) {
  YAML::Node value = Value(m, key, "a number");
  const double v =
      ScalarDouble(m.file(), value, Label(m, key), kLowest, kHighest);
  if (v < min || v > max || (above_min && v == min)) {
    const std::string range =
        above_min
            ? fmt::format("> {} and <= {}", MessageNum(min), MessageNum(max))
            : fmt::format("{}..{}", MessageNum(min), MessageNum(max));
    FailAt(m.file(), value,
           fmt::format("{}: {} is out of range (expected {})", Label(m, key),
                       value.Scalar(), range));
  }
  return v;
}

std::string Choice(const YamlMap& m, std::string_view key,
                   std::string_view noun,
                   const std::vector<std::string>& allowed) {
  const std::string text = m.String(key);
  for (const std::string& a : allowed) {
    if (a == text) return text;
  }
  FailAt(m.file(), m.Get(key),
         fmt::format("{}: unknown {} '{}'{} (allowed: {})", Label(m, key), noun,
                     text, DidYouMean(text, allowed, 1), JoinNames(allowed)));
}

std::string NamedWhat(const std::string& file, const YAML::Node& node,
                      const std::string& kind) {
  YamlMap entry(file, node, kind);
  if (entry.Has("name") && entry.node()["name"].IsScalar()) {
    return kind + " '" + entry.node()["name"].Scalar() + "'";
  }
  return kind;
}

bool MentionsWord(std::string_view text, std::string_view word, size_t* at) {
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t pos = text.find(word); pos != std::string_view::npos;
       pos = text.find(word, pos + 1)) {
    const size_t end = pos + word.size();
    if ((pos == 0 || !is_name_char(text[pos - 1])) &&
        (end == text.size() || !is_name_char(text[end]))) {
      *at = pos;
      return true;
    }
  }
  return false;
}

[[noreturn]] void FailAtMentionedKey(
    const YamlMap& m, const InputError& e, const YAML::Node& fallback,
    std::initializer_list<std::string_view> ignored) {
  const std::string& message = e.message();
  const std::string_view rest = std::string_view(message).substr(
      message.rfind(m.what(), 0) == 0 ? m.what().size() : 0);
  size_t best = std::string::npos;
  YAML::Node at = fallback;
  for (const auto& entry : m.node()) {
    if (!entry.first.IsScalar()) continue;
    const std::string& key = entry.first.Scalar();
    bool skip = false;
    for (std::string_view i : ignored) skip = skip || i == key;
    size_t pos = 0;
    if (!skip && MentionsWord(rest, key, &pos) && pos < best) {
      best = pos;
      at.reset(entry.second.IsNull() ? entry.first : entry.second);
    }
  }
  FailAt(m.file(), at, message);
}

void Refuse(const YamlMap& m, std::initializer_list<std::string_view> keys,
            const std::string& why) {
  for (std::string_view key : keys) {
    if (m.Has(key)) FailKey(m, key, why);
  }
}

}  // namespace scenario_internal
}  // namespace gpushare
