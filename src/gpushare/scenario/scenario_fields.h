// The located-field helpers shared by the scenario's section readers
// (scenario/*_reader.cc): a key's value read with its range, list or choice
// checked, and errors placed at the key or the value (file:line:col).
//
// Contract: every helper throws InputError (io/input_error.h) at the place
// in the YAML file that the message is about, naming the key as
// "<section> <key>" (YamlMap::what()); none returns on bad input. The
// limits below bound what any scenario field accepts.

#ifndef GPUSHARE_SCENARIO_SCENARIO_FIELDS_H_
#define GPUSHARE_SCENARIO_SCENARIO_FIELDS_H_

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace scenario_internal {

// Bounds of scenario fields.
inline constexpr double kMaxSeconds = 1e9;  // about 31 years of simulated time
inline constexpr double kMaxCpuCores = 100000;
inline constexpr double kMaxMemoryGib = 1048576;  // 1 PiB
inline constexpr double kMaxScenarioRate = 1e6;
inline constexpr int64_t kMaxClassCount = 10000000;
inline constexpr double kLowest = std::numeric_limits<double>::lowest();
inline constexpr double kHighest = std::numeric_limits<double>::max();

// A number for messages: integers without a fraction or exponent.
std::string MessageNum(double v);

// How messages name `key` of `m`: "<what> <key>".
std::string Label(const YamlMap& m, std::string_view key);

// The key node of `key` in `m` (for errors about a key), or the mapping.
YAML::Node KeyNode(const YamlMap& m, std::string_view key);

[[noreturn]] void FailKey(const YamlMap& m, std::string_view key,
                          const std::string& message);

// The value of required `key`; an empty value fails at the key.
YAML::Node Value(const YamlMap& m, std::string_view key,
                 std::string_view expected);

// A list under `key`; `non_empty` refuses [].
YAML::Node List(const YamlMap& m, std::string_view key, bool non_empty);

// A number in [min, max] (or (min, max] when `above_min`).
double Number(const YamlMap& m, std::string_view key, double min, double max,
              bool above_min = false);

// A string under `key` that must be one of `allowed`.
std::string Choice(const YamlMap& m, std::string_view key,
                   std::string_view noun,
                   const std::vector<std::string>& allowed);

// The what of a list item named by its `name` key, if it has one.
std::string NamedWhat(const std::string& file, const YAML::Node& node,
                      const std::string& kind);

// Whether `word` occurs in `text` as a whole word (not inside a longer name
// made of letters, digits and '_').
bool MentionsWord(std::string_view text, std::string_view word, size_t* at);

// Rethrows a validation error of the section `m` at the value of the key of
// `m` that its message mentions first (after a leading "<what>"), or at
// `fallback`. Keys in `ignored` are never chosen.
[[noreturn]] void FailAtMentionedKey(
    const YamlMap& m, const InputError& e, const YAML::Node& fallback,
    std::initializer_list<std::string_view> ignored);

// Refuses `keys` of `m` with `why` (settings that do not apply).
void Refuse(const YamlMap& m, std::initializer_list<std::string_view> keys,
            const std::string& why);

}  // namespace scenario_internal
}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_SCENARIO_FIELDS_H_
