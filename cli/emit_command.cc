// `gpushare-sim emit WHAT [--out FILE]`: writes a configuration file for the
// tools around the simulator: `grafana-dashboard` (a dashboard JSON for the
// series of `run --openmetrics`) or `prometheus-rules` (alerting rules of
// the patrol alerts). To stdout, or whole to FILE.

#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "gpushare/emit/grafana_dashboard.h"
#include "gpushare/emit/prometheus_rules.h"
#include "gpushare/io/output_file.h"

namespace gpushare::cli {
namespace {

struct EmitArgs {
  std::string out_file;
};

void Emit(const std::string& text, const EmitArgs& args) {
  if (args.out_file.empty()) {
    std::cout << text;
  } else {
    WriteOutputFile(args.out_file, text);
  }
}

void AddEmitter(CLI::App* emit, const std::string& name,
                const std::string& description, std::string (*make)()) {
  auto args = std::make_shared<EmitArgs>();
  CLI::App* cmd = emit->add_subcommand(name, description);
  cmd->add_option("--out", args->out_file,
                  "Write to this file instead of stdout");
  cmd->callback([args, make] { Emit(make(), *args); });
}

}  // namespace

void RegisterEmitCommand(CLI::App& app, GlobalOptions& /*options*/) {
  CLI::App* emit = app.add_subcommand(
      "emit", "Write configuration for Grafana or Prometheus");
  emit->require_subcommand(1);
  AddEmitter(emit, "grafana-dashboard",
             "Grafana dashboard JSON for the series of run --openmetrics",
             GrafanaDashboardJson);
  AddEmitter(emit, "prometheus-rules",
             "Prometheus alerting rules of the patrol alerts",
             PrometheusRulesYaml);
}

}  // namespace gpushare::cli
