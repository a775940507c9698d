#include "gpushare/scenario/scenario_overrides.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

bool IsBareKeyChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
         c == '/';
}

bool IsIndex(const ScenarioKeyStep& step) {
  if (step.quoted || step.text.empty() || step.text.size() > 9) return false;
  for (const char c : step.text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// "cluster.pools[l4]": the key's steps before `end`, as written.
std::string Prefix(const ScenarioKey& key, size_t end) {
  std::string out;
  for (size_t i = 0; i < end; ++i) {
    const ScenarioKeyStep& s = key.steps[i];
    if (s.kind == ScenarioKeyStep::Kind::kKey) {
      if (!out.empty()) out += '.';
      out += s.text;
    } else {
      out += s.quoted ? fmt::format("[\"{}\"]", s.text) : "[" + s.text + "]";
    }
  }
  return out.empty() ? "the scenario" : "'" + out + "'";
}

// The value of `key` in mapping `map` (undefined when absent), looked up
// without adding it.
YAML::Node Lookup(const YAML::Node& map, const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

std::string ItemNames(const YAML::Node& list) {
  std::string names;
  for (const YAML::Node& item : list) {
    if (!item.IsMap()) continue;
    const YAML::Node name = Lookup(item, "name");
    if (!name.IsDefined() || !name.IsScalar()) continue;
    if (!names.empty()) names += ", ";
    names += name.Scalar();
  }
  return names.empty() ? "none has a name" : "names: " + names;
}

}  // namespace

ScenarioKey ParseScenarioKey(const std::string& text) {
  ScenarioKey key;
  key.text = text;
  const auto bad = [&text](size_t at, const std::string& what) {
    return InputError(fmt::format(
        "key '{}': {} at character {} (expected keys separated by '.', "
        "with [index], [name] or [\"key\"] selectors, as in "
        "cluster.pools[l4].sharing.replicas)",
        text, what, at + 1));
  };
  size_t i = 0;
  bool expect_key = true;  // at the start and after '.'
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[') {
      if (expect_key && key.steps.empty()) throw bad(i, "a selector first");
      if (expect_key) throw bad(i, "'[' after '.'");
      ScenarioKeyStep step;
      step.kind = ScenarioKeyStep::Kind::kSelector;
      size_t j = i + 1;
      if (j < text.size() && text[j] == '"') {
        const size_t close = text.find('"', j + 1);
        if (close == std::string::npos) throw bad(j, "an unclosed quote");
        step.text = text.substr(j + 1, close - j - 1);
        step.quoted = true;
        j = close + 1;
        if (j >= text.size() || text[j] != ']') throw bad(j, "no ']'");
      } else {
        const size_t close = text.find(']', j);
        if (close == std::string::npos) throw bad(i, "an unclosed '['");
        step.text = text.substr(j, close - j);
        for (size_t k = j; k < close; ++k) {
          if (text[k] == '[' || text[k] == '"' ||
              std::isspace(static_cast<unsigned char>(text[k]))) {
            throw bad(k, fmt::format("'{}' in a selector", text[k]));
          }
        }
        j = close;
      }
      if (step.text.empty()) throw bad(i, "an empty selector");
      key.steps.push_back(std::move(step));
      i = j + 1;
      expect_key = false;
      continue;
    }
    if (c == '.') {
      if (expect_key) throw bad(i, "an empty key");
      expect_key = true;
      ++i;
      continue;
    }
    if (!expect_key) throw bad(i, fmt::format("'{}' after a selector", c));
    size_t j = i;
    while (j < text.size() && IsBareKeyChar(text[j])) ++j;
    if (j == i) throw bad(i, fmt::format("'{}'", c));
    key.steps.push_back({ScenarioKeyStep::Kind::kKey, text.substr(i, j - i)});
    i = j;
    expect_key = false;
  }
  if (expect_key) {
    throw bad(text.empty() ? 0 : text.size() - 1,
              text.empty() ? "nothing" : "an empty key");
  }
  return key;
}

bool ScenarioKeyWithin(const ScenarioKey& inner, const ScenarioKey& outer) {
  if (inner.steps.size() < outer.steps.size()) return false;
  for (size_t i = 0; i < outer.steps.size(); ++i) {
    // A mapping key reads the same bare or in brackets.
    if (inner.steps[i].text != outer.steps[i].text) return false;
  }
  return true;
}

void SetScenarioValue(YAML::Node root, const ScenarioKey& key,
                      const YAML::Node& value) {
  // yaml-cpp: `a = b` on a node of the tree replaces its value; `reset()`
  // re-points a variable. Nothing changes before the last step is found.
  YAML::Node node = root;
  size_t i = 0;
  for (; i < key.steps.size(); ++i) {
    const ScenarioKeyStep& step = key.steps[i];
    const bool last = i + 1 == key.steps.size();
    if (node.IsSequence()) {
      if (step.kind == ScenarioKeyStep::Kind::kKey) {
        throw InputError(fmt::format(
            "key '{}': {} is a list; name an item with [index] or [name]",
            key.text, Prefix(key, i)));
      }
      YAML::Node item(YAML::NodeType::Undefined);
      if (IsIndex(step)) {
        const size_t index = std::strtoul(step.text.c_str(), nullptr, 10);
        if (index >= node.size()) {
          throw InputError(fmt::format("key '{}': {} has {} items, no index {}",
                                       key.text, Prefix(key, i), node.size(),
                                       index));
        }
        item.reset(node[index]);
      } else {
        for (const YAML::Node& candidate : node) {
          const YAML::Node name = candidate.IsMap()
                                      ? Lookup(candidate, "name")
                                      : YAML::Node(YAML::NodeType::Undefined);
          if (name.IsDefined() && name.IsScalar() &&
              name.Scalar() == step.text) {
            item.reset(candidate);
            break;
          }
        }
        if (!item.IsDefined()) {
          throw InputError(
              fmt::format("key '{}': no item named '{}' in {} ({})", key.text,
                          step.text, Prefix(key, i), ItemNames(node)));
        }
      }
      if (last) {
        item = value;  // rebinds the list's item to the new value
        return;
      }
      node.reset(item);
      continue;
    }
    if (!node.IsMap()) {
      throw InputError(
          fmt::format("key '{}': {} is {}, not a mapping or a list", key.text,
                      Prefix(key, i), DescribeYamlNode(node)));
    }
    YAML::Node child = Lookup(node, step.text);
    if (!child.IsDefined()) break;  // added below
    if (last) {
      child = value;  // rebinds the mapping's value to the new one
      return;
    }
    node.reset(child);
  }
  // Steps i.. are not in the tree: they must all be mapping keys (a list
  // item cannot be made up), then the mappings are added.
  for (size_t k = i + 1; k < key.steps.size(); ++k) {
    if (key.steps[k].kind == ScenarioKeyStep::Kind::kSelector &&
        (IsIndex(key.steps[k]) || !key.steps[k].quoted)) {
      throw InputError(fmt::format(
          "key '{}': the scenario has no {}, so {} cannot be selected in it",
          key.text, Prefix(key, k), Prefix(key, k + 1)));
    }
  }
  for (size_t k = i; k + 1 < key.steps.size(); ++k) {
    YAML::Node map(YAML::NodeType::Map);
    node[key.steps[k].text] = map;
    node.reset(map);
  }
  node[key.steps.back().text] = value;
}

}  // namespace gpushare
