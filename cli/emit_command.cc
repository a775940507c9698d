// `gpushare-sim emit WHAT [--out FILE]`: writes a configuration file for the
// tools around the simulator: `grafana-dashboard` (a dashboard JSON for the
// series of `run --openmetrics`) or `prometheus-rules [--scenario FILE]`
// (alerting rules of the patrol alerts, with the thresholds of the
// scenario's `patrol` section or the defaults), `mig-parted --scenario FILE`
// (the ConfigMap of the scenario's MIG layouts for NVIDIA's MIG manager),
// `device-plugin --scenario FILE` (the ConfigMap of NVIDIA device-plugin
// configs, one per pool), `hami --scenario FILE` (HAMi's Helm values),
// `pod-patches --scenario FILE` (per tenant class, the pod-template patches
// with the requests its pods need), `kueue --scenario FILE` (Kueue's
// ResourceFlavors, ClusterQueues and LocalQueues), `sweep-job` (a sweep as
// an Indexed Job, cli/emit_sweep_job_command.cc), `autoscaler --scenario
// FILE [--cloud aws|clusterapi|any] [--node-class NAME] [--part FILE]`
// (cluster-autoscaler values and node groups, Karpenter NodePools and
// NodeOverlays of the autoscaled pools). To stdout, or whole to
// FILE. `k8s
// --scenario FILE --out DIR` writes all of them that apply, with a README.

#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/command.h"
#include "gpushare/emit/autoscaler_files.h"
#include "gpushare/emit/device_plugin_config.h"
#include "gpushare/emit/grafana_dashboard.h"
#include "gpushare/emit/hami_values.h"
#include "gpushare/emit/k8s_config.h"
#include "gpushare/emit/kai_queue_manifests.h"
#include "gpushare/emit/kueue_manifests.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/emit/prometheus_queries.h"
#include "gpushare/emit/prometheus_rules.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare::cli {
namespace {

struct EmitArgs {
  std::string out_file;
  std::string scenario;
  std::string from_scenario;  // emit k8s --from: today's scenario
};

void Emit(const std::string& text, const EmitArgs& args) {
  if (args.out_file.empty()) {
    std::cout << text;
  } else {
    WriteOutputFile(args.out_file, text);
  }
}

CLI::App* AddEmitter(CLI::App* emit, const std::string& name,
                     const std::string& description,
                     std::shared_ptr<EmitArgs> args) {
  CLI::App* cmd = emit->add_subcommand(name, description);
  cmd->add_option("--out", args->out_file,
                  "Write to this file instead of stdout");
  return cmd;
}

// An emitter of a file made from a scenario: `--scenario FILE` required.
void AddScenarioEmitter(
    CLI::App* emit, GlobalOptions& options, const std::string& name,
    const std::string& description, const std::string& scenario_help,
    std::function<std::string(const Scenario&, const Catalog&)> write) {
  auto args = std::make_shared<EmitArgs>();
  CLI::App* cmd = AddEmitter(emit, name, description, args);
  cmd->add_option("--scenario", args->scenario, scenario_help)->required();
  cmd->callback([args, &options, write] {
    const Catalog catalog = LoadCatalog(options);
    Emit(write(ReadScenarioFile(args->scenario, catalog), catalog), *args);
  });
}

}  // namespace

void RegisterEmitCommand(CLI::App& app, GlobalOptions& options) {
  CLI::App* emit = app.add_subcommand(
      "emit",
      "Write configuration for Grafana, Prometheus, NVIDIA's device plugin "
      "and MIG manager, HAMi, and the autoscalers");
  emit->require_subcommand(1);
  auto dashboard = std::make_shared<EmitArgs>();
  AddEmitter(emit, "grafana-dashboard",
             "Grafana dashboard JSON for the series of run --openmetrics",
             dashboard)
      ->callback([dashboard] { Emit(GrafanaDashboardJson(), *dashboard); });
  auto rules = std::make_shared<EmitArgs>();
  CLI::App* rules_cmd =
      AddEmitter(emit, "prometheus-rules",
                 "Prometheus alerting rules of the patrol alerts", rules);
  rules_cmd->add_option(
      "--scenario", rules->scenario,
      "Take the thresholds from this scenario's patrol section");
  rules_cmd->callback([rules, &options] {
    PatrolRules thresholds;
    if (!rules->scenario.empty()) {
      thresholds =
          ReadScenarioFile(rules->scenario, LoadCatalog(options)).patrol;
    }
    Emit(PrometheusRulesYaml(thresholds), *rules);
  });
  auto queries = std::make_shared<EmitArgs>();
  auto query_options = std::make_shared<PrometheusQueryOptions>();
  CLI::App* queries_cmd = AddEmitter(
      emit, "prometheus-queries",
      "PromQL query and curl/promtool commands that fetch the dcgm-exporter "
      "series workload.trace.metrics and run --compare-metrics read",
      queries);
  queries_cmd
      ->add_option("--start", query_options->start,
                   "Start of the range: Unix seconds or RFC 3339")
      ->required();
  queries_cmd
      ->add_option("--end", query_options->end,
                   "End of the range: Unix seconds or RFC 3339")
      ->required();
  queries_cmd->add_option("--step", query_options->step,
                          "Resolution: the scrape interval (default 30s, "
                          "dcgm-exporter's collection interval)");
  queries_cmd->add_option("--url", query_options->url,
                          "Prometheus base URL (default "
                          "http://localhost:9090)");
  queries_cmd->add_option("--selector", query_options->selector,
                          "Extra label matchers, e.g. Hostname=~\"gpu-.*\"");
  queries_cmd->add_option("--file", query_options->file,
                          "File the commands write (default "
                          "dcgm-range.json)");
  queries_cmd->callback([queries, query_options] {
    Emit(PrometheusQueriesText(*query_options), *queries);
  });
  AddScenarioEmitter(emit, options, "mig-parted",
                     "ConfigMap of the scenario's MIG layouts for NVIDIA's "
                     "MIG manager (mig-parted config v1)",
                     "The scenario whose MIG pools to write",
                     [](const Scenario& s, const Catalog& c) {
                       return MigPartedConfigMap(s, c);
                     });
  AddScenarioEmitter(emit, options, "device-plugin",
                     "ConfigMap of NVIDIA device-plugin configs "
                     "(time-slicing, MPS, MIG strategy), one per node pool",
                     "The scenario whose node pools to write",
                     [](const Scenario& s, const Catalog& c) {
                       return DevicePluginConfigMap(s, c);
                     });
  AddScenarioEmitter(
      emit, options, "hami",
      "HAMi Helm values (split, scaling, scheduler policies, "
      "per-node config) of the scenario's vGPU pools",
      "The scenario whose HAMi pools to write",
      [](const Scenario& s, const Catalog& c) { return HamiValuesYaml(s, c); });
  AddScenarioEmitter(emit, options, "pod-patches",
                     "Per tenant class, pod-template patches with the "
                     "resources, selectors and tolerations its pods need "
                     "under their pool's scheme",
                     "The scenario whose tenant classes to write",
                     [](const Scenario& s, const Catalog& c) {
                       return PodTemplatePatchesYaml(s, c);
                     });
  AddScenarioEmitter(emit, options, "kueue",
                     "Kueue ResourceFlavors, ClusterQueues and LocalQueues of "
                     "the scenario's queues section",
                     "The scenario whose queues to write",
                     [](const Scenario& s, const Catalog&) {
                       return KueueManifestsYaml(s);
                     });
  AddScenarioEmitter(emit, options, "kai-queues",
                     "KAI-Scheduler Queues (scheduling.run.ai/v2) of the "
                     "scenario's kai_queues section",
                     "The scenario whose KAI queues to write",
                     [](const Scenario& s, const Catalog&) {
                       return KaiQueueManifestsYaml(s);
                     });
  auto autoscaler = std::make_shared<EmitArgs>();
  auto autoscaler_options = std::make_shared<AutoscalerEmitOptions>();
  auto cloud = std::make_shared<std::string>("any");
  auto part = std::make_shared<std::string>();
  CLI::App* autoscaler_cmd = AddEmitter(
      emit, "autoscaler",
      "What to deploy for the scenario's autoscaled pools: cluster-autoscaler "
      "Helm values and its node groups' templates (ASG tags, Cluster API "
      "annotations), Karpenter NodePools and NodeOverlays",
      autoscaler);
  autoscaler_cmd
      ->add_option("--scenario", autoscaler->scenario,
                   "The scenario whose autoscaled pools to write")
      ->required();
  autoscaler_cmd->add_option(
      "--cloud", *cloud,
      "The cluster-autoscaler node groups' cloud: aws (ASG tags), clusterapi "
      "(MachineDeployment annotations) or any (both; default)")
      ->check(CLI::IsMember({"aws", "clusterapi", "any"}));
  autoscaler_cmd->add_option(
      "--node-class", autoscaler_options->node_class.name,
      "The Karpenter NodePools' nodeClassRef name (default: default)");
  autoscaler_cmd->add_option(
      "--node-class-kind", autoscaler_options->node_class.kind,
      "The nodeClassRef kind (default: EC2NodeClass)");
  autoscaler_cmd->add_option(
      "--node-class-group", autoscaler_options->node_class.group,
      "The nodeClassRef group (default: karpenter.k8s.aws)");
  autoscaler_cmd->add_option(
      "--part", *part,
      "Write only this one of the files (e.g. karpenter-nodepools.yaml); "
      "several are otherwise joined, each after a '# ==== file: NAME ====' "
      "line");
  autoscaler_cmd->callback(
      [autoscaler, autoscaler_options, cloud, part, &options] {
        if (!ParseAutoscalerCloud(*cloud, &autoscaler_options->cloud)) {
          throw InputError("--cloud must be aws, clusterapi or any, not '" +
                           *cloud + "'");
        }
        const Catalog catalog = LoadCatalog(options);
        const std::vector<EmittedFile> files = AutoscalerFiles(
            ReadScenarioFile(autoscaler->scenario, catalog), catalog,
            *autoscaler_options);
        if (part->empty()) {
          Emit(BundleText(files), *autoscaler);
          return;
        }
        std::string names;
        for (const EmittedFile& f : files) {
          if (f.path == *part) {
            Emit(f.text, *autoscaler);
            return;
          }
          names += (names.empty() ? "" : ", ") + f.path;
        }
        throw InputError("--part '" + *part +
                         "' is not one of this scenario's files: " + names);
      });
  RegisterEmitSweepJob(emit, options);
  auto k8s = std::make_shared<EmitArgs>();
  CLI::App* cmd = emit->add_subcommand(
      "k8s",
      "Every file to apply for the scenario's pools (labels and taints, "
      "device plugin, MIG manager, HAMi, DRA driver and objects, "
      "scheduler, pod patches) into a "
      "directory, with a README of the apply order");
  cmd->add_option("--scenario", k8s->scenario,
                  "The scenario whose pools to write")
      ->required();
  cmd->add_option("--out", k8s->out_file,
                  "Directory to write the files into (created if missing; a "
                  "folder written before holds only the new set afterwards)")
      ->required();
  cmd->add_option("--from", k8s->from_scenario,
                  "The scenario of the cluster as it runs today: node-setup.sh "
                  "removes what its pools set that the scenario does not, "
                  "and rollback.sh restores it (imported pools know their "
                  "nodes' labels without it)")
      ->check(CLI::ExistingFile);
  cmd->callback([k8s, &options] {
    const Catalog catalog = LoadCatalog(options);
    const Scenario scenario = ReadScenarioFile(k8s->scenario, catalog);
    std::optional<Scenario> today;
    if (!k8s->from_scenario.empty()) {
      today = ReadScenarioFile(k8s->from_scenario, catalog);
    }
    const std::vector<EmittedFile> files = K8sConfigFiles(
        scenario, catalog, today ? &*today : nullptr);
    OutputBatch batch;
    batch.ReplaceFolderContents(k8s->out_file);
    for (const EmittedFile& f : files) {
      batch.Add(k8s->out_file + "/" + f.path, f.text);
    }
    batch.Commit();
    for (const EmittedFile& f : files) {
      std::cout << k8s->out_file << "/" << f.path << "\n";
    }
    for (const std::string& r : batch.removed()) {
      std::cout << "removed " << r
                << " (written here before, not part of this set)\n";
    }
  });
}

}  // namespace gpushare::cli
