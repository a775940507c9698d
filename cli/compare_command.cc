// `gpushare-sim compare [SCENARIO]`: the scenario's workload on its hardware
// under every sharing scheme (and its own mixed plan), side by side, and the
// selection per tenant class. Without SCENARIO: the built-in default
// (examples/default.yaml).

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/flag_checks.h"
#include "cli/model_options.h"
#include "cli/todays_replay.h"
#include "gpushare/decide/comparison.h"
#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/default_scenario.h"
#include "gpushare/decide/pool_scheme_resolution.h"
#include "gpushare/decide/selection.h"
#include "gpushare/io/output_file.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/comparison_html.h"
#include "gpushare/report/comparison_json.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/metrics_fidelity_report.h"
#include "gpushare/report/progress_bar.h"
#include "gpushare/report/progress_observer.h"
#include "gpushare/report/scenario_notes.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare::cli {
namespace {

struct CompareArgs {
  std::string scenario;
  std::string json_file;
  std::string html_file;
  ModelOptions model;
  int64_t seed = -1;
  int threads = 0;
  int seeds = 0;  // 0: the scenario's compare.seeds
  bool quiet = false;
};

void Compare(const CompareArgs& args, const GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  const std::string file =
      args.scenario.empty() ? kDefaultScenarioFile : args.scenario;
  const std::string text = args.scenario.empty()
                               ? DefaultScenarioYaml()
                               : ReadInputFile(args.scenario);
  Scenario scenario = ReadScenarioYaml(text, file, catalog);
  ComparisonSpec spec = ReadComparisonSpec(text, file, scenario);
  if (args.seeds > 0) spec.compare.seeds = args.seeds;
  if (args.seed >= 0) {
    scenario = ScenarioWithSeed(scenario, static_cast<uint64_t>(args.seed));
  }
  ApplyModelOptions(args.model, &scenario);
  const auto begin = std::chrono::steady_clock::now();
  CheckOutputPathsEarly({args.json_file, args.html_file}, {});
  ProgressAggregate progress(ComparisonRunCount(scenario, spec.compare));
  Comparison comparison;
  Selection selection;
  {
    ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
    comparison = RunComparison(
        scenario, spec.compare, catalog, args.threads,
        [&progress]() -> std::unique_ptr<SimulationObserver> {
          return std::make_unique<ProgressObserver>(&progress);
        });
    selection = Select(comparison, spec.selection);
    AddPoolSchemePlan(scenario, spec, catalog, args.threads,
                      [&progress]() -> std::unique_ptr<SimulationObserver> {
                        return std::make_unique<ProgressObserver>(&progress);
                      },
                      &comparison, &selection);
  }
  // Today's replay against its recorded series, where the answer is read.
  const TodaysReplay today = ReplayToday(scenario, catalog);
  const MetricsFidelity* fidelity = today.fidelity.get();
  const double wall_s = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - begin)
                            .count();
  OutputBatch outputs;
  if (!args.json_file.empty()) {
    nlohmann::json json = ComparisonToJson(comparison, selection);
    if (fidelity != nullptr) {
      json["metrics_fidelity"] = MetricsFidelityJson(*fidelity);
    }
    if (today.check.running_pods > 0) {
      json["replay_check"] = ReplayCheckJson(today.check);
    }
    outputs.Add(args.json_file, json.dump(2) + "\n");
  }
  if (!args.html_file.empty()) {
    outputs.Add(args.html_file,
                ComparisonHtmlReport(comparison, selection,
                                     TodaysHtml(today)));
  }
  const std::string report =
      ComparisonReport(comparison, selection, args.quiet ? 0 : wall_s) +
      ReplayCheckText(today.check) +
      (fidelity == nullptr ? std::string() : MetricsFidelityText(*fidelity)) +
      ScenarioNotes(scenario);
  outputs.Commit();
  std::cout << report;
}

}  // namespace

void RegisterCompareCommand(CLI::App& app, GlobalOptions& options) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Run a scenario under every sharing scheme side by side and select a "
      "scheme per tenant class (default: the built-in scenario)");
  cmd->add_option("scenario", args->scenario,
                  "Scenario YAML file (docs/scenario.md); omit it for the "
                  "built-in default, examples/default.yaml")
      ->check(CLI::ExistingFile);
  cmd->add_option("--json", args->json_file,
                  "Write the comparison and selection as JSON "
                  "(docs/output.md)");
  cmd->add_option("--html", args->html_file,
                  "Write the comparison and selection as a self-contained "
                  "HTML report with charts (docs/output.md)");
  AddSeedOption(cmd, &args->seed);
  cmd->add_option("--seeds", args->seeds,
                  "Repeat every run on this many seeds (the scenario's seed, "
                  "seed + 1, ...) and call a win only when it holds on each "
                  "(default: the scenario's compare.seeds, 3)")
      ->check(CLI::Range(1, kMaxCompareSeeds));
  cmd->add_option("--threads", args->threads,
                  "Runs in parallel (0: one per core); results do not depend "
                  "on it")
      ->check(CLI::Range(0, 256));
  AddModelOptions(cmd, &args->model, /*with_profile=*/true);
  cmd->add_flag("--quiet", args->quiet,
                "Leave the wall time out of the report (reproducible text) "
                "and show no progress bar");
  cmd->callback([&options, args] { Compare(*args, options); });
}

}  // namespace gpushare::cli
