// ReadScenarioNode() (scenario_reader.h): the scenario's top-level keys
// (name, seed, horizon, sampling, model, translation) and each section in
// the order the later ones depend on — cluster, priority classes, queues,
// workload, scheduler, faults, device-plugin stalls, patrol rules — each
// read by its own reader (scenario_sections.h and the *_reader.h files).

#include "gpushare/scenario/scenario_reader.h"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kai_queue_reader.h"
#include "gpushare/scenario/model_reader.h"
#include "gpushare/scenario/patrol_reader.h"
#include "gpushare/scenario/operator_tolerations_import.h"
#include "gpushare/scenario/platform_import.h"
#include "gpushare/scenario/platform_reader.h"
#include "gpushare/scenario/priority_class_reader.h"
#include "gpushare/scenario/queue_reader.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace {

using scenario_internal::kMaxSeconds;
using scenario_internal::Number;
using scenario_internal::ReadCluster;
using scenario_internal::ReadFaults;
using scenario_internal::ReadScheduler;
using scenario_internal::ReadWorkload;

ModelParams ReadModel(const YamlMap& top) {
  if (!top.Has("model")) return ModelParams{};
  return ReadModelSection(top.Map("model", "model"), ModelParams{},
                          /*allow_profile=*/true);
}

TranslationOptions ReadTranslation(const YamlMap& top) {
  TranslationOptions options;
  if (!top.Has("translation")) return options;
  YamlMap m = top.Map("translation", "translation");
  m.AllowOnly({"mig_match_sm_demand"});
  if (m.Has("mig_match_sm_demand")) {
    options.mig_match_sm_demand = m.Bool("mig_match_sm_demand");
  }
  return options;
}

std::string DefaultName(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  return stem.empty() ? "scenario" : stem;
}

}  // namespace

Scenario ReadScenarioYaml(const std::string& text, const std::string& file,
                          const Catalog& catalog) {
  return ReadScenarioNode(ParseYaml(text, file), file, catalog);
}

Scenario ReadScenarioNode(const YAML::Node& root, const std::string& file,
                          const Catalog& catalog) {
  if (!root.IsDefined() || root.IsNull()) {
    throw InputError(file, 1, 1,
                     "empty scenario file (expected 'cluster:' and "
                     "'workload:')");
  }
  YamlMap top(file, root, "scenario");
  top.AllowOnly({"name", "seed", "horizon_s", "sample_interval_s", "cluster",
                 "workload", "scheduler", "model", "translation", "faults",
                 "device_plugin_stalls", "patrol", "priority_classes", "queues",
                 "kai_queues", "platform",
                 // Read by `compare` (decide/comparison_spec_reader.h)
                 // and `plan` (decide/plan_spec_reader.h).
                 "compare", "selection", "plan"});
  Scenario scenario;
  scenario.file = file;
  scenario.name = DefaultName(file);
  if (top.Has("name")) {
    scenario.name = top.String("name");
    if (scenario.name.empty()) {
      FailAt(file, top.Get("name"), "scenario name: must not be empty");
    }
  }
  if (top.Has("seed")) {
    scenario.seed = static_cast<uint64_t>(
        top.Int("seed", 0, std::numeric_limits<int64_t>::max()));
  }
  if (top.Has("horizon_s")) {
    scenario.horizon_s = Number(top, "horizon_s", 0, kMaxSeconds);
  }
  if (top.Has("sample_interval_s")) {
    // DCGM exporters sample every few seconds at the finest; a bound keeps
    // the number of samples (and the outputs) sane.
    scenario.sample_interval_s =
        Number(top, "sample_interval_s", 1, kMaxSeconds);
    if (scenario.horizon_s / scenario.sample_interval_s > 1e6) {
      FailAt(file, top.Get("sample_interval_s"),
             fmt::format("sample_interval_s: {} s over a horizon of {} s "
                         "makes more than 1,000,000 samples; sample less "
                         "often",
                         scenario.sample_interval_s, scenario.horizon_s));
    }
  }
  scenario.pools = ReadCluster(top, catalog, &scenario.cluster_import_notes);
  scenario.priority_classes = ReadPriorityClasses(top);
  scenario.queues = ReadQueues(top, scenario.pools);
  scenario.kai_queues = ReadKaiQueues(top);
  if (scenario.queues.enabled() && scenario.kai_queues.enabled()) {
    FailAt(file, top.Get("kai_queues"),
           "kai_queues: the scenario has queues (Kueue) as well; a cluster "
           "admits through one queueing system, so keep one of the two");
  }
  // Kueue admits HAMi pods only with quotas of every resource they request.
  CoverHamiQueueResources(scenario.pools, catalog, &scenario.queues);
  scenario.workload = ReadWorkload(
      top, scenario.horizon_s, scenario.priority_classes, scenario.queues,
      scenario.kai_queues, scenario.pools, catalog);
  scenario.scheduler = ReadScheduler(top);
  scenario.scheduler.seed = scenario.seed;
  scenario.model = ReadModel(top);
  scenario.translation = ReadTranslation(top);
  scenario.faults = ReadFaults(top, scenario.pools);
  scenario.device_plugin_stalls = ReadDevicePluginStalls(top, scenario.pools);
  scenario.patrol = ReadPatrolRules(top);
  scenario.platform = ReadPlatform(top);
  ImportPlatformFromKubectl(top, &scenario);
  ImportPlatform(top, scenario.workload, &scenario.platform);
  return scenario;
}

Scenario ReadScenarioFile(const std::string& path, const Catalog& catalog) {
  return ReadScenarioYaml(ReadInputFile(path), path, catalog);
}

}  // namespace gpushare

