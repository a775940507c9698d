#include "gpushare/emit/sweep_job.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <string_view>
#include <vector>

#include "gpushare/cluster/quantity.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kubernetes_names.h"

namespace gpushare {
namespace {

// Kubernetes keeps a ConfigMap's data under 1 MiB.
constexpr size_t kMaxConfigMapBytes = 1 << 20;

// The scenario keys that name other files, which a ConfigMap of two files
// cannot carry.
constexpr std::string_view kFileKeys[][2] = {{"cluster", "import"},
                                             {"workload", "trace"},
                                             {"queues", "import"},
                                             {"kai_queues", "import"}};

// A ConfigMap value that reads back as exactly `text`: a literal block
// when that is exact, else a double-quoted string (a JSON string is one,
// emit/quoting.h).
std::string DataValue(const std::string& text) {
  const bool literal = !text.empty() && text.back() == '\n' &&
                       (text.size() < 2 || text[text.size() - 2] != '\n') &&
                       YamlBlockPrintable(text) && text[0] != ' ' &&
                       text[0] != '\n';
  if (!literal) return " " + JsonString(text) + "\n";
  return " |\n" + IndentLines(text, "    ");
}

void CheckQuantity(const std::string& text, const char* what) {
  Quantity q;
  std::string error;
  if (!Quantity::Parse(text, &q, &error) || q.negative() || q.zero()) {
    throw InputError(fmt::format(
        "{} '{}': expected a positive Kubernetes quantity such as 2Gi{}", what,
        text, error.empty() ? "" : " (" + error + ")"));
  }
}

// The mapping `node`'s value at `key`, or an undefined node.
YAML::Node At(const YAML::Node& node, std::string_view key) {
  if (node.IsDefined() && node.IsMap()) {
    for (const auto& kv : node) {
      if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

void CheckFilesOf(const std::string& scenario_text,
                  const std::string& grid_text) {
  const YAML::Node scenario = ParseYaml(scenario_text, "scenario");
  const YAML::Node grid = ParseYaml(grid_text, "grid");
  for (const auto& key : kFileKeys) {
    const std::string dotted = fmt::format("{}.{}", key[0], key[1]);
    bool named = At(At(scenario, key[0]), key[1]).IsDefined();
    for (const char* section : {"set", "cross", "zip"}) {
      const YAML::Node keys = At(grid, section);
      if (!keys.IsDefined() || !keys.IsMap()) continue;
      for (const auto& kv : keys) {
        named = named ||
                (kv.first.IsScalar() && kv.first.Scalar().starts_with(dotted));
      }
    }
    if (named) {
      throw InputError(fmt::format(
          "the sweep reads other files ({}): the Job's ConfigMap holds the "
          "scenario and the grid only; give the sweep a scenario without "
          "them, or build an image that holds them and run the sweep "
          "there (docs/sweep.md)",
          dotted));
    }
  }
}

void Check(const SweepJobSpec& spec) {
  if (spec.shards < 1 || spec.shards > 100000) {
    throw InputError(fmt::format(
        "--shards {}: expected 1..100000 (an Indexed Job's completions)",
        spec.shards));
  }
  // Pods are named NAME-INDEX-xxxxx and their hostname is NAME-INDEX.
  const size_t index_digits = std::to_string(spec.shards - 1).size();
  if (!IsDnsLabel(spec.name, 62 - index_digits)) {
    throw InputError(fmt::format(
        "--name '{}': expected a DNS label (lowercase letters, digits, '-') "
        "of at most {} characters, so that pod hostnames NAME-{} fit 63",
        spec.name, 62 - index_digits, spec.shards - 1));
  }
  if (!spec.namespace_name.empty() && !IsDnsLabel(spec.namespace_name)) {
    throw InputError(fmt::format("--namespace '{}': expected a DNS label",
                                 spec.namespace_name));
  }
  if (!spec.results_claim.empty() && !IsDnsSubdomain(spec.results_claim)) {
    throw InputError(fmt::format(
        "--results-claim '{}': expected a DNS subdomain (a claim's name)",
        spec.results_claim));
  }
  if (spec.image.empty() ||
      spec.image.find_first_of(" \t\r\n\"'") != std::string::npos) {
    throw InputError(
        fmt::format("--image '{}': expected an image reference such as "
                    "registry.example.com/gpushare-sim:0.1.0",
                    spec.image));
  }
  if (spec.parallelism < 0 || spec.parallelism > spec.shards) {
    throw InputError(fmt::format("--parallelism {}: expected 1..{} (shards)",
                                 spec.parallelism, spec.shards));
  }
  if (spec.threads < 1 || spec.threads > 1024) {
    throw InputError(
        fmt::format("--threads {}: expected 1..1024", spec.threads));
  }
  CheckQuantity(spec.memory, "--memory");
  CheckQuantity(spec.results_size, "--results-size");
  CheckFilesOf(spec.scenario_text, spec.grid_text);
  if (spec.scenario_text.size() + spec.grid_text.size() >
      kMaxConfigMapBytes - 4096) {
    throw InputError(fmt::format(
        "the scenario and grid are {} bytes: a ConfigMap holds at most 1 MiB",
        spec.scenario_text.size() + spec.grid_text.size()));
  }
}

std::string Metadata(const SweepJobSpec& spec, const std::string& name) {
  std::string out = fmt::format("metadata:\n  name: {}\n", YamlScalar(name));
  if (!spec.namespace_name.empty()) {
    out += fmt::format("  namespace: {}\n", YamlScalar(spec.namespace_name));
  }
  out += "  labels:\n    app.kubernetes.io/name: gpushare-sim\n";
  out += fmt::format("    app.kubernetes.io/instance: {}\n",
                     YamlScalar(spec.name));
  return out;
}

std::string Claim(const SweepJobSpec& spec) {
  return spec.results_claim.empty() ? spec.name + "-results"
                                    : spec.results_claim;
}

// A Job's spec.template for one container running `args` (after the
// image's entrypoint, gpushare-sim) or, with `shell`, `sh -c SCRIPT`.
std::string PodTemplate(const SweepJobSpec& spec, const std::string& container,
                        const std::vector<std::string>& args,
                        const std::string& shell) {
  std::string out =
      "  template:\n    metadata:\n      labels:\n"
      "        app.kubernetes.io/name: gpushare-sim\n";
  out += fmt::format("        app.kubernetes.io/instance: {}\n",
                     YamlScalar(spec.name));
  out += "    spec:\n      restartPolicy: Never\n      containers:\n";
  out += fmt::format("        - name: {}\n          image: {}\n", container,
                     JsonString(spec.image));
  if (!shell.empty()) {
    out += "          command: [\"sh\", \"-c\"]\n";
    out += fmt::format("          args: [{}]\n", JsonString(shell));
  } else {
    out += "          command: [\"gpushare-sim\"]\n          args:\n";
    for (const std::string& a : args) {
      out += fmt::format("            - {}\n", JsonString(a));
    }
  }
  out += fmt::format(
      "          resources:\n"
      "            requests: {{cpu: \"{0}\", memory: {1}}}\n"
      "            limits: {{memory: {1}}}\n",
      spec.threads, JsonString(spec.memory));
  out +=
      "          volumeMounts:\n"
      "            - {name: input, mountPath: /input, readOnly: true}\n"
      "            - {name: results, mountPath: /results}\n"
      "      volumes:\n"
      "        - name: input\n";
  out += fmt::format("          configMap: {{name: {}}}\n",
                     YamlScalar(spec.name + "-input"));
  out += fmt::format(
      "        - name: results\n"
      "          persistentVolumeClaim: {{claimName: {}}}\n",
      YamlScalar(Claim(spec)));
  return out;
}

}  // namespace

std::string SweepJobYaml(const SweepJobSpec& spec) {
  Check(spec);
  const int parallelism = spec.parallelism > 0 ? spec.parallelism : spec.shards;
  std::string out = fmt::format(
      "# gpushare-sim sweep as a Kubernetes Indexed Job ({} shards).\n"
      "#   kubectl apply -f THIS_FILE\n"
      "#   kubectl wait --for=condition=complete job/{} --timeout=24h\n"
      "# then join the shards with the Job of `gpushare-sim emit sweep-job "
      "--merge`\n# (same flags) and copy /results/merged out "
      "(docs/sweep.md).\n",
      spec.shards, spec.name);
  out += "apiVersion: v1\nkind: ConfigMap\n" +
         Metadata(spec, spec.name + "-input") + "data:\n";
  out += "  scenario.yaml:" + DataValue(spec.scenario_text);
  out += "  grid.yaml:" + DataValue(spec.grid_text);
  if (spec.results_claim.empty()) {
    out += "---\napiVersion: v1\nkind: PersistentVolumeClaim\n" +
           Metadata(spec, Claim(spec)) +
           fmt::format(
               "spec:\n  accessModes: [ReadWriteMany]\n"
               "  resources:\n    requests: {{storage: {}}}\n",
               JsonString(spec.results_size));
  }
  out += "---\napiVersion: batch/v1\nkind: Job\n" + Metadata(spec, spec.name) +
         fmt::format(
             "spec:\n  completionMode: Indexed\n  completions: {}\n"
             "  parallelism: {}\n  backoffLimit: {}\n",
             spec.shards, parallelism, spec.shards);
  const std::string shard =
      fmt::format("$(JOB_COMPLETION_INDEX)/{}", spec.shards);
  out += PodTemplate(
      spec, "sweep",
      {"sweep", "/input/scenario.yaml", "--grid", "/input/grid.yaml", "--shard",
       shard, "--out", "/results/shard-$(JOB_COMPLETION_INDEX)", "--threads",
       std::to_string(spec.threads), "--quiet"},
      "");
  return out;
}

std::string SweepMergeJobYaml(const SweepJobSpec& spec) {
  Check(spec);
  std::string out = fmt::format(
      "# Joins the {} shards of sweep Job {} into /results/merged: every\n"
      "# point and summary.csv, classes.csv. Apply once that Job is "
      "complete.\n",
      spec.shards, spec.name);
  out += "apiVersion: batch/v1\nkind: Job\n" +
         Metadata(spec, spec.name + "-merge") +
         "spec:\n  completions: 1\n  backoffLimit: 0\n";
  out += PodTemplate(spec, "merge", {},
                     "exec gpushare-sim merge /results/shard-* --out "
                     "/results/merged");
  return out;
}

}  // namespace gpushare
