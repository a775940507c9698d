// Output-path flags (--json, --csv, --html, --openmetrics, --out) of every
// subcommand refuse an empty value (`--json ""` would otherwise write nothing
// and exit 0), and commands check their output paths before they run.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "gpushare/io/output_file.h"

namespace gpushare::cli {

void CheckOutputFlags(CLI::App* app) {
  static const CLI::Validator non_empty(
      [](std::string& value) -> std::string {
        if (value.empty()) return "expected a path, got nothing";
        return std::string();
      },
      "PATH");
  for (CLI::Option* option : app->get_options()) {
    for (const std::string& name : option->get_lnames()) {
      if (name == "json" || name == "csv" || name == "html" ||
          name == "openmetrics" || name == "out") {
        option->check(non_empty);
        break;
      }
    }
  }
  for (CLI::App* sub : app->get_subcommands({})) CheckOutputFlags(sub);
}

void CheckOutputPathsEarly(const std::vector<std::string>& files,
                           const std::vector<std::string>& folders) {
  OutputBatch batch;
  for (const std::string& f : folders) {
    if (!f.empty()) batch.AddDirectory(f);
  }
  for (const std::string& f : files) {
    if (!f.empty()) batch.Add(f, std::string());
  }
  batch.CheckTargets();
}

}  // namespace gpushare::cli
