#include "gpushare/scenario/kubernetes_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace gpushare {
namespace {

constexpr const char* kLabelKeyRule =
    "letters, digits, '-', '_' and '.', at most 63, starting and ending with "
    "a letter or digit, after an optional DNS prefix and '/'";
constexpr const char* kLabelValueRule =
    "empty, or letters, digits, '-', '_' and '.', at most 63, starting and "
    "ending with a letter or digit";

// `text` for an error message: in single quotes, or escaped in double
// quotes when it holds a control character (a line break in a key would
// otherwise split the message).
std::string NameInMessage(const std::string& text) {
  const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
  });
  return plain ? "'" + text + "'" : fmt::format("{:?}", text);
}

}  // namespace

void CheckLabelKey(const std::string& file, const YAML::Node& at,
                   const std::string& label, const std::string& key) {
  if (!IsLabelKey(key)) {
    FailAt(file, at,
           fmt::format("{}: invalid key {} ({})", label, NameInMessage(key),
                       kLabelKeyRule));
  }
}

void CheckLabelValue(const std::string& file, const YAML::Node& at,
                     const std::string& label, const std::string& value) {
  if (!IsLabelValue(value)) {
    FailAt(file, at,
           fmt::format("{}: invalid value {} ({})", label, NameInMessage(value),
                       kLabelValueRule));
  }
}

bool IsDnsLabel(const std::string& s, size_t max_size) {
  static const std::regex kName(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?)");
  return s.size() <= max_size && std::regex_match(s, kName);
}

// A label key: [DNS-subdomain prefix '/'] name (k8s qualified name).
bool IsLabelKey(const std::string& s) {
  static const std::regex kName(
      R"([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)");
  static const std::regex kPrefix(
      R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");
  const size_t slash = s.find('/');
  if (slash == std::string::npos) return std::regex_match(s, kName);
  const std::string prefix = s.substr(0, slash);
  const std::string name = s.substr(slash + 1);
  return prefix.size() <= 253 && std::regex_match(prefix, kPrefix) &&
         std::regex_match(name, kName);
}

bool IsLabelValue(const std::string& s) {
  static const std::regex kValue(
      R"(([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?)");
  return std::regex_match(s, kValue);
}

bool IsDnsSubdomain(const std::string& s) {
  static const std::regex kName(
      R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");
  return s.size() <= 253 && std::regex_match(s, kName);
}

Labels ReadLabelMap(const std::string& file, const YAML::Node& node,
                    const std::string& label) {
  YamlMap map(file, node, label);
  Labels labels;
  for (const auto& entry : map.node()) {
    const std::string k = ScalarString(file, entry.first, label + " key");
    CheckLabelKey(file, entry.first, label, k);
    if (labels.count(k) > 0) map.Fail(entry.first, "duplicate key '" + k + "'");
    const std::string v =
        ScalarString(file, entry.second, label + " '" + k + "'");
    CheckLabelValue(file, entry.second, label + " '" + k + "'", v);
    labels[k] = v;
  }
  return labels;
}

}  // namespace gpushare
