#include "gpushare/decide/sweep_point.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <utility>
#include <vector>

#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

// One key set to one of its values.
struct Setting {
  const SweepKey* key;
  int value;
};

class PointReader {
 public:
  // `parsed_grid`: the grid's tree, parsed once by the caller (nullptr: the
  // grid is parsed anew for the point).
  PointReader(const SweepGrid& grid, const std::string& scenario_text,
              const std::string& scenario_file, const Catalog& catalog,
              const YAML::Node* parsed_grid)
      : grid_(grid),
        scenario_text_(scenario_text),
        scenario_file_(scenario_file),
        catalog_(catalog),
        parsed_grid_(parsed_grid) {}

  SweepPoint Read(int64_t point) {
    std::vector<Setting> set;
    for (const SweepKey& k : grid_.set) set.push_back({&k, 0});
    std::vector<Setting> varied;
    const std::vector<const SweepKey*> keys = grid_.VariedKeys();
    const std::vector<int> indexes = grid_.ValueIndexes(point);
    for (size_t k = 0; k < keys.size(); ++k) {
      varied.push_back({keys[k], indexes[k]});
    }
    std::vector<Setting> all = set;
    all.insert(all.end(), varied.begin(), varied.end());
    if (parsed_grid_ != nullptr) {
      // Copies of the point's values alone (linear in what the point
      // uses); an error is found again below with the grid's marks.
      try {
        SweepPoint p = ReadTree(BuildFrom(*parsed_grid_, all, true));
        p.index = point;
        return p;
      } catch (const InputError&) {
      }
    }
    const YAML::Node root = Build(all);  // a key leading nowhere throws
    try {
      SweepPoint p = ReadTree(root);
      p.index = point;
      return p;
    } catch (const InputError& e) {
      Blame(point, set, varied, e);
    }
  }

 private:
  // The scenario's tree with `settings` made.
  // The grid is parsed anew: its values become part of this tree, with
  // their marks (yaml-cpp shares an assigned node and merges the memory of
  // the two trees, so one grid tree cannot serve every point).
  YAML::Node Build(const std::vector<Setting>& settings) const {
    return BuildFrom(ParseYaml(grid_.text, grid_.file), settings, false);
  }

  // With `copy`, each value is a deep copy (YAML::Clone, without marks):
  // `grid_root` is left as it was.
  YAML::Node BuildFrom(const YAML::Node& grid_root,
                       const std::vector<Setting>& settings, bool copy) const {
    YAML::Node root = ParseYaml(scenario_text_, scenario_file_);
    for (const Setting& s : settings) {
      try {
        const YAML::Node value = ValueNode(grid_root, s);
        SetScenarioValue(root, s.key->key, copy ? YAML::Clone(value) : value);
      } catch (const InputError& e) {
        throw InputError(grid_.file, s.key->line, s.key->column,
                         s.key->section + " " + e.message());
      }
    }
    return root;
  }

  YAML::Node ValueNode(const YAML::Node& grid_root, const Setting& s) const {
    const SweepKey& k = *s.key;
    // A range's value: a new scalar, with no place in any file.
    if (!k.written) return YAML::Node(k.values[s.value]);
    const YAML::Node& section = grid_root[k.section];
    const YAML::Node value = section[k.key.text];
    return k.section == "set" ? value : value[s.value];
  }

  SweepPoint ReadTree(const YAML::Node& root) const {
    SweepPoint p;
    p.scenario = ReadScenarioNode(root, scenario_file_, catalog_);
    if (grid_.command == SweepCommand::kCompare) {
      p.spec = ReadComparisonSpecNode(root, scenario_file_, p.scenario);
    }
    return p;
  }

  std::optional<InputError> Fails(const std::vector<Setting>& settings) const {
    try {
      ReadTree(Build(settings));
    } catch (const InputError& e) {
      return e;
    }
    return std::nullopt;
  }

  [[noreturn]] void Blame(int64_t point, const std::vector<Setting>& set,
                          const std::vector<Setting>& varied,
                          const InputError& error) const {
    // The scenario's own error, when it has one: a value is to blame only
    // for another error.
    const std::optional<InputError> own = Fails({});
    if (own && std::string(own->what()) == error.what()) throw error;
    const auto fails = [&](const std::vector<Setting>& settings) {
      std::optional<InputError> e = Fails(settings);
      if (e && own && std::string(e->what()) == own->what()) e.reset();
      return e;
    };
    if (!set.empty()) {
      if (const std::optional<InputError> e = fails(set)) {
        for (const Setting& s : set) {
          if (const std::optional<InputError> alone = fails({s})) {
            ThrowAt(s, *alone);
          }
        }
        throw InputError(grid_.file, set.front().key->line,
                         set.front().key->column,
                         "the set values together make the scenario "
                         "invalid: " +
                             std::string(e->what()));
      }
    }
    for (const Setting& v : varied) {
      std::vector<Setting> with = set;
      with.push_back(v);
      if (const std::optional<InputError> e = fails(with)) ThrowAt(v, *e);
    }
    // The reader's place is in the grid when it is one of the values.
    std::string inner = error.what();
    const YAML::Node grid_root = ParseYaml(grid_.text, grid_.file);
    for (const std::vector<Setting>* group : {&set, &varied}) {
      for (const Setting& s : *group) {
        if (error.line() > 0 && WithinValue(ValueNode(grid_root, s),
                                            error.line(), error.column())) {
          inner = fmt::format("{}:{}:{}: {}", grid_.file, error.line(),
                              error.column(), error.message());
        }
      }
    }
    const SweepKey& first = *varied.front().key;
    throw InputError(
        grid_.file, first.line, first.column,
        fmt::format("point {} ({}): these values together make the scenario "
                    "invalid: {}",
                    point, DescribeSweepPoint(grid_, point), inner));
  }

  // The error `e` of the reader, blamed on setting `s`.
  [[noreturn]] void ThrowAt(const Setting& s, const InputError& e) const {
    const SweepKey& k = *s.key;
    auto [line, column] = k.value_marks[s.value];
    if (line == 0) std::tie(line, column) = std::pair(k.line, k.column);
    std::string where;
    if (e.line() > 0 &&
        !WithinValue(ValueNode(ParseYaml(grid_.text, grid_.file), s), e.line(),
                     e.column())) {
      where = fmt::format(" (at {}:{}:{})", e.file(), e.line(), e.column());
    }
    throw InputError(grid_.file, line, column,
                     fmt::format("{} '{}' = {}: {}{}", k.section, k.key.text,
                                 k.values[s.value], e.message(), where));
  }

  // Whether a node of `value`'s subtree is at line:column of the grid.
  static bool WithinValue(const YAML::Node& value, int line, int column) {
    std::vector<YAML::Node> pending = {value};
    while (!pending.empty()) {
      const YAML::Node n = pending.back();
      pending.pop_back();
      const YAML::Mark m = n.Mark();
      if (!m.is_null() && m.line + 1 == line && m.column + 1 == column) {
        return true;
      }
      if (n.IsMap()) {
        for (auto it = n.begin(); it != n.end(); ++it) {
          pending.push_back(it->first);
          pending.push_back(it->second);
        }
      } else if (n.IsSequence()) {
        for (const YAML::Node& item : n) pending.push_back(item);
      }
    }
    return false;
  }

  const SweepGrid& grid_;
  const std::string& scenario_text_;
  const std::string& scenario_file_;
  const Catalog& catalog_;
  const YAML::Node* parsed_grid_;
};

}  // namespace

SweepPointReader::SweepPointReader(const SweepGrid& grid,
                                   const std::string& scenario_text,
                                   const std::string& scenario_file,
                                   const Catalog& catalog)
    : grid_(grid),
      scenario_text_(scenario_text),
      scenario_file_(scenario_file),
      catalog_(catalog),
      grid_root_(ParseYaml(grid.text, grid.file)) {}

SweepPoint SweepPointReader::Read(int64_t point) const {
  return PointReader(grid_, scenario_text_, scenario_file_, catalog_,
                     &grid_root_)
      .Read(point);
}

SweepPoint ReadSweepPoint(const SweepGrid& grid,
                          const std::string& scenario_text,
                          const std::string& scenario_file, int64_t point,
                          const Catalog& catalog) {
  return SweepPointReader(grid, scenario_text, scenario_file, catalog)
      .Read(point);
}

std::string DescribeSweepPoint(const SweepGrid& grid, int64_t point) {
  const std::vector<const SweepKey*> keys = grid.VariedKeys();
  const std::vector<std::string> values = grid.ValueTexts(point);
  std::string out;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (k > 0) out += ", ";
    out += keys[k]->key.text + "=" + values[k];
  }
  return out;
}

}  // namespace gpushare
