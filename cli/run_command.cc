// `gpushare-sim run SCENARIO`: one simulation of a scenario file, with a
// terminal summary and optional JSON, CSV and HTML outputs.

#include <chrono>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/csv_writer.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/report/run_html.h"
#include "gpushare/report/run_summary.h"
#include "gpushare/sim/scenario_reader.h"
#include "gpushare/sim/simulation.h"

namespace gpushare::cli {
namespace {

struct RunArgs {
  std::string scenario;
  std::string json_file;
  std::string csv_dir;
  std::string html_file;
  std::string model;
  int64_t seed = -1;
  bool quiet = false;
};

void RunScenario(const RunArgs& args, const GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  Scenario scenario = ReadScenarioFile(args.scenario, catalog);
  if (args.seed >= 0) scenario.seed = static_cast<uint64_t>(args.seed);
  if (args.model == "seed") {
    scenario.model = ModelParams::Seed();
  } else if (args.model == "default") {
    scenario.model = ModelParams();
  }
  const auto begin = std::chrono::steady_clock::now();
  Simulation simulation(scenario, catalog);
  Collector collector(simulation, scenario.name, scenario.seed,
                      !args.csv_dir.empty());
  simulation.Run(&collector);
  const double wall_s = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - begin)
                            .count();
  const SimulationResult& result = collector.result();
  // Every output is formatted first, then written all or none.
  OutputBatch outputs;
  if (!args.json_file.empty()) {
    outputs.Add(args.json_file, ResultToJsonText(result));
  }
  if (!args.csv_dir.empty()) AddResultCsv(result, args.csv_dir, &outputs);
  if (!args.html_file.empty()) {
    outputs.Add(args.html_file, RunHtmlReport(result));
  }
  const std::string summary = RunSummary(result, args.quiet ? 0 : wall_s);
  outputs.Commit();
  std::cout << summary;
}

}  // namespace

void RegisterRunCommand(CLI::App& app, GlobalOptions& options) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Simulate a scenario file (docs/scenario.md) and summarize it");
  cmd->add_option("scenario", args->scenario, "Scenario YAML file")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--json", args->json_file,
                  "Write the whole result as JSON (docs/output.md)");
  cmd->add_option("--csv", args->csv_dir,
                  "Write pods.csv, pools.csv, devices.csv and "
                  "device_samples.csv into this directory");
  cmd->add_option("--html", args->html_file,
                  "Write a self-contained HTML report with charts "
                  "(docs/output.md)");
  cmd->add_option("--seed", args->seed, "Override the scenario's seed")
      ->check(CLI::Range(int64_t{0}, INT64_MAX));
  cmd->add_option("--model", args->model,
                  "Replace the scenario's model parameters with a named "
                  "profile: default or seed (the source document's values)")
      ->check(CLI::IsMember({"default", "seed"}));
  cmd->add_flag("--quiet", args->quiet,
                "Leave the wall time out of the summary (reproducible text)");
  cmd->callback([&options, args] { RunScenario(*args, options); });
}

}  // namespace gpushare::cli
