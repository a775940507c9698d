// The subcommands of gpushare-sim, one file each (cli/<name>_command.cc).
//
// Contract: each Register*Command adds one CLI11 subcommand to `app` with its
// options and a callback that does the work. Callbacks write results to
// stdout only once the whole result is computed (no partial output), throw
// gpushare::InputError for bad input (main prints "error: ..." and exits 2),
// and set the process exit status through `GlobalOptions::exit_code` when it
// is not 0.

#ifndef GPUSHARE_CLI_COMMAND_H_
#define GPUSHARE_CLI_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpushare/catalog/catalog.h"

namespace gpushare::cli {

// Options shared by every subcommand.
struct GlobalOptions {
  // --catalog FILE: models to add to or override in the built-in catalog.
  std::string catalog_file;
  // Exit status the command asks for (0 unless a command sets it).
  int exit_code = 0;
};

// The built-in catalog with --catalog applied. Throws InputError.
Catalog LoadCatalog(const GlobalOptions& options);

void RegisterCatalogCommand(CLI::App& app, GlobalOptions& options);
void RegisterMigCommand(CLI::App& app, GlobalOptions& options);
void RegisterDemoCommand(CLI::App& app, GlobalOptions& options);
void RegisterRunCommand(CLI::App& app, GlobalOptions& options);
void RegisterCompareCommand(CLI::App& app, GlobalOptions& options);
void RegisterPlanCommand(CLI::App& app, GlobalOptions& options);
void RegisterExperimentCommand(CLI::App& app, GlobalOptions& options);
void RegisterEmitCommand(CLI::App& app, GlobalOptions& options);
// `emit sweep-job`, under the emit command.
void RegisterEmitSweepJob(CLI::App* emit, GlobalOptions& options);
void RegisterSweepCommand(CLI::App& app, GlobalOptions& options);
void RegisterMergeCommand(CLI::App& app, GlobalOptions& options);
void RegisterCalibrateCommand(CLI::App& app, GlobalOptions& options);

// Makes every output-path flag of `app` and its subcommands (--json, --csv,
// --html, --openmetrics, --out) refuse an empty value. Call after the
// subcommands are registered.
void CheckOutputFlags(CLI::App* app);

// Refuses bad output paths before a command runs for minutes: `files` (empty
// ones skipped) as OutputBatch would write them, `folders` (empty ones
// skipped) as folders to make. Throws InputError (output_file.h, step 1).
void CheckOutputPathsEarly(const std::vector<std::string>& files,
                           const std::vector<std::string>& folders);

}  // namespace gpushare::cli

#endif  // GPUSHARE_CLI_COMMAND_H_
