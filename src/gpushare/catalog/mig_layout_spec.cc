#include "gpushare/catalog/mig_layout_spec.h"

#include <charconv>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr int kMaxInstanceCount = 64;

int ParseSmallInt(const std::string& text, const std::string& item,
                  const char* what, int min, int max) {
  int value = -1;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      value < min || value > max) {
    throw InputError("MIG layout item '" + item + "': " + what + " '" + text +
                     "' is not an integer in " + std::to_string(min) + ".." +
                     std::to_string(max));
  }
  return value;
}

void ParseItem(const GpuModel& model, const std::string& item,
               MigLayoutSpec& spec) {
  if (item.empty()) {
    throw InputError("empty MIG layout item (expected profile, profile@start "
                     "or profile:count)");
  }
  const size_t at = item.find('@');
  const size_t colon = item.find(':');
  if (at != std::string::npos && colon != std::string::npos) {
    throw InputError("MIG layout item '" + item +
                     "': use profile@start or profile:count, not both");
  }
  const size_t cut = at != std::string::npos ? at : colon;
  const std::string name = item.substr(0, cut);
  const int profile = model.RequireProfile(name);
  const int memory_slices = model.mig->memory_slices;
  if (at != std::string::npos) {
    spec.fixed.push_back(
        {profile, ParseSmallInt(item.substr(at + 1), item, "start", 0,
                                memory_slices - 1)});
  } else if (colon != std::string::npos) {
    const int count = ParseSmallInt(item.substr(colon + 1), item, "count", 0,
                                    kMaxInstanceCount);
    spec.free_profiles.insert(spec.free_profiles.end(), count, profile);
  } else {
    spec.free_profiles.push_back(profile);
  }
}

}  // namespace

MigLayoutSpec ParseMigLayoutSpec(const GpuModel& model,
                                 const std::vector<std::string>& items) {
  model.RequireMig();
  MigLayoutSpec spec;
  for (const std::string& item : items) {
    size_t begin = 0;
    while (true) {
      const size_t comma = item.find(',', begin);
      ParseItem(model, item.substr(begin, comma - begin), spec);
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
  }
  return spec;
}

MigLayout ResolveMigLayout(const GpuModel& model,
                           const std::vector<std::string>& items) {
  const MigLayoutSpec spec = ParseMigLayoutSpec(model, items);
  if (spec.fixed.empty() && spec.free_profiles.empty()) {
    throw InputError("empty MIG layout: give at least one profile");
  }
  if (std::string problem = FindMigLayoutProblem(model, spec.fixed);
      !problem.empty()) {
    throw InputError(problem);
  }
  std::string why_not;
  std::optional<MigLayout> layout =
      PlaceMigProfiles(model, spec.fixed, spec.free_profiles, &why_not);
  if (!layout) throw InputError(why_not);
  return *layout;
}

}  // namespace gpushare
