// `gpushare-sim plan SCENARIO`: the cheapest mix of pool settings and node
// counts that meets the scenario's constraints (decide/planner.h), with
// the configuration to apply it (--out DIR). When no plan meets them all
// it exits 3 and writes no configuration unless --force (the --json and
// --html reports, which say what is missed, are written).

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flag_checks.h"
#include "cli/model_options.h"
#include "cli/todays_replay.h"
#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/default_scenario.h"
#include "gpushare/decide/plan_spec_reader.h"
#include "gpushare/decide/planner.h"
#include "gpushare/emit/k8s_config.h"
#include "gpushare/emit/plan_scenario_yaml.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/output_file.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/metrics_fidelity_report.h"
#include "gpushare/report/plan_html.h"
#include "gpushare/report/plan_json.h"
#include "gpushare/report/plan_report.h"
#include "gpushare/report/progress_bar.h"
#include "gpushare/report/progress_observer.h"
#include "gpushare/report/scenario_notes.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare::cli {
namespace {

// The exit status when no plan meets every constraint.
constexpr int kConstraintsMissed = 3;

struct PlanArgs {
  std::string scenario;
  std::string out_dir;
  std::string json_file;
  std::string html_file;
  int threads = 0;
  int seeds = 0;  // 0: the scenario's compare.seeds
  double budget_s = 0;
  bool quiet = false;
  bool force = false;  // write --out even when constraints are missed
  ModelOptions model;
};

// `calibration` and `catalog` are paths as given on the command line; the
// replay command names them as seen from `folder`, where scenario.yaml is.
std::string Header(const PlanResult& r, const std::string& file,
                   const std::string& calibration, const std::string& catalog,
                   const std::string& folder) {
  std::string h = "The plan `gpushare-sim plan " + file + "` chose (" +
                  r.chosen_from + "):\n";
  for (const std::string& p : r.chosen.pools) h += "  " + p + "\n";
  if (!r.chosen.feasible) {
    h += "It misses constraints (written with --force): " +
         DescribeChecks(Missed(r.chosen.checks)) + "\n";
  }
  h += "Replay it from this folder with: gpushare-sim " +
       (catalog.empty()
            ? std::string()
            : "--catalog " + ShellWord(PathForFolder(catalog, "", folder)) +
                  " ") +
       "run scenario.yaml" +
       (calibration.empty()
            ? std::string()
            : " --calibration " +
                  ShellWord(PathForFolder(calibration, "", folder))) +
       "\n";
  return h;
}

// When today's plan misses its constraints in a replay that also fails pods
// the cluster runs: says that the miss may be the replay's.
std::string TodayMissesCaveat(const PlanResult& result,
                              const ReplayCheck& check) {
  const PlanOutcome* today = TodaysPlan(result);
  if (today == nullptr || check.artefacts.empty()) return "";
  const size_t missed = Missed(today->checks).size();
  if (missed == 0) return "";
  return WrapText(
      fmt::format("Today's plan misses {} constraint{} in this replay, which "
                  "also fails {} pod(s) that run in the cluster (above): the "
                  "miss may be the replay's, not the cluster's. Fix those "
                  "pods' needs before acting on a change from today.",
                  missed, missed == 1 ? "" : "s", check.artefacts.size()),
      kReportWidth, 0);
}

void Plan(const PlanArgs& args, GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  const std::string file =
      args.scenario.empty() ? kDefaultScenarioFile : args.scenario;
  const std::string text = args.scenario.empty() ? DefaultScenarioYaml()
                                                 : ReadInputFile(args.scenario);
  Scenario scenario = ReadScenarioYaml(text, file, catalog);
  ApplyModelOptions(args.model, &scenario);
  ComparisonSpec spec = ReadComparisonSpec(text, file, scenario);
  if (args.seeds > 0) spec.compare.seeds = args.seeds;
  const PlanSpec plan_spec = ReadPlanSpec(text, file, scenario, spec.selection);
  CheckOutputPathsEarly({args.json_file, args.html_file}, {args.out_dir});
  const auto begin = std::chrono::steady_clock::now();
  ProgressAggregate progress;
  PlanResult result;
  {
    ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
    result = RunPlanner(scenario, spec, plan_spec, catalog, args.threads,
                        args.budget_s,
                        [&progress]() -> std::unique_ptr<SimulationObserver> {
                          return std::make_unique<ProgressObserver>(&progress);
                        });
  }
  // Today's replay against its recorded series, where the plan is read.
  const TodaysReplay today = ReplayToday(scenario, catalog);
  const MetricsFidelity* fidelity = today.fidelity.get();
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  OutputBatch outputs;
  std::vector<std::string> written;
  const bool refused = !result.chosen.feasible && !args.force;
  if (!args.out_dir.empty() && !refused) {
    outputs.ReplaceFolderContents(args.out_dir);
    const std::string yaml =
        PlanScenarioYaml(text, file, result.plan,
                         Header(result, file, args.model.calibration,
                                options.catalog_file, args.out_dir),
                         args.out_dir);
    outputs.Add(args.out_dir + "/scenario.yaml", yaml);
    written.push_back(args.out_dir + "/scenario.yaml");
    for (const EmittedFile& f : K8sConfigFiles(result.plan, catalog, &scenario)) {
      outputs.Add(args.out_dir + "/" + f.path, f.text);
      written.push_back(args.out_dir + "/" + f.path);
    }
  }
  if (!args.json_file.empty()) {
    nlohmann::json json = PlanToJson(result);
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
                PlanHtmlReport(result, TodaysHtml(today)));
  }
  std::string report =
      PlanReport(result, args.quiet ? 0 : wall_s) +
      ReplayCheckText(today.check) + TodayMissesCaveat(result, today.check) +
      (fidelity == nullptr ? std::string() : MetricsFidelityText(*fidelity)) +
      ScenarioNotes(scenario);
  if (!written.empty()) {
    report += "\nWrote the plan's configuration (apply order: " + args.out_dir +
              "/README.md):\n";
    for (const std::string& w : written) report += "  " + w + "\n";
  } else if (!args.out_dir.empty()) {
    const size_t missed = Missed(result.chosen.checks).size();
    report += "\n" + WrapText(
        "Wrote nothing to " + args.out_dir + ": the plan misses " +
            std::to_string(missed) + " constraint" + (missed == 1 ? "" : "s") +
            " (exit status 3). --force writes its configuration anyway.",
        kReportWidth, 0);
  }
  outputs.Commit();
  for (const std::string& r : outputs.removed()) {
    report += "  removed " + r + " (an earlier plan's, not part of this one)\n";
  }
  std::cout << report;
  if (!result.chosen.feasible) options.exit_code = kConstraintsMissed;
}

}  // namespace

void RegisterPlanCommand(CLI::App& app, GlobalOptions& options) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Find the cheapest pool settings and node counts that meet the "
      "scenario's constraints, and write the configuration to apply "
      "(default: the built-in scenario)");
  cmd->add_option("scenario", args->scenario,
                  "Scenario YAML file with an optional plan: section "
                  "(docs/scenario.md); omit it for the built-in default")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out_dir,
                  "Directory for the plan's scenario.yaml and every file to "
                  "apply it (as emit k8s writes them)");
  cmd->add_option("--json", args->json_file,
                  "Write the plan, the plans compared and the search log as "
                  "JSON (docs/output.md)");
  cmd->add_option("--html", args->html_file,
                  "Write the plan as a self-contained HTML report with the "
                  "cost frontier of each pool");
  cmd->add_option("--seeds", args->seeds,
                  "Repeat every run on this many seeds (the scenario's seed, "
                  "seed + 1, ...) and call a win only when it holds on each "
                  "(default: the scenario's compare.seeds, 3)")
      ->check(CLI::Range(1, kMaxCompareSeeds));
  cmd->add_option("--threads", args->threads,
                  "Runs in parallel (0: one per core); results do not depend "
                  "on it")
      ->check(CLI::Range(0, 256));
  AddModelOptions(cmd, &args->model, /*with_profile=*/false);
  cmd->add_option("--budget-s", args->budget_s,
                  "Start no new batch of simulations after this many seconds "
                  "of search (0: no limit); the result says when it stopped")
      ->transform(NumberFlag(0, 1e6));
  cmd->add_flag("--force", args->force,
                "Write --out's configuration even when no plan meets every "
                "constraint (exit status 3); without it nothing is written "
                "there");
  cmd->add_flag("--quiet", args->quiet,
                "Leave the wall time out of the report (reproducible text) "
                "and show no progress bar");
  cmd->footer(
      "Exit status: 0 the plan meets every constraint; 2 bad input (nothing "
      "written); 3 no plan meets every constraint: the report shows the "
      "closest and what it misses, --json and --html are written, --out "
      "only with --force.");
  cmd->callback([&options, args] { Plan(*args, options); });
}

}  // namespace gpushare::cli
