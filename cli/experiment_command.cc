// `gpushare-sim experiment fgd`: the FGD paper's scheduling experiment on
// Alibaba's openb trace (docs/experiment-fgd.md), with per-run CSVs and a
// summary, and an optional HTML report.

#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "cli/command.h"
#include "gpushare/experiment/fgd_experiment.h"
#include "gpushare/experiment/fgd_html.h"
#include "gpushare/experiment/fgd_report.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"

#ifndef GS_DEFAULT_DATA_DIR
#define GS_DEFAULT_DATA_DIR "data"
#endif

namespace gpushare::cli {
namespace {

// The shipped trace (data/openb/README.md).
const std::string kDefaultNodes =
    std::string(GS_DEFAULT_DATA_DIR) + "/openb/openb_node_list_gpu_node.csv";
const std::string kDefaultPods =
    std::string(GS_DEFAULT_DATA_DIR) + "/openb/openb_pod_list_default.csv";

struct FgdArgs {
  std::string nodes = kDefaultNodes;
  std::string pods = kDefaultPods;
  std::string policies = "random,dotprod,gpuclustering,gpupacking,bestfit,fgd";
  std::string seeds = "42-51";
  double inflate = kFgdDefaultInflate;
  std::string out_dir;
  std::string html_file;
  int threads = 0;
  std::vector<std::string> model_map;
};

uint64_t ParseExperimentSeed(std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw InputError("--seeds: expected a seed, a range A-B or a list, got '" +
                     std::string(text) + "'");
  }
  return value;
}

// At most this many seeds in one experiment (each is a full replay).
constexpr uint64_t kMaxSeeds = 100000;

// "42-51", "42,45" or "7".
std::vector<uint64_t> ParseSeeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view item =
        std::string_view(text).substr(start, comma - start);
    const size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      seeds.push_back(ParseExperimentSeed(item));
    } else {
      const uint64_t first = ParseExperimentSeed(item.substr(0, dash));
      const uint64_t last = ParseExperimentSeed(item.substr(dash + 1));
      if (last < first) {
        throw InputError("--seeds: bad range '" + std::string(item) +
                         "' (expected A-B with A <= B)");
      }
      if (last - first >= kMaxSeeds) {
        throw InputError(fmt::format(
            "--seeds: range '{}' has more than {} seeds", item, kMaxSeeds));
      }
      // Up to `last` inclusive without overflowing at 2^64 - 1.
      for (uint64_t s = first;; ++s) {
        seeds.push_back(s);
        if (s == last) break;
      }
    }
    if (seeds.size() > kMaxSeeds) {
      throw InputError(
          fmt::format("--seeds: more than {} seeds in all", kMaxSeeds));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return seeds;
}

std::vector<FgdPolicy> ParsePolicies(const std::string& text) {
  std::vector<FgdPolicy> policies;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const FgdPolicy p = ParseFgdPolicy(text.substr(start, comma - start));
    if (std::find(policies.begin(), policies.end(), p) != policies.end()) {
      throw InputError("--policy: '" + std::string(FgdPolicyName(p)) +
                       "' is given twice");
    }
    policies.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return policies;
}

void RunFgd(const FgdArgs& args, const GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  GpuModelMap models = GpuModelMap::Default();
  for (const std::string& entry : args.model_map) models.ParseOverride(entry);
  const std::vector<FgdPolicy> policies = ParsePolicies(args.policies);
  const std::vector<uint64_t> seeds = ParseSeeds(args.seeds);
  if (!(args.inflate >= 0 && args.inflate <= 100)) {
    throw InputError("--inflate: expected 0..100 (0: no inflation)");
  }
  CheckOutputPathsEarly({args.html_file}, {args.out_dir});
  FgdExperiment experiment(catalog, models, args.nodes,
                           ReadOpenbNodeList(args.nodes, models),
                           ReadOpenbPodList(args.pods, models), args.inflate);
  const int threads =
      args.threads > 0
          ? args.threads
          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const std::vector<FgdRunResult> runs =
      experiment.RunAll(policies, seeds, threads);

  int64_t requested = 0;
  for (const OpenbPod& p : experiment.pods()) requested += p.TotalGpuMilli();
  std::string text = fmt::format(
      "FGD experiment: {} nodes ({} GPUs), {} pods ({:.1f} GPUs requested), "
      "inflated to {:g} x GPU capacity\n"
      "typical pods M: {} shapes covering {:.1f} % of pods; empty-cluster "
      "fragmentation {:.2f} % of GPUs\n"
      "{} policies x {} seeds; arrivals per run: {}\n\n",
      experiment.nodes().size(), experiment.cluster_gpu_milli() / 1000,
      experiment.pods().size(), static_cast<double>(requested) / 1000,
      args.inflate, experiment.typical().pods.size(),
      100 * experiment.typical().coverage,
      experiment.EmptyClusterFragmentationPct(), policies.size(), seeds.size(),
      runs.empty() ? 0 : runs.front().arrivals);
  text += FgdSummaryTable(policies, runs);
  text +=
      "\nUNALLOC%: GPU share not allocated, in % of cluster GPUs, at 100 % and "
      "130 % of GPU capacity arrived (mean ± sd over seeds); FRAG%: the FGD "
      "fragmentation measure in % of cluster GPUs.\n";
  const std::string summary = text;

  // Every output is formatted first, then written all or none.
  OutputBatch outputs;
  if (!args.out_dir.empty()) {
    outputs.AddDirectory(args.out_dir);
    for (const FgdRunResult& run : runs) {
      outputs.Add(args.out_dir + "/" + FgdRunFileName(run), FgdRunCsv(run));
    }
    outputs.Add(args.out_dir + "/summary.csv", FgdSummaryCsv(policies, runs));
  }
  if (!args.html_file.empty()) {
    outputs.Add(args.html_file, FgdHtmlReport(summary, policies, runs));
  }
  outputs.Commit();
  if (!args.out_dir.empty()) {
    text += fmt::format("wrote {} run files and summary.csv to {}\n",
                        runs.size(), args.out_dir);
  }
  std::cout << text;
}

}  // namespace

void RegisterExperimentCommand(CLI::App& app, GlobalOptions& options) {
  CLI::App* experiment = app.add_subcommand(
      "experiment", "Reproduce published scheduling experiments");
  experiment->require_subcommand(1);
  auto args = std::make_shared<FgdArgs>();
  CLI::App* fgd = experiment->add_subcommand(
      "fgd",
      "The FGD paper's experiment (USENIX ATC'23) on Alibaba's openb trace: "
      "six policies, seeds, fragmentation and allocation by arrived workload "
      "(docs/experiment-fgd.md)");
  fgd->add_option("--nodes", args->nodes,
                  "openb node list CSV (default: the shipped "
                  "openb_node_list_gpu_node.csv)")
      ->check(CLI::ExistingFile);
  fgd->add_option("--pods", args->pods,
                  "openb pod list CSV (default: the shipped "
                  "openb_pod_list_default.csv)")
      ->check(CLI::ExistingFile);
  fgd->add_option("--policy", args->policies,
                  "Comma-separated policies: random, dotprod, gpuclustering, "
                  "gpupacking, bestfit, fgd (default: all six)");
  fgd->add_option("--seeds", args->seeds,
                  "Seeds: a range A-B, a list or both (default: 42-51)");
  fgd->add_option("--inflate", args->inflate,
                  "Inflate the workload to this many times the cluster's GPU "
                  "capacity (default: 1.3; 0: as is)");
  fgd->add_option("--out", args->out_dir,
                  "Write <policy>_seed<N>.csv per run and summary.csv here");
  fgd->add_option("--html", args->html_file,
                  "Write the curves per policy as a self-contained HTML "
                  "report (docs/output.md)");
  fgd->add_option("--threads", args->threads,
                  "Runs in parallel (default: the number of cores)")
      ->check(CLI::Range(1, 1024));
  fgd->add_option("--model-map", args->model_map,
                  "Map a trace GPU model to a catalog model, TRACE=CATALOG "
                  "(repeatable; defaults in docs/experiment-fgd.md)");
  fgd->callback([&options, args] { RunFgd(*args, options); });
}

}  // namespace gpushare::cli
