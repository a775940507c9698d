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
#include "gpushare/decide/plan_spec_reader.h"
#include "gpushare/decide/planner.h"
#include "gpushare/decide/pool_scheme_resolution.h"
#include "gpushare/decide/selection.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/output_file.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/comparison_answer.h"
#include "gpushare/report/comparison_html.h"
#include "gpushare/report/comparison_json.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/metrics_fidelity_report.h"
#include "gpushare/report/next_steps.h"
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
  bool details = false;       // the full text instead of the compact answer
  bool preview_plan = false;  // run the planner for the next step's preview
};

// The `plan` command that answers what this compare leaves open: the same
// scenario, catalog, seeds and calibration.
std::string PlanCommand(const CompareArgs& args, const GlobalOptions& options) {
  std::string out = "gpushare-sim";
  if (!options.catalog_file.empty()) {
    out += " --catalog " + ShellWord(options.catalog_file);
  }
  out += " plan";
  if (!args.scenario.empty()) out += " " + ShellWord(args.scenario);
  if (args.seeds > 0) out += " --seeds " + std::to_string(args.seeds);
  if (!args.model.calibration.empty()) {
    out += " --calibration " + ShellWord(args.model.calibration);
  }
  return out;
}

// `plan`'s answer on the same scenario, built as `plan` builds it (no
// --seed or --model override: `plan` has neither).
PlanResult PreviewPlan(const std::string& text, const std::string& file,
                       const CompareArgs& args, const Catalog& catalog) {
  Scenario scenario = ReadScenarioYaml(text, file, catalog);
  ApplyModelOptions(args.model, &scenario);
  ComparisonSpec spec = ReadComparisonSpec(text, file, scenario);
  if (args.seeds > 0) spec.compare.seeds = args.seeds;
  const PlanSpec plan_spec = ReadPlanSpec(text, file, scenario, spec.selection);
  ProgressAggregate progress;
  ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
  return RunPlanner(scenario, spec, plan_spec, catalog, args.threads,
                    /*budget_s=*/0,
                    [&progress]() -> std::unique_ptr<SimulationObserver> {
                      return std::make_unique<ProgressObserver>(&progress);
                    });
}

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
  // The next step's preview: the planner, only when a class needs it.
  std::unique_ptr<PlanResult> preview;
  const bool overridden =
      args.seed >= 0 || (!args.model.profile.empty() &&
                         args.model.profile != "default");
  if (args.preview_plan && !overridden &&
      !ClassesNotServedWell(selection).empty()) {
    preview = std::make_unique<PlanResult>(
        PreviewPlan(text, file, args, catalog));
  }
  const double shown_wall_s = args.quiet ? 0 : wall_s;
  const std::string report =
      (args.details ? ComparisonReport(comparison, selection, shown_wall_s)
                    : ComparisonAnswer(comparison, selection, shown_wall_s)) +
      ReplayCheckText(today.check) +
      (fidelity == nullptr ? std::string() : MetricsFidelityText(*fidelity)) +
      (args.details ? ScenarioNotes(scenario) : std::string()) +
      NextSteps(comparison, selection, PlanCommand(args, options),
                preview.get()) +
      (args.details ? std::string() : "\n" + DetailsPointer(comparison));
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
  cmd->add_flag("--details", args->details,
                "Print every run's pools, the cluster-wide and per-scheme "
                "tables, the scores per dimension and why each scheme won "
                "(default: the answer, the pool plan and two tables)");
  cmd->add_flag("--preview-plan", args->preview_plan,
                "When a class is not served well on today's nodes, also run "
                "`plan` on the scenario and print its answer on one line "
                "(takes about as long as `plan`)");
  cmd->add_flag("--quiet", args->quiet,
                "Leave the wall time out of the report (reproducible text) "
                "and show no progress bar");
  cmd->callback([&options, args] { Compare(*args, options); });
}

}  // namespace gpushare::cli
