// `gpushare-sim emit sweep-job --grid GRID --shards N --image IMAGE`: a
// sweep as a Kubernetes Indexed Job (emit/sweep_job.h, docs/sweep.md). The
// grid and every point of its scenario are checked first, so that the Job
// does not fail on the cluster for an input error. `--merge` writes the
// Job that joins the shards instead.

#include <iostream>
#include <memory>

#include "cli/command.h"
#include "gpushare/decide/sweep.h"
#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/emit/sweep_job.h"
#include "gpushare/io/output_file.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare::cli {
namespace {

struct SweepJobArgs {
  SweepJobSpec spec;
  std::string grid;
  std::string scenario;
  std::string out_file;
  bool merge = false;
};

void EmitSweepJob(SweepJobArgs& args, const GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  const SweepGrid grid = ReadSweepGridFile(args.grid, !args.scenario.empty());
  const std::string scenario_file =
      args.scenario.empty() ? grid.scenario : args.scenario;
  args.spec.scenario_text = ReadInputFile(scenario_file);
  args.spec.grid_text = grid.text;
  // Reads (checks) every point: a bad one would fail on the cluster.
  CheckSweepPoints(grid, args.spec.scenario_text, scenario_file, catalog);
  const std::string text =
      args.merge ? SweepMergeJobYaml(args.spec) : SweepJobYaml(args.spec);
  if (args.out_file.empty()) {
    std::cout << text;
  } else {
    WriteOutputFile(args.out_file, text);
  }
}

}  // namespace

void RegisterEmitSweepJob(CLI::App* emit, GlobalOptions& options) {
  auto args = std::make_shared<SweepJobArgs>();
  CLI::App* cmd = emit->add_subcommand(
      "sweep-job",
      "A sweep as a Kubernetes Indexed Job: ConfigMap of the scenario and "
      "grid, results claim, and the Job whose pod i runs shard i "
      "(docs/sweep.md)");
  cmd->add_option("--grid", args->grid, "Grid YAML file (docs/sweep.md)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--scenario", args->scenario,
                  "Scenario YAML file (default: the grid's 'scenario:')")
      ->check(CLI::ExistingFile);
  cmd->add_option("--shards", args->spec.shards,
                  "Shards: the Job's completions, one pod each")
      ->required();
  cmd->add_option("--image", args->spec.image,
                  "Image with gpushare-sim on its PATH (the project's "
                  "Dockerfile builds one)")
      ->required();
  cmd->add_option("--name", args->spec.name,
                  "Job name; the ConfigMap is NAME-input, the claim "
                  "NAME-results")
      ->capture_default_str();
  cmd->add_option("--namespace", args->spec.namespace_name,
                  "Namespace of every object (default: kubectl's)");
  cmd->add_option("--parallelism", args->spec.parallelism,
                  "Pods running at once (default: every shard)");
  cmd->add_option("--threads", args->spec.threads,
                  "Points each pod runs at once, and its cpu request")
      ->capture_default_str();
  cmd->add_option("--memory", args->spec.memory,
                  "Memory request and limit of each pod")
      ->capture_default_str();
  cmd->add_option("--results-claim", args->spec.results_claim,
                  "An existing PersistentVolumeClaim for /results (default: "
                  "a new ReadWriteMany claim NAME-results)");
  cmd->add_option("--results-size", args->spec.results_size,
                  "Size of the new results claim")
      ->capture_default_str();
  cmd->add_flag("--merge", args->merge,
                "Write the Job that joins the shards (apply once the sweep "
                "Job is complete)");
  cmd->add_option("--out", args->out_file,
                  "Write to this file instead of stdout");
  cmd->callback([args, &options] { EmitSweepJob(*args, options); });
}

}  // namespace gpushare::cli
