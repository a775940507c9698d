#include "gpushare/decide/sweep_grid_reader.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

std::pair<int, int> MarkOf(const YAML::Node& node) {
  const YAML::Mark m = node.Mark();
  if (m.is_null()) return {0, 0};
  return {m.line + 1, m.column + 1};
}

// A value as outputs show it: a scalar as written, else YAML flow style.
std::string ValueText(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

bool IsIntegerText(const std::string& s) {
  int64_t v = 0;
  const char* begin = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
  const auto [end, error] = std::from_chars(begin, s.data() + s.size(), v);
  return error == std::errc() && end == s.data() + s.size();
}

// Fails unless the grid file is at most kMaxSweepGridBytes: at the line
// and column of its first byte past the limit.
void CheckGridSize(const std::string& text, const std::string& file) {
  if (static_cast<int64_t>(text.size()) <= kMaxSweepGridBytes) return;
  const std::string_view head(text.data(), kMaxSweepGridBytes);
  const size_t newline = head.rfind('\n');
  const int line =
      1 + static_cast<int>(std::count(head.begin(), head.end(), '\n'));
  const int column = static_cast<int>(newline == std::string_view::npos
                                          ? head.size() + 1
                                          : head.size() - newline);
  throw InputError(
      file, line, column,
      fmt::format("sweep grid: {} bytes; at most {} (16 MiB) per grid file "
                  "(split the sweep into several grids)",
                  text.size(), kMaxSweepGridBytes));
}

class GridReader {
 public:
  GridReader(const std::string& text, const std::string& file)
      : file_(file), root_(ParseYaml(text, file)) {}

  SweepGrid Read(bool scenario_given) {
    if (!root_.IsDefined() || root_.IsNull()) {
      throw InputError(file_, 1, 1,
                       "empty sweep grid (expected 'cross:' or 'zip:' with "
                       "the keys to vary)");
    }
    const YamlMap top(file_, root_, "sweep grid");
    top.AllowOnly({"scenario", "command", "set", "cross", "zip"});
    SweepGrid grid;
    grid.file = file_;
    if (!scenario_given) {
      if (!top.Has("scenario")) {
        FailAt(file_, root_,
               "sweep grid: missing key 'scenario' (the scenario file to "
               "sweep, relative to the grid), and none was given on the "
               "command line");
      }
      grid.scenario = top.InputPath("scenario");
    }
    if (top.Has("command")) {
      const std::string command = top.String("command");
      if (command == "run") {
        grid.command = SweepCommand::kRun;
      } else if (command == "compare") {
        grid.command = SweepCommand::kCompare;
      } else {
        FailAt(file_, top.Get("command"),
               fmt::format("sweep grid command: '{}' is not a command a "
                           "sweep runs (expected run or compare)",
                           command));
      }
    }
    if (top.Has("set")) grid.set = Section(top, "set");
    if (top.Has("cross")) grid.cross = Section(top, "cross");
    if (top.Has("zip")) grid.zip = Section(top, "zip");
    if (grid.cross.empty() && grid.zip.empty()) {
      FailAt(file_, root_,
             "sweep grid: nothing varies (expected 'cross:' or 'zip:' with "
             "at least one key and its values)");
    }
    CheckZipLengths(grid.zip);
    if (!grid.zip.empty()) {
      CheckPoints(grid.zip.front(),
                  static_cast<int64_t>(grid.zip.front().values.size()));
    }
    grid.points = points_;
    return grid;
  }

 private:
  std::vector<SweepKey> Section(const YamlMap& top, const char* section) {
    const YamlMap map = top.Map(section, std::string("sweep grid ") + section);
    CheckNoDuplicateKeys(file_, map.node());  // any key is allowed
    std::vector<SweepKey> keys;
    for (auto it = map.node().begin(); it != map.node().end(); ++it) {
      SweepKey k;
      k.section = section;
      std::tie(k.line, k.column) = MarkOf(it->first);
      if (static_cast<int64_t>(seen_.size()) >= kMaxSweepKeys) {
        FailAt(file_, it->first,
               fmt::format("sweep grid: more than {} keys (set, cross and "
                           "zip together)",
                           kMaxSweepKeys));
      }
      const std::string text = ScalarString(file_, it->first, "key");
      try {
        k.key = ParseScenarioKey(text);
      } catch (const InputError& e) {
        FailAt(file_, it->first, std::string(section) + " " + e.message());
      }
      CheckNoOverlap(k, it->first);
      const YAML::Node value = it->second;
      if (std::string_view(section) == "set") {
        if (!value.IsDefined() || value.IsNull()) {
          FailAt(file_, it->first,
                 fmt::format("set '{}': expected a value, got nothing", text));
        }
        AddValue(value, &k);
      } else if (value.IsSequence()) {
        ListValues(value, &k);
      } else if (value.IsMap() && std::string_view(section) == "cross") {
        RangeValues(value, &k);
      } else {
        FailAt(file_, value.IsDefined() && !value.IsNull() ? value : it->first,
               fmt::format("{} '{}': expected a list of values{}, got {}",
                           section, text,
                           std::string_view(section) == "cross"
                               ? " or a range {from, to, step}"
                               : "",
                           DescribeYamlNode(value)));
      }
      seen_.push_back(k);
      keys.push_back(std::move(k));
    }
    return keys;
  }

  void CheckNoOverlap(const SweepKey& k, const YAML::Node& at) {
    for (const SweepKey& other : seen_) {
      const bool inside = ScenarioKeyWithin(k.key, other.key);
      if (inside || ScenarioKeyWithin(other.key, k.key)) {
        FailAt(file_, at,
               fmt::format("{} '{}': {} '{}' ({} at line {}); a grid sets "
                           "each value once",
                           k.section, k.key.text,
                           inside ? "already set by" : "contains",
                           other.key.text, other.section, other.line));
      }
    }
  }

  void ListValues(const YAML::Node& list, SweepKey* k) {
    if (list.size() == 0) {
      FailAt(file_, list,
             fmt::format("{} '{}': expected at least one value, got an "
                         "empty list",
                         k->section, k->key.text));
    }
    if (static_cast<int64_t>(list.size()) > kMaxSweepAxisValues) {
      FailAt(file_, list,
             fmt::format("{} '{}': {} values; at most {} per key", k->section,
                         k->key.text, list.size(), kMaxSweepAxisValues));
    }
    if (k->section == "cross") {
      CheckPoints(*k, static_cast<int64_t>(list.size()));
    }
    for (const YAML::Node& v : list) {
      if (v.IsNull()) {
        FailAt(file_, v,
               fmt::format("{} '{}': a value must not be empty", k->section,
                           k->key.text));
      }
      AddValue(v, k);
    }
  }

  // Adds `value` to `k`'s values, at most kMaxSweepValueBytes of it.
  void AddValue(const YAML::Node& value, SweepKey* k) {
    const size_t bytes = value.IsScalar() ? value.Scalar().size() : 0;
    std::string text = bytes > 0 ? std::string() : ValueText(value);
    const size_t size = std::max(bytes, text.size());
    if (static_cast<int64_t>(size) > kMaxSweepValueBytes) {
      FailAt(file_, value,
             fmt::format("{} '{}': a value of {} bytes; at most {} (1 MiB) "
                         "per value (each point's scenario holds its values)",
                         k->section, k->key.text, size, kMaxSweepValueBytes));
    }
    k->values.push_back(bytes > 0 ? value.Scalar() : std::move(text));
    k->value_marks.push_back(MarkOf(value));
  }

  void RangeValues(const YAML::Node& node, SweepKey* k) {
    const YamlMap range(file_, node, fmt::format("cross '{}'", k->key.text));
    range.AllowOnly({"from", "to", "step"});
    const YAML::Node from = range.Get("from");
    const YAML::Node to = range.Get("to");
    const bool has_step = range.Has("step");
    const bool integers =
        from.IsScalar() && IsIntegerText(from.Scalar()) && to.IsScalar() &&
        IsIntegerText(to.Scalar()) &&
        (!has_step || (range.Get("step").IsScalar() &&
                       IsIntegerText(range.Get("step").Scalar())));
    constexpr double kHuge = 1e15;
    const double lo = range.Double("from", -kHuge, kHuge);
    const double hi = range.Double("to", -kHuge, kHuge);
    const double step = has_step ? range.Double("step", 0, kHuge) : 1;
    if (step <= 0) {
      FailAt(file_, range.Get("step"),
             fmt::format("{} step: must be above 0", range.what()));
    }
    if (hi < lo) {
      FailAt(file_, to,
             fmt::format("{} to: {} is below from ({})", range.what(),
                         to.Scalar(), from.Scalar()));
    }
    // A tolerance so that 0.1..0.3 by 0.1 has its last value.
    const double count = std::floor((hi - lo) / step + 1e-9) + 1;
    if (count > static_cast<double>(kMaxSweepAxisValues)) {
      FailAt(file_, node,
             fmt::format("{}: {:.0f} values; at most {} per key", range.what(),
                         count, kMaxSweepAxisValues));
    }
    CheckPoints(*k, static_cast<int64_t>(count));
    const std::pair<int, int> mark = MarkOf(node);
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
      const double v = lo + static_cast<double>(i) * step;
      k->values.push_back(integers ? fmt::format("{}", std::llround(v))
                                   : fmt::format("{:.12g}", v));
      k->value_marks.push_back(mark);
    }
    k->written = false;
  }

  // Counts the points of the axes read so far with `values` more for `k`
  // (cross values before they are made): too many is an error at the key.
  void CheckPoints(const SweepKey& k, int64_t values) {
    points_ *= values;
    if (points_ > kMaxSweepPoints) {
      throw InputError(
          file_, k.line, k.column,
          fmt::format("sweep grid: more than {} points with '{}' (a grid "
                      "that large is better split into several sweeps)",
                      kMaxSweepPoints, k.key.text));
    }
  }

  void CheckZipLengths(const std::vector<SweepKey>& zip) {
    for (const SweepKey& k : zip) {
      if (k.values.size() != zip.front().values.size()) {
        throw InputError(
            file_, k.line, k.column,
            fmt::format("zip '{}': {} values, but '{}' has {}; zipped keys "
                        "vary together and need lists of one length",
                        k.key.text, k.values.size(), zip.front().key.text,
                        zip.front().values.size()));
      }
    }
  }

  std::string file_;
  YAML::Node root_;
  std::vector<SweepKey> seen_;
  int64_t points_ = 1;
};

}  // namespace

SweepGrid ReadSweepGrid(const std::string& text, const std::string& file,
                        bool scenario_given) {
  CheckGridSize(text, file);
  SweepGrid grid = GridReader(text, file).Read(scenario_given);
  grid.text = text;
  return grid;
}

SweepGrid ReadSweepGridFile(const std::string& path, bool scenario_given) {
  return ReadSweepGrid(ReadInputFile(path), path, scenario_given);
}

}  // namespace gpushare
