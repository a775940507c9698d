// `gpushare-sim run SCENARIO`: one simulation of a scenario file, with a
// terminal summary, optional JSON, CSV, OpenMetrics and HTML outputs and a
// progress bar on a terminal's stderr.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flag_checks.h"
#include "cli/model_options.h"
#include "cli/todays_replay.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/csv_writer.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/metrics/metrics_fidelity.h"
#include "gpushare/metrics/openmetrics_writer.h"
#include "gpushare/metrics/pod_output_spool.h"
#include "gpushare/metrics/replay_check.h"
#include "gpushare/report/metrics_fidelity_report.h"
#include "gpushare/report/progress_bar.h"
#include "gpushare/report/progress_observer.h"
#include "gpushare/report/run_html.h"
#include "gpushare/report/run_summary.h"
#include "gpushare/report/scenario_notes.h"
#include "gpushare/scenario/dcgm_recording_checks.h"
#include "gpushare/sim/observer_fanout.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"

namespace gpushare::cli {
namespace {

struct RunArgs {
  std::string scenario;
  std::string json_file;
  std::string csv_dir;
  std::string openmetrics_file;
  std::string start_time;
  std::string html_file;
  std::vector<std::string> compare_metrics;
  ModelOptions model;
  int64_t seed = -1;
  bool quiet = false;
};

// --start-time: Unix seconds ("1704067200") or UTC RFC 3339 without
// fractions ("2024-01-01T00:00:00Z").
int64_t ParseStartTime(const std::string& text) {
  if (text.empty()) return kDefaultOpenMetricsStartUnixS;
  const auto bad = [&text] {
    return InputError(fmt::format(
        "--start-time '{}': expected Unix seconds (1704067200) or a UTC "
        "time like 2024-01-01T00:00:00Z",
        text));
  };
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    if (text.size() > 12) throw bad();
    return std::stoll(text);
  }
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char tail = 0;
  if (text.size() != 20 ||
      std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &year, &month,
                  &day, &hour, &minute, &second, &tail) != 7 ||
      tail != 'Z' || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':' || hour > 23 || minute > 59 ||
      second > 59) {
    throw bad();
  }
  const std::chrono::year_month_day date{
      std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
      std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || year < 1970) throw bad();
  return std::chrono::sys_days(date).time_since_epoch().count() * 86400LL +
         hour * 3600 + minute * 60 + second;
}

// The nearest existing folder above `path` ("." when none is named): where
// a spool beside the output goes (its folders are made only at commit).
std::string NearestFolder(const std::string& path) {
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code ec;
  while (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
    folder = folder.parent_path();
  }
  return folder.empty() ? "." : folder.string();
}

void RunScenario(const RunArgs& args, const GlobalOptions& options) {
  const int64_t start_unix_s = ParseStartTime(args.start_time);
  std::vector<std::string> files = {args.json_file, args.openmetrics_file,
                                    args.html_file};
  if (!args.csv_dir.empty()) {
    for (const std::string& name : ResultCsvFileNames()) {
      files.push_back(args.csv_dir + "/" + name);
    }
  }
  CheckOutputPathsEarly(files, {args.csv_dir});
  const Catalog catalog = LoadCatalog(options);
  Scenario scenario = ReadScenarioFile(args.scenario, catalog);
  if (args.seed >= 0) {
    // The scenario's seed also seeds the scheduler's random tie-break, as
    // when it is written in the file (docs/scenario.md).
    scenario.seed = static_cast<uint64_t>(args.seed);
    scenario.scheduler.seed = scenario.seed;
  }
  ApplyModelOptions(args.model, &scenario);
  // The recorded series to compare with: --compare-metrics, else the
  // trace's `metrics`.
  std::shared_ptr<const DcgmRecording> recording =
      scenario.workload.trace.metrics;
  if (!args.compare_metrics.empty()) {
    DcgmRecording read = ReadDcgmRecording(args.compare_metrics);
    CheckDcgmRecording(read, catalog, scenario.pools,
                       scenario.workload.trace.pods.get(), &read.warnings);
    for (const std::string& warning : read.warnings) {
      scenario.workload.trace.import_notes.push_back(
          "compared metrics: warning: " + warning);
    }
    recording = std::make_shared<const DcgmRecording>(std::move(read));
  }
  const auto begin = std::chrono::steady_clock::now();
  Simulation simulation(scenario, catalog);
  CollectorOptions collect;
  collect.record_devices = !args.csv_dir.empty() ||
                           !args.openmetrics_file.empty() ||
                           recording != nullptr;
  // Names and devices of the pods: the per-device outputs label series
  // with pods, and the HTML draws the GPU timeline.
  collect.pod_detail = collect.record_devices || !args.html_file.empty();
  Collector collector(simulation, scenario.name, scenario.seed, collect);
  // pods.csv's rows and the JSON's pod records, spooled as pods end
  // (metrics/pod_output_spool.h) in the outputs' own folders.
  std::unique_ptr<PodOutputSpool> csv_pods;
  std::unique_ptr<PodOutputSpool> json_pods;
  if (!args.csv_dir.empty()) {
    csv_pods = std::make_unique<PodOutputSpool>(
        PodOutputSpool::Format::kCsv, NearestFolder(args.csv_dir + "/pods.csv"),
        args.csv_dir + "/pods.csv");
    collector.AddPodSink(csv_pods.get());
  }
  if (!args.json_file.empty()) {
    json_pods = std::make_unique<PodOutputSpool>(
        PodOutputSpool::Format::kJson, NearestFolder(args.json_file),
        args.json_file);
    collector.AddPodSink(json_pods.get());
  }
  ProgressAggregate progress(1);
  ProgressObserver progress_observer(&progress);
  ObserverFanout observers({&collector, &progress_observer});
  {
    ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
    simulation.Run(&observers);
  }
  const double wall_s = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - begin)
                            .count();
  const SimulationResult& result = collector.result();
  std::unique_ptr<MetricsFidelity> fidelity;
  if (recording != nullptr) {
    fidelity = FidelityOf(result, *recording, scenario);
  }
  // Pods Running in an imported dump that the replay does not run.
  const ReplayCheck check = CheckReplayOfToday(result);
  // Every output is formatted first, then written all or none.
  OutputBatch outputs;
  if (!args.json_file.empty()) {
    nlohmann::json json = ResultToJson(result);
    if (fidelity != nullptr) {
      json["metrics_fidelity"] = MetricsFidelityJson(*fidelity);
    }
    if (check.running_pods > 0) json["replay_check"] = ReplayCheckJson(check);
    AddResultJson(json, args.json_file, json_pods.get(), &outputs);
  }
  if (!args.csv_dir.empty()) {
    AddResultCsv(result, args.csv_dir, &outputs, csv_pods.get());
  }
  if (!args.openmetrics_file.empty()) {
    outputs.Add(args.openmetrics_file,
                ResultToOpenMetrics(result, start_unix_s));
  }
  if (!args.html_file.empty()) {
    outputs.Add(args.html_file,
                RunHtmlReport(result,
                              ReplayCheckHtml(check) +
                                  (fidelity == nullptr
                                       ? std::string()
                                       : MetricsFidelityHtml(*fidelity))));
  }
  const std::string summary =
      RunSummary(result, args.quiet ? 0 : wall_s) + ReplayCheckText(check) +
      (fidelity == nullptr ? std::string() : MetricsFidelityText(*fidelity)) +
      ScenarioNotes(scenario);
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
                  "Write pods.csv, pools.csv, devices.csv, "
                  "device_samples.csv, pod_shares.csv and alerts.csv into "
                  "this directory (docs/output.md)");
  cmd->add_option("--openmetrics", args->openmetrics_file,
                  "Write every sampled series as OpenMetrics text, named as "
                  "dcgm-exporter does (docs/output.md)");
  cmd->add_option("--start-time", args->start_time,
                  "Wall-clock time of simulated t=0 in --openmetrics: Unix "
                  "seconds or 2024-01-01T00:00:00Z (the default)");
  cmd->add_option("--html", args->html_file,
                  "Write a self-contained HTML report with charts "
                  "(docs/output.md)");
  cmd->add_option("--compare-metrics", args->compare_metrics,
                  "Compare the simulated DCGM series with recorded "
                  "dcgm-exporter series: Prometheus query results as JSON "
                  "(gpushare-sim emit prometheus-queries; docs/output.md "
                  "\"Fidelity\"). Default: the trace's metrics")
      ->check(CLI::ExistingFile);
  AddSeedOption(cmd, &args->seed);
  AddModelOptions(cmd, &args->model, /*with_profile=*/true);
  cmd->add_flag("--quiet", args->quiet,
                "Leave the wall time out of the summary (reproducible text) "
                "and show no progress bar");
  cmd->callback([&options, args] { RunScenario(*args, options); });
}

}  // namespace gpushare::cli
