#include "gpushare/report/sweep_json.h"

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/comparison_json.h"

namespace gpushare {

using nlohmann::json;

std::string SweepPointJsonText(const SweepGrid& grid, const std::string& digest,
                               const SweepPointResult& r) {
  json keys = json::array();
  for (const SweepKey* k : grid.VariedKeys()) keys.push_back(k->key.text);
  json variants = json::array();
  for (const VariantOutcome& v : r.variants) {
    json j = VariantOutcomeToJson(v, r.tenant_classes);
    if (grid.command == SweepCommand::kRun) {
      j["label"] = "scenario";
      j["scheme"] = r.scheme;
    }
    variants.push_back(std::move(j));
  }
  json out = {{"schema", kSweepPointSchema},
              {"sweep",
               {{"digest", digest},
                {"command", SweepCommandName(grid.command)},
                {"points", grid.points},
                {"keys", keys}}},
              {"point", r.point},
              {"values", r.values},
              {"tenant_classes", r.tenant_classes},
              {"variants", variants}};
  if (grid.command == SweepCommand::kCompare) {
    json winners = json::object();
    for (size_t k = 0; k < r.tenant_classes.size(); ++k) {
      winners[r.tenant_classes[k]] =
          r.winners[k].empty() ? json(nullptr) : json(r.winners[k]);
    }
    out["winners"] = winners;
    out["pool_plan"] = PoolSchemePlanJson(r.pool_plan);
  }
  return out.dump(2) + "\n";
}

std::string SweepPointFileName(int64_t point) {
  return fmt::format("point-{:06d}.json", point);
}

SweepPointFile ParseSweepPointFile(const std::string& text,
                                   const std::string& path, bool keep_json) {
  const auto bad = [&path](const std::string& why) {
    return InputError(path, 0, 0,
                      fmt::format("not a sweep point file of "
                                  "gpushare-sim ({}): {}",
                                  kSweepPointSchema, why));
  };
  SweepPointFile f;
  f.path = path;
  try {
    f.json = json::parse(text);
  } catch (const json::exception& e) {
    throw bad(e.what());
  }
  try {
    if (f.json.at("schema").get<std::string>() != kSweepPointSchema) {
      throw bad("schema " + f.json.at("schema").dump());
    }
    const json& sweep = f.json.at("sweep");
    f.digest = sweep.at("digest").get<std::string>();
    f.command = sweep.at("command").get<std::string>();
    f.points = sweep.at("points").get<int64_t>();
    f.keys = sweep.at("keys").get<std::vector<std::string>>();
    f.point = f.json.at("point").get<int64_t>();
    const auto values = f.json.at("values").get<std::vector<std::string>>();
    f.json.at("tenant_classes").get<std::vector<std::string>>();
    if (!f.json.at("variants").is_array()) throw bad("variants: not a list");
    if (f.points < 1 || f.points > kMaxSweepPoints || f.point < 0 ||
        f.point >= f.points) {
      throw bad(fmt::format("point {} of {}", f.point, f.points));
    }
    if (values.size() != f.keys.size()) {
      throw bad(
          fmt::format("{} values for {} keys", values.size(), f.keys.size()));
    }
    if (f.command != "run" && f.command != "compare") {
      throw bad("command '" + f.command + "'");
    }
  } catch (const json::exception& e) {
    throw bad(e.what());
  }
  if (!keep_json) f.json = nullptr;
  return f;
}

SweepPointFile ReadSweepPointFile(const std::string& path, bool keep_json) {
  return ParseSweepPointFile(ReadInputFile(path), path, keep_json);
}

}  // namespace gpushare
