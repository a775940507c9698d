#include "gpushare/sim/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/sim/kai_queue_reader.h"
#include "gpushare/sim/kubectl_class_reader.h"
#include "gpushare/sim/kubernetes_names.h"
#include "gpushare/sim/model_reader.h"
#include "gpushare/sim/patrol_reader.h"
#include "gpushare/sim/priority_class_reader.h"
#include "gpushare/sim/queue_reader.h"
#include "gpushare/workload/cluster_import.h"
#include "gpushare/workload/trace_workload.h"

namespace gpushare {
namespace {

constexpr double kMaxSeconds = 1e9;  // about 31 years of simulated time
constexpr double kMaxCpuCores = 100000;
constexpr double kMaxMemoryGib = 1048576;  // 1 PiB
constexpr double kMaxScenarioRate = 1e6;
constexpr int64_t kMaxClassCount = 10000000;
constexpr double kLowest = std::numeric_limits<double>::lowest();
constexpr double kHighest = std::numeric_limits<double>::max();

// ---------------------------------------------------------------------------
// Generic located helpers on top of YamlMap.

// A number for messages: integers without a fraction or exponent.
std::string MessageNum(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return fmt::format("{}", v);
}

std::string Label(const YamlMap& m, std::string_view key) {
  return m.what() + " " + std::string(key);
}

// The key node of `key` in `m` (for errors about a key), or the mapping.
YAML::Node KeyNode(const YamlMap& m, std::string_view key) {
  for (const auto& entry : m.node()) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) {
      return entry.first;
    }
  }
  return m.node();
}

[[noreturn]] void FailKey(const YamlMap& m, std::string_view key,
                          const std::string& message) {
  FailAt(m.file(), KeyNode(m, key), Label(m, key) + ": " + message);
}

// The value of required `key`; an empty value fails at the key.
YAML::Node Value(const YamlMap& m, std::string_view key,
                 std::string_view expected) {
  YAML::Node value = m.Get(key);
  if (value.IsNull()) {
    FailKey(m, key, fmt::format("expected {}, got nothing", expected));
  }
  return value;
}

// A list under `key`; `non_empty` refuses [].
YAML::Node List(const YamlMap& m, std::string_view key, bool non_empty) {
  YAML::Node value = Value(m, key, "a list");
  if (!value.IsSequence()) {
    FailAt(m.file(), value,
           Label(m, key) + ": expected a list, got " + DescribeYamlNode(value));
  }
  if (non_empty && value.size() == 0) {
    FailAt(m.file(), value, Label(m, key) + ": expected at least one item");
  }
  return value;
}

// A number in [min, max] (or (min, max] when `above_min`).
double Number(const YamlMap& m, std::string_view key, double min, double max,
              bool above_min = false) {
  YAML::Node value = Value(m, key, "a number");
  const double v =
      ScalarDouble(m.file(), value, Label(m, key), kLowest, kHighest);
  if (v < min || v > max || (above_min && v == min)) {
    const std::string range =
        above_min
            ? fmt::format("> {} and <= {}", MessageNum(min), MessageNum(max))
            : fmt::format("{}..{}", MessageNum(min), MessageNum(max));
    FailAt(m.file(), value,
           fmt::format("{}: {} is out of range (expected {})", Label(m, key),
                       value.Scalar(), range));
  }
  return v;
}

// A string under `key` that must be one of `allowed`.
std::string Choice(const YamlMap& m, std::string_view key,
                   std::string_view noun,
                   const std::vector<std::string>& allowed) {
  const std::string text = m.String(key);
  for (const std::string& a : allowed) {
    if (a == text) return text;
  }
  FailAt(m.file(), m.Get(key),
         fmt::format("{}: unknown {} '{}'{} (allowed: {})", Label(m, key), noun,
                     text, DidYouMean(text, allowed, 1), JoinNames(allowed)));
}

// The what of a list item named by its `name` key, if it has one.
std::string NamedWhat(const std::string& file, const YAML::Node& node,
                      const std::string& kind) {
  YamlMap entry(file, node, kind);
  if (entry.Has("name") && entry.node()["name"].IsScalar()) {
    return kind + " '" + entry.node()["name"].Scalar() + "'";
  }
  return kind;
}

// Whether `word` occurs in `text` as a whole word (not inside a longer name
// made of letters, digits and '_').
bool MentionsWord(std::string_view text, std::string_view word, size_t* at) {
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t pos = text.find(word); pos != std::string_view::npos;
       pos = text.find(word, pos + 1)) {
    const size_t end = pos + word.size();
    if ((pos == 0 || !is_name_char(text[pos - 1])) &&
        (end == text.size() || !is_name_char(text[end]))) {
      *at = pos;
      return true;
    }
  }
  return false;
}

// Rethrows a validation error of the section `m` at the value of the key of
// `m` that its message mentions first (after a leading "<what>"), or at
// `fallback`. Keys in `ignored` are never chosen.
[[noreturn]] void FailAtMentionedKey(
    const YamlMap& m, const InputError& e, const YAML::Node& fallback,
    std::initializer_list<std::string_view> ignored) {
  const std::string& message = e.message();
  const std::string_view rest = std::string_view(message).substr(
      message.rfind(m.what(), 0) == 0 ? m.what().size() : 0);
  size_t best = std::string::npos;
  YAML::Node at = fallback;
  for (const auto& entry : m.node()) {
    if (!entry.first.IsScalar()) continue;
    const std::string& key = entry.first.Scalar();
    bool skip = false;
    for (std::string_view i : ignored) skip = skip || i == key;
    size_t pos = 0;
    if (!skip && MentionsWord(rest, key, &pos) && pos < best) {
      best = pos;
      at.reset(entry.second.IsNull() ? entry.first : entry.second);
    }
  }
  FailAt(m.file(), at, message);
}

// ---------------------------------------------------------------------------
// Kubernetes names, labels, taints and tolerations.

// A mapping of label keys to values (pool labels, node selectors).
Labels ReadLabels(const YamlMap& m, std::string_view key) {
  return ReadLabelMap(m.file(), Value(m, key, "a mapping"), Label(m, key));
}

const std::vector<std::string>& TaintEffectNames() {
  static const std::vector<std::string> names = {
      "NoSchedule", "PreferNoSchedule", "NoExecute"};
  return names;
}

TaintEffect ReadEffect(const YamlMap& m) {
  TaintEffect effect = TaintEffect::kNoSchedule;
  ParseTaintEffect(Choice(m, "effect", "effect", TaintEffectNames()), &effect);
  return effect;
}

std::vector<Taint> ReadTaints(const YamlMap& pool) {
  std::vector<Taint> taints;
  for (const auto& node : List(pool, "taints", false)) {
    YamlMap t(pool.file(), node, pool.what() + " taint");
    t.AllowOnly({"key", "value", "effect"});
    Taint taint;
    taint.key = t.String("key");
    CheckLabelKey(t.file(), t.Get("key"), Label(t, "key"), taint.key);
    if (t.Has("value")) {
      taint.value = t.String("value");
      CheckLabelValue(t.file(), t.Get("value"), Label(t, "value"), taint.value);
    }
    taint.effect = ReadEffect(t);
    for (const Taint& other : taints) {
      if (other.key == taint.key && other.effect == taint.effect) {
        t.Fail(node, fmt::format("taint {}:{} is given twice", taint.key,
                                 TaintEffectName(taint.effect)));
      }
    }
    taints.push_back(std::move(taint));
  }
  return taints;
}

std::vector<Toleration> ReadTolerations(const YamlMap& c) {
  std::vector<Toleration> tolerations;
  for (const auto& node : List(c, "tolerations", false)) {
    YamlMap t(c.file(), node, c.what() + " toleration");
    t.AllowOnly({"key", "operator", "value", "effect"});
    Toleration tol;
    if (t.Has("key")) {
      tol.key = t.String("key");
      if (!tol.key.empty()) {
        CheckLabelKey(t.file(), t.Get("key"), Label(t, "key"), tol.key);
      }
    }
    if (t.Has("operator")) {
      tol.op =
          Choice(t, "operator", "operator", {"Equal", "Exists"}) == "Exists"
              ? Toleration::Operator::kExists
              : Toleration::Operator::kEqual;
    }
    if (t.Has("value")) {
      tol.value = t.String("value");
      CheckLabelValue(t.file(), t.Get("value"), Label(t, "value"), tol.value);
      if (tol.op == Toleration::Operator::kExists && !tol.value.empty()) {
        FailAt(t.file(), t.Get("value"),
               Label(t, "value") + ": must be empty with operator Exists");
      }
    }
    if (tol.key.empty() && tol.op != Toleration::Operator::kExists) {
      t.Fail(node,
             "an empty key needs operator Exists (it tolerates every "
             "taint)");
    }
    if (t.Has("effect")) {
      tol.any_effect = false;
      tol.effect = ReadEffect(t);
    }
    tolerations.push_back(std::move(tol));
  }
  return tolerations;
}

// ---------------------------------------------------------------------------
// Cluster.

// cpu: cores (a number) or millicores ("96000m").
int64_t ReadCpuMilli(const YamlMap& m) {
  YAML::Node value = Value(m, "cpu", "a number");
  const std::string label = Label(m, "cpu");
  const std::string range =
      fmt::format("expected > 0 and <= {} cores", MessageNum(kMaxCpuCores));
  if (value.IsScalar() && !value.Scalar().empty() &&
      value.Scalar().back() == 'm') {
    const std::string digits =
        value.Scalar().substr(0, value.Scalar().size() - 1);
    bool ok = !digits.empty() && digits.size() <= 12;
    for (char ch : digits) ok = ok && ch >= '0' && ch <= '9';
    if (!ok) {
      FailAt(m.file(), value,
             fmt::format("{}: expected cores (96) or millicores (\"96000m\"), "
                         "got '{}'",
                         label, value.Scalar()));
    }
    const int64_t milli = std::stoll(digits);
    if (milli < 1 || milli > static_cast<int64_t>(kMaxCpuCores) * 1000) {
      FailAt(m.file(), value,
             fmt::format("{}: {} is out of range ({})", label, value.Scalar(),
                         range));
    }
    return milli;
  }
  if (!value.IsScalar()) {
    FailAt(m.file(), value,
           fmt::format("{}: expected cores (96) or millicores (\"96000m\"), "
                       "got {}",
                       label, DescribeYamlNode(value)));
  }
  const double cores = Number(m, "cpu", 0, kMaxCpuCores, true);
  const int64_t milli = std::llround(cores * 1000);
  if (milli < 1) {
    FailAt(m.file(), value,
           fmt::format("{}: {} is less than one millicore", label,
                       value.Scalar()));
  }
  return milli;
}

const std::vector<std::string>& SchemeNames() {
  static const std::vector<std::string> names = {
      "exclusive", "time-slicing", "mps", "mig", "hami", "vgpu"};
  return names;
}

HamiPolicy ReadHamiPolicy(const YamlMap& m, std::string_view key) {
  return Choice(m, key, "policy", {"binpack", "spread"}) == "binpack"
             ? HamiPolicy::kBinpack
             : HamiPolicy::kSpread;
}

HamiSettings ReadHami(const YamlMap& sharing) {
  YamlMap h = sharing.Map("hami", sharing.what() + " hami");
  h.AllowOnly({"split_count", "memory_scaling", "core_scaling",
               "default_memory_mib", "default_cores", "node_policy",
               "gpu_policy"});
  HamiSettings s;
  if (h.Has("split_count")) {
    s.split_count = static_cast<int>(h.Int("split_count", 1, 1000));
  }
  if (h.Has("memory_scaling")) {
    s.memory_scaling = Number(h, "memory_scaling", 0, 100, true);
  }
  if (h.Has("core_scaling")) {
    s.core_scaling = Number(h, "core_scaling", 0, 100, true);
  }
  if (h.Has("default_memory_mib")) {
    s.default_memory_mib = h.Int("default_memory_mib", 0, 4194304);
  }
  if (h.Has("default_cores")) {
    s.default_cores = static_cast<int>(h.Int("default_cores", 0, 100));
  }
  if (h.Has("node_policy")) s.node_policy = ReadHamiPolicy(h, "node_policy");
  if (h.Has("gpu_policy")) s.gpu_policy = ReadHamiPolicy(h, "gpu_policy");
  return s;
}

// mig_layouts: a list of layouts (lists of items), or one layout (a list of
// items) for every GPU.
std::vector<std::vector<std::string>> ReadMigLayouts(const YamlMap& m) {
  const std::string label = Label(m, "mig_layouts");
  YAML::Node list = List(m, "mig_layouts", true);
  std::vector<std::vector<std::string>> layouts;
  bool nested = list[0].IsSequence();
  if (!nested) layouts.emplace_back();
  for (const auto& item : list) {
    if (!nested) {
      layouts.back().push_back(ScalarString(m.file(), item, label + " item"));
      continue;
    }
    if (!item.IsSequence()) {
      FailAt(m.file(), item,
             label +
                 ": expected a list of layouts (each a list of items), "
                 "got " +
                 DescribeYamlNode(item));
    }
    std::vector<std::string> layout;
    for (const auto& entry : item) {
      layout.push_back(ScalarString(m.file(), entry, label + " item"));
    }
    layouts.push_back(std::move(layout));
  }
  return layouts;
}

SharingConfig ReadSharing(const YamlMap& pool) {
  YamlMap s = pool.Map("sharing", pool.what() + " sharing");
  s.AllowOnly({"scheme", "replicas", "rename_by_default",
               "fail_requests_greater_than_one", "replica_policy",
               "mig_strategy", "mig_config", "mig_layouts", "hami"});
  SharingScheme scheme = SharingScheme::kExclusive;
  ParseSharingScheme(Choice(s, "scheme", "scheme", SchemeNames()), &scheme);
  SharingConfig config;
  // A key that does not apply to the scheme is an error, so that no setting
  // is silently ignored.
  auto refuse = [&](std::string_view key, const char* why) {
    if (s.Has(key)) FailKey(s, key, why);
  };
  if (scheme == SharingScheme::kExclusive) {
    for (const char* key :
         {"replicas", "rename_by_default", "fail_requests_greater_than_one",
          "replica_policy", "mig_strategy", "mig_config", "mig_layouts",
          "hami"}) {
      refuse(key, "does not apply to scheme exclusive");
    }
    return config;
  }
  // MIG: scheme mig, or a MIG config/layout under another scheme (which
  // SharingConfig::Validate accepts for time-slicing and rejects for MPS and
  // HAMi, saying why).
  config.mig_enabled = scheme == SharingScheme::kMig || s.Has("mig_config") ||
                       s.Has("mig_layouts");
  if (!config.mig_enabled) {
    refuse("mig_strategy",
           "needs MIG (scheme mig, or mig_config / mig_layouts)");
  }
  if (s.Has("mig_strategy")) {
    config.mig.strategy = Choice(s, "mig_strategy", "MIG strategy",
                                 {"single", "mixed"}) == "mixed"
                              ? MigStrategy::kMixed
                              : MigStrategy::kSingle;
  }
  if (s.Has("mig_config")) config.mig.config_name = s.String("mig_config");
  if (s.Has("mig_layouts")) config.mig.layouts = ReadMigLayouts(s);

  switch (scheme) {
    case SharingScheme::kTimeSlicing:
      config.sharing = DeviceSharing::kTimeSlicing;
      break;
    case SharingScheme::kMps:
      config.sharing = DeviceSharing::kMps;
      config.replicas.fail_requests_greater_than_one = true;
      break;
    case SharingScheme::kMig:
      config.sharing = s.Has("replicas") ? DeviceSharing::kTimeSlicing
                                         : DeviceSharing::kNone;
      break;
    case SharingScheme::kHami:
      config.sharing = DeviceSharing::kHami;
      break;
    case SharingScheme::kExclusive:
      break;
  }
  const bool replicated = config.sharing == DeviceSharing::kTimeSlicing ||
                          config.sharing == DeviceSharing::kMps;
  if (replicated) {
    config.replicas.replicas = static_cast<int>(s.Int("replicas", 0, 1000000));
    if (s.Has("rename_by_default")) {
      config.replicas.rename_by_default = s.Bool("rename_by_default");
    }
    if (s.Has("fail_requests_greater_than_one")) {
      config.replicas.fail_requests_greater_than_one =
          s.Bool("fail_requests_greater_than_one");
    }
    if (s.Has("replica_policy")) {
      config.replicas.policy = Choice(s, "replica_policy", "replica policy",
                                      {"distributed", "packed"}) == "packed"
                                   ? ReplicaPolicy::kPacked
                                   : ReplicaPolicy::kDistributed;
    }
  } else {
    const char* why = scheme == SharingScheme::kMig
                          ? "needs replicas (time-slicing of MIG instances)"
                          : "applies to time-slicing, mps and mig";
    for (const char* key :
         {"rename_by_default", "fail_requests_greater_than_one",
          "replica_policy"}) {
      refuse(key, why);
    }
    refuse("replicas", "applies to time-slicing, mps and mig");
  }
  if (config.sharing == DeviceSharing::kHami) {
    if (s.Has("hami")) config.hami = ReadHami(s);
  } else {
    refuse("hami", "applies to scheme hami");
  }
  return config;
}

// Where each pool was defined (for duplicate names).
struct PoolSource {
  std::string name;
  int line = 0;
};

NodePoolSpec ReadPool(const std::string& file, const YAML::Node& node,
                      const Catalog& catalog,
                      std::vector<PoolSource>* sources) {
  YamlMap pool(file, node, NamedWhat(file, node, "pool"));
  pool.AllowOnly({"name", "gpu", "nodes", "gpus_per_node", "cpu", "memory_gib",
                  "max_pods", "labels", "taints", "sharing",
                  "licence_per_gpu_hour"});
  NodePoolSpec spec;
  spec.name = pool.String("name");
  if (!IsDnsLabel(spec.name, 40)) {
    FailAt(file, pool.Get("name"),
           "pool name '" + spec.name +
               "' must be lowercase letters, digits and '-' (at most 40, "
               "starting and ending with a letter or digit)");
  }
  for (const PoolSource& other : *sources) {
    if (other.name == spec.name) {
      FailAt(file, pool.Get("name"),
             fmt::format("pool '{}' is defined twice (first at line {})",
                         spec.name, other.line));
    }
  }
  sources->push_back({spec.name, pool.Get("name").Mark().line + 1});
  spec.nodes = static_cast<int>(pool.Int("nodes", 1, kMaxNodesPerPool));
  if (pool.Has("gpus_per_node")) {
    spec.gpus_per_node =
        static_cast<int>(pool.Int("gpus_per_node", 0, kMaxGpusPerNode));
  }
  const GpuModel* model = nullptr;
  if (pool.Has("gpu")) {
    const std::string name = pool.String("gpu");
    try {
      model = &catalog.Get(name);
    } catch (const InputError& e) {
      FailAt(file, pool.Get("gpu"), Label(pool, "gpu") + ": " + e.message());
    }
    spec.gpu_model = model->name;
  } else if (spec.gpus_per_node > 0) {
    pool.Fail(node,
              "missing required key 'gpu' (a catalog model; needed when "
              "gpus_per_node > 0)");
  }
  if (pool.Has("cpu")) spec.cpu_milli = ReadCpuMilli(pool);
  if (pool.Has("memory_gib")) {
    const double gib = Number(pool, "memory_gib", 0, kMaxMemoryGib, true);
    spec.memory_mib = std::max<int64_t>(1, std::llround(gib * 1024));
  }
  if (pool.Has("licence_per_gpu_hour")) {
    spec.licence_per_gpu_hour = pool.Double("licence_per_gpu_hour", 0, 100000);
  }
  if (pool.Has("max_pods")) {
    spec.max_pods = static_cast<int>(pool.Int("max_pods", 1, 10000));
  }
  if (pool.Has("labels")) {
    spec.labels = ReadLabels(pool, "labels");
    for (const char* reserved : {kNodePoolLabel, "kubernetes.io/hostname"}) {
      if (spec.labels.count(reserved) > 0) {
        FailKey(pool, "labels",
                fmt::format("label '{}' is set by the simulator", reserved));
      }
    }
  }
  if (pool.Has("taints")) spec.taints = ReadTaints(pool);
  if (pool.Has("sharing")) {
    spec.sharing = ReadSharing(pool);
    const bool shares = spec.sharing.mig_enabled ||
                        spec.sharing.sharing != DeviceSharing::kNone;
    if (spec.gpus_per_node == 0 && shares) {
      FailKey(pool, "sharing", "a pool without GPUs cannot share GPUs");
    }
    if (spec.gpus_per_node > 0) {
      try {
        spec.sharing.Validate(*model, spec.gpus_per_node);
      } catch (const InputError& e) {
        FailKey(pool, "sharing", e.message());
      }
    }
  }
  return spec;
}

// A mapping of the trace's GPU model names to catalog models, over the
// default table.
GpuModelMap ReadModelMap(const YamlMap& m, const Catalog& catalog) {
  GpuModelMap map = GpuModelMap::Default();
  const YamlMap entries = m.Map("model_map", m.what() + " model_map");
  for (const auto& kv : entries.node()) {
    const std::string trace =
        ScalarString(m.file(), kv.first, m.what() + " model_map key");
    const std::string target =
        ScalarString(m.file(), kv.second, m.what() + " model_map." + trace);
    const GpuModel* model = catalog.Find(target);
    if (model == nullptr) {
      try {
        catalog.Get(target);
      } catch (const InputError& e) {
        FailAt(m.file(), kv.second,
               m.what() + " model_map." + trace + ": " + e.message());
      }
    }
    map.Set(trace, model->name);
  }
  return map;
}

// Refuses `keys` of `m` with `why` (settings that do not apply).
void Refuse(const YamlMap& m, std::initializer_list<std::string_view> keys,
            const std::string& why) {
  for (std::string_view key : keys) {
    if (m.Has(key)) FailKey(m, key, why);
  }
}

std::vector<NodePoolSpec> ReadImport(const YamlMap& cluster,
                                     const Catalog& catalog) {
  const YamlMap im = cluster.Map("import", "cluster import");
  im.AllowOnly({"format", "file", "prefix", "sharing", "model_map"});
  ClusterImportSpec spec;
  const std::string format =
      Choice(im, "format", "node list format", {"kubectl", "openb"});
  spec.format =
      format == "kubectl" ? NodeListFormat::kKubectl : NodeListFormat::kOpenb;
  spec.file = im.InputPath("file");
  if (im.Has("prefix")) {
    spec.prefix = im.String("prefix");
    if (!spec.prefix.empty() &&
        (!IsDnsLabel(spec.prefix, 20) || spec.prefix.back() == '-')) {
      FailKey(im, "prefix",
              "expected lowercase letters, digits and '-' (at most 20)");
    }
    if (!spec.prefix.empty()) spec.prefix += "-";
  }
  if (im.Has("sharing")) {
    spec.override_sharing = true;
    spec.sharing = ReadSharing(im);
  }
  if (spec.format == NodeListFormat::kKubectl) {
    Refuse(im, {"model_map"}, "applies to openb node lists only");
  } else if (im.Has("model_map")) {
    spec.model_map = ReadModelMap(im, catalog);
  }
  return ImportNodePools(spec, catalog);
}

std::vector<NodePoolSpec> ReadCluster(const YamlMap& top,
                                      const Catalog& catalog) {
  YamlMap cluster = top.Map("cluster", "cluster");
  cluster.AllowOnly({"import", "pools"});
  if (!cluster.Has("import") && !cluster.Has("pools")) {
    cluster.Fail(cluster.node(), "give pools, an import, or both");
  }
  std::vector<NodePoolSpec> pools;
  if (cluster.Has("import")) pools = ReadImport(cluster, catalog);
  std::vector<PoolSource> sources;
  for (const NodePoolSpec& p : pools) sources.push_back({p.name, 0});
  if (cluster.Has("pools")) {
    for (const auto& node : List(cluster, "pools", true)) {
      const YAML::Node name = node.IsMap() ? node["name"] : YAML::Node();
      for (const PoolSource& s : sources) {
        if (s.line == 0 && name.IsDefined() && name.IsScalar() &&
            name.Scalar() == s.name) {
          FailAt(cluster.file(), name,
                 "pool '" + s.name +
                     "' has the name of an imported pool; rename it or set "
                     "import.prefix");
        }
      }
      pools.push_back(ReadPool(cluster.file(), node, catalog, &sources));
    }
  }
  return pools;
}

// ---------------------------------------------------------------------------
// Workload.

const std::vector<std::string>& DistributionKinds() {
  static const std::vector<std::string> kinds = {
      "constant", "uniform", "exponential", "lognormal", "choice"};
  return kinds;
}

Distribution ReadDistributionNode(const std::string& file,
                                  const YAML::Node& node,
                                  const std::string& label) {
  Distribution d;
  if (node.IsScalar()) {
    d = Distribution::Constant(
        ScalarDouble(file, node, label, kLowest, kHighest));
  } else if (node.IsMap()) {
    YamlMap m(file, node, label);
    m.AllowOnly({"constant", "uniform", "exponential", "lognormal", "choice"});
    if (node.size() != 1) {
      std::vector<std::string> keys;
      YAML::Node second = node;
      for (const auto& entry : node) {
        keys.push_back(entry.first.Scalar());
        if (keys.size() == 2) second.reset(entry.first);
      }
      FailAt(file, second,
             fmt::format("{}: expected exactly one of {}, got {}", label,
                         JoinNames(DistributionKinds()),
                         keys.empty() ? "none" : JoinNames(keys, " and ")));
    }
    const std::string kind = node.begin()->first.Scalar();
    if (kind == "constant") {
      d = Distribution::Constant(Number(m, "constant", kLowest, kHighest));
    } else if (kind == "exponential") {
      d = Distribution::Exponential(
          Number(m, "exponential", kLowest, kHighest));
    } else if (kind == "uniform") {
      YAML::Node bounds = List(m, "uniform", false);
      if (bounds.size() != 2) {
        FailAt(file, bounds,
               fmt::format("{} uniform: expected [min, max], got {} values",
                           label, bounds.size()));
      }
      const std::string what = label + " uniform";
      d = Distribution::Uniform(
          ScalarDouble(file, bounds[0], what, kLowest, kHighest),
          ScalarDouble(file, bounds[1], what, kLowest, kHighest));
    } else if (kind == "lognormal") {
      YamlMap p = m.Map("lognormal", label + " lognormal");
      p.AllowOnly({"median", "sigma", "min", "max"});
      const double median = Number(p, "median", kLowest, kHighest);
      const double sigma = Number(p, "sigma", kLowest, kHighest);
      double lo = 0;
      double hi = 0;
      if (p.Has("min")) {
        if (!p.Has("max")) {
          FailKey(p, "min", "needs max (samples are clamped to [min, max])");
        }
        lo = Number(p, "min", kLowest, kHighest);
      }
      if (p.Has("max")) hi = Number(p, "max", kLowest, kHighest);
      d = Distribution::LogNormal(median, sigma, lo, hi);
    } else {  // choice
      const std::string what = label + " choice";
      std::vector<std::pair<double, double>> choices;
      for (const auto& item : List(m, "choice", true)) {
        if (item.IsScalar()) {
          choices.emplace_back(
              ScalarDouble(file, item, what, kLowest, kHighest), 1.0);
          continue;
        }
        if (!item.IsSequence() || item.size() != 2) {
          FailAt(file, item,
                 what + ": expected a value or [value, weight], got " +
                     DescribeYamlNode(item));
        }
        choices.emplace_back(
            ScalarDouble(file, item[0], what + " value", kLowest, kHighest),
            ScalarDouble(file, item[1], what + " weight", kLowest, kHighest));
      }
      d = Distribution::Choice(std::move(choices));
    }
  } else {
    FailAt(file, node,
           label + ": expected a number or a distribution (" +
               JoinNames(DistributionKinds()) + "), got " +
               DescribeYamlNode(node));
  }
  try {
    d.Validate(label);
  } catch (const InputError& e) {
    FailAt(file, node, e.message());
  }
  return d;
}

void ReadDistribution(const YamlMap& m, std::string_view key,
                      Distribution* out) {
  if (!m.Has(key)) return;
  *out = ReadDistributionNode(
      m.file(), Value(m, key, "a number or a distribution"), Label(m, key));
}

const std::vector<std::string>& ClassNames() {
  static const std::vector<std::string> names = {"training", "inference",
                                                 "batch", "dev"};
  return names;
}

WorkloadClassSpec ReadClass(const std::string& file, const YAML::Node& node,
                            double horizon_s,
                            const std::vector<NodePoolSpec>& pools,
                            const std::vector<PriorityClass>& priority_classes,
                            const KueueConfig& queues,
                            const KaiConfig& kai_queues,
                            std::vector<std::string>* names) {
  YamlMap c(file, node, NamedWhat(file, node, "class"));
  c.AllowOnly({"name",
               "class",
               "tenants",
               "priority",
               "arrival_rate_per_s",
               "count",
               "gpus",
               "gpu_memory_mib",
               "sm_demand",
               "duty",
               "work_s",
               "lifetime_s",
               "request_rate",
               "gpu_ms_per_request",
               "slo_p99_ms",
               "cpu_milli",
               "memory_mib",
               "node_selector",
               "tolerations",
               "requests",
               "restart_policy",
               "priority_class",
               "termination_grace_period_s",
               "checkpoint_interval_s",
               "gang",
               "queue"});
  WorkloadClassSpec spec;
  spec.name = c.String("name");
  if (!IsDnsLabel(spec.name, 50)) {
    FailAt(file, c.Get("name"),
           "class name '" + spec.name +
               "' must be lowercase letters, digits and '-' (at most 50, "
               "starting and ending with a letter or digit; pods are named "
               "<class>-<n>)");
  }
  for (const std::string& other : *names) {
    if (other == spec.name) {
      FailAt(file, c.Get("name"), "class '" + spec.name + "' is defined twice");
    }
  }
  names->push_back(spec.name);
  ParseWorkloadClass(Choice(c, "class", "class", ClassNames()),
                     &spec.workload_class);
  if (c.Has("restart_policy")) {
    static const std::vector<std::string> kPolicies = {"Always", "OnFailure",
                                                       "Never"};
    const std::string policy =
        Choice(c, "restart_policy", "restart_policy", kPolicies);
    spec.restart_policy = policy == "Always"      ? RestartPolicy::kAlways
                          : policy == "OnFailure" ? RestartPolicy::kOnFailure
                                                  : RestartPolicy::kNever;
  }
  if (c.Has("tenants")) {
    spec.tenants.clear();
    const std::string label = Label(c, "tenants");
    for (const auto& item : List(c, "tenants", true)) {
      const std::string tenant = ScalarString(file, item, label);
      if (!IsDnsLabel(tenant, 63)) {
        FailAt(file, item,
               label + ": tenant '" + tenant +
                   "' must be lowercase letters, digits and '-' (a "
                   "namespace name, at most 63)");
      }
      for (const std::string& other : spec.tenants) {
        if (other == tenant) {
          FailAt(file, item,
                 label + ": tenant '" + tenant + "' is listed twice");
        }
      }
      spec.tenants.push_back(tenant);
    }
  }
  if (c.Has("priority") && c.Has("priority_class")) {
    FailAt(file, c.Get("priority_class"),
           "give priority or priority_class, not both (a pod's priority "
           "comes from its PriorityClass)");
  }
  if (c.Has("priority")) {
    spec.priority = static_cast<int32_t>(
        c.Int("priority", std::numeric_limits<int32_t>::min(),
              std::numeric_limits<int32_t>::max()));
  }
  const PriorityClass* priority_class =
      GlobalDefaultPriorityClass(priority_classes);
  if (c.Has("priority_class")) {
    const std::string name = c.String("priority_class");
    priority_class = FindPriorityClass(priority_classes, name);
    if (priority_class == nullptr) {
      std::vector<std::string> known;
      for (const PriorityClass& p : priority_classes) known.push_back(p.name);
      for (const PriorityClass& p : SystemPriorityClasses()) {
        known.push_back(p.name);
      }
      FailAt(file, c.Get("priority_class"),
             fmt::format("priority_class: no priority class is named '{}'{} "
                         "(known: {}; define it under priority_classes)",
                         name, DidYouMean(name, known, 1), JoinNames(known)));
    }
  }
  if (priority_class != nullptr && !c.Has("priority")) {
    spec.priority_class_name = priority_class->name;
    spec.priority = priority_class->value;
    spec.preemption_policy = priority_class->preemption_policy;
  }
  if (c.Has("termination_grace_period_s")) {
    spec.termination_grace_period_s =
        Number(c, "termination_grace_period_s", 0, kMaxSeconds);
  }
  if (c.Has("checkpoint_interval_s")) {
    spec.checkpoint_interval_s =
        Number(c, "checkpoint_interval_s", 0, kMaxSeconds);
  }
  if (c.Has("gang")) {
    // A PodGroup per arrival (scheduler-plugins Coscheduling).
    YamlMap g = c.Map("gang", Label(c, "gang"));
    g.AllowOnly({"size", "min_member", "timeout_s"});
    spec.gang_size = static_cast<int>(g.Int("size", 1, 10000));
    spec.gang_min_member = spec.gang_size;
    if (g.Has("min_member")) {
      spec.gang_min_member =
          static_cast<int>(g.Int("min_member", 1, spec.gang_size));
    }
    if (g.Has("timeout_s")) {
      spec.gang_timeout_s = Number(g, "timeout_s", 0, kMaxSeconds, true);
    }
  }
  if (c.Has("count")) spec.count = c.Int("count", 0, kMaxClassCount);
  if (c.Has("arrival_rate_per_s")) {
    spec.arrival_rate_per_s =
        Number(c, "arrival_rate_per_s", 0, kMaxScenarioRate);
  } else if (spec.count > 0) {
    // count alone: that many pods at Poisson times spread over the horizon.
    spec.arrival_rate_per_s = static_cast<double>(spec.count) / horizon_s;
  }
  ReadDistribution(c, "gpus", &spec.gpus);
  ReadDistribution(c, "gpu_memory_mib", &spec.gpu_memory_mib);
  ReadDistribution(c, "sm_demand", &spec.sm_demand);
  ReadDistribution(c, "duty", &spec.duty);
  ReadDistribution(c, "work_s", &spec.work_s);
  ReadDistribution(c, "lifetime_s", &spec.lifetime_s);
  ReadDistribution(c, "request_rate", &spec.request_rate);
  ReadDistribution(c, "gpu_ms_per_request", &spec.gpu_ms_per_request);
  ReadDistribution(c, "slo_p99_ms", &spec.slo_p99_ms);
  ReadDistribution(c, "cpu_milli", &spec.cpu_milli);
  ReadDistribution(c, "memory_mib", &spec.memory_mib);
  if (c.Has("node_selector")) {
    spec.node_selector = ReadLabels(c, "node_selector");
    auto it = spec.node_selector.find(kNodePoolLabel);
    if (it != spec.node_selector.end()) {
      std::vector<std::string> pool_names;
      bool found = false;
      for (const NodePoolSpec& p : pools) {
        pool_names.push_back(p.name);
        found = found || p.name == it->second;
      }
      if (!found) {
        FailAt(file, c.Get("node_selector")[kNodePoolLabel],
               fmt::format("{}: no pool is named '{}'{} (pools: {})",
                           Label(c, "node_selector"), it->second,
                           DidYouMean(it->second, pool_names, 1),
                           JoinNames(pool_names)));
      }
    }
  }
  if (c.Has("tolerations")) spec.tolerations = ReadTolerations(c);
  if (c.Has("queue") && kai_queues.enabled()) {
    // The kai.scheduler/queue label: a leaf queue of kai_queues.
    spec.queue_name = c.String("queue");
    const std::vector<std::string> leaves = KaiLeafQueues(kai_queues);
    if (std::find(leaves.begin(), leaves.end(), spec.queue_name) ==
        leaves.end()) {
      const bool parent = std::any_of(
          kai_queues.queues.begin(), kai_queues.queues.end(),
          [&](const KaiQueueSpec& q) { return q.name == spec.queue_name; });
      FailAt(file, c.Get("queue"),
             fmt::format("{}: '{}' is {} (leaf queues: {})", Label(c, "queue"),
                         spec.queue_name,
                         parent ? "a parent queue; only leaf queues take jobs"
                                : "not a queue of kai_queues" +
                                      DidYouMean(spec.queue_name, leaves, 1),
                         JoinNames(leaves)));
    }
  } else if (c.Has("queue")) {
    // The kueue.x-k8s.io/queue-name label: a LocalQueue in each tenant's
    // namespace.
    spec.queue_name = c.String("queue");
    for (const std::string& tenant : spec.tenants) {
      bool found = false;
      std::vector<std::string> known;
      for (const LocalQueueSpec& lq : queues.local_queues) {
        found |= lq.name == spec.queue_name && lq.namespace_name == tenant;
        if (lq.namespace_name == tenant) known.push_back(lq.name);
      }
      if (!found) {
        FailAt(file, c.Get("queue"),
               fmt::format("{}: namespace '{}' has no LocalQueue '{}'{} "
                           "(define it under queues.local_queues with "
                           "namespace: {})",
                           Label(c, "queue"), tenant, spec.queue_name,
                           DidYouMean(spec.queue_name, known, 1), tenant));
      }
    }
  }
  if (c.Has("requests")) {
    // Extended resources written by hand; they replace translated requests.
    YamlMap r = c.Map("requests", Label(c, "requests"));
    for (const auto& entry : r.node()) {
      const std::string name =
          ScalarString(file, entry.first, Label(c, "requests") + " key");
      if (name == "cpu" || name == "memory" ||
          name.find('/') == std::string::npos) {
        FailAt(file, entry.first,
               Label(c, "requests") + ": '" + name +
                   "' is not an extended resource (cpu and memory come from "
                   "cpu_milli and memory_mib; extended names have a domain, "
                   "like nvidia.com/gpu)");
      }
      if (!IsLabelKey(name)) {
        FailAt(file, entry.first,
               fmt::format("{}: {:?} is not a Kubernetes resource name (a "
                           "qualified name such as nvidia.com/gpu: a DNS "
                           "prefix, '/', then at most 63 letters, digits, "
                           "'-', '_' and '.')",
                           Label(c, "requests"), name));
      }
      spec.requests.emplace_back(
          name, ScalarInt(file, entry.second, Label(c, "requests") + " " + name,
                          1, int64_t{1} << 40));
    }
  }
  if (spec.gang_size > 0 && spec.work_s.kind == Distribution::Kind::kConstant &&
      spec.work_s.value <= 0) {
    FailAt(file, c.Get("gang"),
           Label(c, "gang") +
               ": gang members must be jobs with work (work_s > 0); a "
               "PodGroup of services is not modelled");
  }
  // The generator's own checks (value ranges, services without lifetime,
  // ...), located at the key the message names.
  WorkloadSpec one;
  one.horizon_s = horizon_s;
  one.classes.push_back(spec);
  try {
    one.Validate();
  } catch (const InputError& e) {
    FailAtMentionedKey(c, e, node, {"name", "class", "tenants"});
  }
  return spec;
}

TraceDefaults ReadTraceDefaults(const YamlMap& trace) {
  const YamlMap d = trace.Map("defaults", "workload trace defaults");
  d.AllowOnly({"work_s", "lifetime_s", "gpu_memory_mib", "sm_demand", "duty",
               "workload_class"});
  TraceDefaults out;
  if (d.Has("work_s")) out.work_s = Number(d, "work_s", 0, kMaxSeconds);
  if (d.Has("lifetime_s")) {
    out.lifetime_s = Number(d, "lifetime_s", 0, kMaxSeconds, true);
  }
  if (d.Has("gpu_memory_mib")) {
    out.gpu_memory_mib = d.Int("gpu_memory_mib", 0, 10000000);
  }
  if (d.Has("sm_demand")) out.sm_demand = Number(d, "sm_demand", 0, 1);
  if (d.Has("duty")) out.duty = Number(d, "duty", 0, 1);
  if (d.Has("workload_class")) {
    ParseWorkloadClass(Choice(d, "workload_class", "class", ClassNames()),
                       &out.workload_class);
  }
  return out;
}

TraceWorkload ReadTrace(const YamlMap& w, const Catalog& catalog) {
  const YamlMap t = w.Map("trace", "workload trace");
  t.AllowOnly({"format", "file", "tenant_class", "tenant_class_label",
               "gpu_pods_only", "workload_class_label", "workload_classes",
               "infer_workload_class", "system_namespaces", "model_map",
               "defaults"});
  TraceWorkload trace;
  TraceSpec& spec = trace.spec;
  ParseTraceFormat(
      Choice(t, "format", "trace format", {"openb", "kubectl", "jobs"}),
      &spec.format);
  spec.file = t.InputPath("file");
  if (spec.format != TraceFormat::kOpenb) {
    Refuse(t, {"tenant_class", "model_map"}, "applies to openb traces only");
  }
  if (spec.format != TraceFormat::kKubectl) {
    Refuse(t,
           {"tenant_class_label", "gpu_pods_only", "workload_class_label",
            "workload_classes", "infer_workload_class", "system_namespaces"},
           "applies to kubectl traces only");
  }
  if (spec.format == TraceFormat::kJobs) {
    Refuse(t, {"defaults"}, "job lists give every need in their columns");
  }
  if (t.Has("tenant_class")) {
    spec.openb_tenant_class = Choice(t, "tenant_class", "tenant class source",
                                     {"shape", "qos"}) == "qos"
                                  ? OpenbTenantClass::kQos
                                  : OpenbTenantClass::kShape;
  }
  if (t.Has("model_map")) spec.model_map = ReadModelMap(t, catalog);
  if (t.Has("tenant_class_label")) {
    spec.kubectl_classes.tenant_class_label = t.String("tenant_class_label");
    if (!IsLabelKey(spec.kubectl_classes.tenant_class_label)) {
      FailKey(t, "tenant_class_label", "expected a label key");
    }
  }
  if (t.Has("gpu_pods_only")) spec.gpu_pods_only = t.Bool("gpu_pods_only");
  ReadKubectlClassSettings(t, &spec.kubectl_classes);
  if (t.Has("defaults")) spec.defaults = ReadTraceDefaults(t);
  trace.pods = LoadTracePods(spec, catalog);
  return trace;
}

WorkloadSpec ReadWorkload(const YamlMap& top, double scenario_horizon_s,
                          const std::vector<PriorityClass>& priority_classes,
                          const KueueConfig& queues,
                          const KaiConfig& kai_queues,
                          const std::vector<NodePoolSpec>& pools,
                          const Catalog& catalog) {
  YamlMap w = top.Map("workload", "workload");
  w.AllowOnly({"horizon_s", "classes", "trace"});
  WorkloadSpec spec;
  if (w.Has("horizon_s")) {
    spec.horizon_s = Number(w, "horizon_s", 0, kMaxSeconds, true);
  } else if (scenario_horizon_s > 0) {
    spec.horizon_s = scenario_horizon_s;
  }
  if (!w.Has("classes") && !w.Has("trace")) {
    w.Fail(w.node(), "give classes, a trace, or both");
  }
  std::vector<std::string> names;
  if (w.Has("classes")) {
    for (const auto& node : List(w, "classes", true)) {
      spec.classes.push_back(ReadClass(w.file(), node, spec.horizon_s, pools,
                                       priority_classes, queues, kai_queues,
                                       &names));
    }
  }
  if (w.Has("trace")) spec.trace = ReadTrace(w, catalog);
  try {
    spec.Validate();
  } catch (const InputError& e) {
    FailAt(w.file(), KeyNode(top, "workload"), e.message());
  }
  return spec;
}

// ---------------------------------------------------------------------------
// Scheduler, model, translation, faults.

// Validates `profile` and rethrows its error at `at`.
void ValidateProfileAt(const SchedulerProfile& profile, const std::string& file,
                       const YAML::Node& at, const std::string& prefix) {
  try {
    profile.Validate();
  } catch (const InputError& e) {
    FailAt(file, at, prefix + e.message());
  }
}

ScoringStrategy ReadScoringStrategy(const YamlMap& sched) {
  YamlMap m = sched.Map("scoring_strategy", "scheduler scoring_strategy");
  m.AllowOnly({"type", "resources", "shape"});
  ScoringStrategy s;
  std::string type = "LeastAllocated";
  if (m.Has("type")) {
    type =
        Choice(m, "type", "type",
               {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
  }
  s.type = type == "MostAllocated" ? ScoringStrategy::Type::kMostAllocated
           : type == "RequestedToCapacityRatio"
               ? ScoringStrategy::Type::kRequestedToCapacityRatio
               : ScoringStrategy::Type::kLeastAllocated;
  if (m.Has("resources")) {
    s.resources.clear();
    for (const auto& node : List(m, "resources", true)) {
      YamlMap r(m.file(), node, m.what() + " resource");
      r.AllowOnly({"name", "weight"});
      const std::string name = r.String("name");
      for (const auto& [other, w] : s.resources) {
        if (other == name) {
          FailAt(
              m.file(), r.Get("name"),
              Label(r, "name") + ": resource '" + name + "' is listed twice");
        }
      }
      const int64_t weight = r.Has("weight") ? r.Int("weight", 1, 100) : 1;
      s.resources.emplace_back(name, weight);
    }
  }
  if (m.Has("shape")) {
    if (s.type != ScoringStrategy::Type::kRequestedToCapacityRatio) {
      FailKey(m, "shape", "applies to type RequestedToCapacityRatio");
    }
    s.shape.clear();
    for (const auto& node : List(m, "shape", true)) {
      YamlMap p(m.file(), node, m.what() + " shape point");
      p.AllowOnly({"utilization", "score"});
      const int64_t utilization = p.Int("utilization", 0, 100);
      if (!s.shape.empty() && utilization <= s.shape.back().first) {
        FailAt(m.file(), p.Get("utilization"),
               Label(p, "utilization") +
                   ": utilizations must be strictly increasing");
      }
      s.shape.emplace_back(utilization, p.Int("score", 0, 10));
    }
  }
  return s;
}

SchedulerProfile ReadScheduler(const YamlMap& top) {
  SchedulerProfile profile;
  if (!top.Has("scheduler")) return profile;
  YamlMap m = top.Map("scheduler", "scheduler");
  m.AllowOnly({"percentage_of_nodes_to_score", "tie_break", "filters", "scores",
               "scoring_strategy", "check_invariants", "post_filters",
               "default_preemption", "pod_initial_backoff_s",
               "pod_max_backoff_s"});
  if (m.Has("pod_initial_backoff_s")) {
    // Whole seconds, as KubeSchedulerConfiguration's int64 fields.
    profile.pod_initial_backoff_s =
        static_cast<double>(m.Int("pod_initial_backoff_s", 0, 3600));
  }
  if (m.Has("pod_max_backoff_s")) {
    profile.pod_max_backoff_s =
        static_cast<double>(m.Int("pod_max_backoff_s", 1, 3600));
  }
  if (profile.pod_max_backoff_s < profile.pod_initial_backoff_s) {
    const bool max_written = m.Has("pod_max_backoff_s");
    FailAt(m.file(),
           m.Get(max_written ? "pod_max_backoff_s" : "pod_initial_backoff_s"),
           fmt::format("scheduler pod_max_backoff_s: {} ({}) is below "
                       "pod_initial_backoff_s ({})",
                       profile.pod_max_backoff_s,
                       max_written ? "written" : "the default",
                       profile.pod_initial_backoff_s));
  }
  if (m.Has("percentage_of_nodes_to_score")) {
    profile.percentage_of_nodes_to_score =
        static_cast<int>(m.Int("percentage_of_nodes_to_score", 0, 100));
  }
  if (m.Has("tie_break")) {
    profile.tie_break = Choice(m, "tie_break", "tie break",
                               {"random", "lowest-name"}) == "lowest-name"
                            ? TieBreak::kLowestName
                            : TieBreak::kRandom;
  }
  if (m.Has("filters")) {
    const std::string label = Label(m, "filters");
    profile.filters.clear();
    for (const auto& item : List(m, "filters", false)) {
      const std::string name = ScalarString(m.file(), item, label);
      SchedulerProfile one;
      one.filters = {name};
      ValidateProfileAt(one, m.file(), item, label + ": ");
      for (const std::string& other : profile.filters) {
        if (other == name) {
          FailAt(m.file(), item,
                 label + ": filter plugin '" + name + "' is listed twice");
        }
      }
      profile.filters.push_back(name);
    }
  }
  if (m.Has("scores")) {
    const SchedulerProfile defaults;
    const std::string label = Label(m, "scores");
    profile.scores.clear();
    for (const auto& item : List(m, "scores", false)) {
      YamlMap s(m.file(), item, "scheduler score");
      s.AllowOnly({"name", "weight"});
      const std::string name = s.String("name");
      int64_t weight = 1;  // kube-scheduler: the plugin's default weight
      for (const auto& [n, w] : defaults.scores) {
        if (n == name) weight = w;
      }
      if (s.Has("weight")) weight = s.Int("weight", 1, 1000);
      SchedulerProfile one;
      one.scores = {{name, weight}};
      ValidateProfileAt(one, m.file(), s.Get("name"), label + ": ");
      for (const auto& [other, w] : profile.scores) {
        if (other == name) {
          FailAt(m.file(), s.Get("name"),
                 label + ": score plugin '" + name + "' is listed twice");
        }
      }
      profile.scores.emplace_back(name, weight);
    }
  }
  if (m.Has("scoring_strategy")) {
    profile.scoring_strategy = ReadScoringStrategy(m);
    SchedulerProfile one;
    one.scoring_strategy = profile.scoring_strategy;
    ValidateProfileAt(one, m.file(), KeyNode(m, "scoring_strategy"),
                      "scheduler scoring_strategy: ");
  }
  if (m.Has("check_invariants")) {
    profile.check_invariants = m.Bool("check_invariants");
  }
  if (m.Has("post_filters")) {
    const std::string label = Label(m, "post_filters");
    profile.post_filters.clear();
    for (const auto& item : List(m, "post_filters", false)) {
      const std::string name = ScalarString(m.file(), item, label);
      SchedulerProfile one;
      one.post_filters = {name};
      ValidateProfileAt(one, m.file(), item, label + ": ");
      if (!profile.post_filters.empty()) {
        FailAt(m.file(), item,
               label + ": postFilter plugin '" + name + "' is listed twice");
      }
      profile.post_filters.push_back(name);
    }
  }
  if (m.Has("default_preemption")) {
    YamlMap p = m.Map("default_preemption", "scheduler default_preemption");
    p.AllowOnly(
        {"min_candidate_nodes_percentage", "min_candidate_nodes_absolute"});
    if (p.Has("min_candidate_nodes_percentage")) {
      profile.min_candidate_nodes_percentage =
          static_cast<int>(p.Int("min_candidate_nodes_percentage", 0, 100));
    }
    if (p.Has("min_candidate_nodes_absolute")) {
      profile.min_candidate_nodes_absolute =
          static_cast<int>(p.Int("min_candidate_nodes_absolute", 0, 1000000));
    }
    SchedulerProfile one = profile;
    one.filters.clear();
    one.scores.clear();
    ValidateProfileAt(one, m.file(), KeyNode(m, "default_preemption"),
                      "scheduler default_preemption: ");
  }
  ValidateProfileAt(profile, m.file(), KeyNode(top, "scheduler"),
                    "scheduler: ");
  return profile;
}

ModelParams ReadModel(const YamlMap& top) {
  if (!top.Has("model")) return ModelParams{};
  return ReadModelSection(top.Map("model", "model"), ModelParams{},
                          /*allow_profile=*/true);
}

TranslationOptions ReadTranslation(const YamlMap& top) {
  TranslationOptions options;
  if (!top.Has("translation")) return options;
  YamlMap m = top.Map("translation", "translation");
  m.AllowOnly({"mig_match_sm_demand"});
  if (m.Has("mig_match_sm_demand")) {
    options.mig_match_sm_demand = m.Bool("mig_match_sm_demand");
  }
  return options;
}

std::vector<FaultSpec> ReadFaults(const YamlMap& top,
                                  const std::vector<NodePoolSpec>& pools) {
  std::vector<FaultSpec> faults;
  if (!top.Has("faults")) return faults;
  std::vector<std::string> pool_names;
  int64_t gpus = 0;
  for (const NodePoolSpec& p : pools) {
    pool_names.push_back(p.name);
    gpus += static_cast<int64_t>(p.nodes) * p.gpus_per_node;
  }
  for (const auto& node : List(top, "faults", false)) {
    YamlMap f(top.file(), node, "fault");
    f.AllowOnly({"pool", "at_s", "node", "gpu", "rate_per_gpu_hour",
                 "recovery_s", "reset", "mig_reapply_s"});
    FaultSpec spec;
    const NodePoolSpec* pool = nullptr;
    if (f.Has("pool")) {
      spec.pool = f.String("pool");
      for (const NodePoolSpec& p : pools) {
        if (p.name == spec.pool) pool = &p;
      }
      if (pool == nullptr) {
        FailAt(f.file(), f.Get("pool"),
               fmt::format("fault pool: unknown pool '{}'{} (pools: {})",
                           spec.pool, DidYouMean(spec.pool, pool_names, 1),
                           JoinNames(pool_names)));
      }
      if (pool->gpus_per_node == 0) {
        FailAt(f.file(), f.Get("pool"),
               "fault pool: pool '" + spec.pool + "' has no GPUs");
      }
    } else if (gpus == 0) {
      f.Fail(node, "no pool has GPUs to fail");
    }
    const bool at = f.Has("at_s");
    const bool rate = f.Has("rate_per_gpu_hour");
    if (!at && !rate) {
      f.Fail(node,
             "give at_s (one fault at that time) or rate_per_gpu_hour "
             "(faults at a rate)");
    }
    if (at && rate) {
      FailKey(f, "rate_per_gpu_hour",
              "give either at_s or rate_per_gpu_hour, not both");
    }
    if (at) spec.at_s = Number(f, "at_s", 0, kMaxSeconds);
    if (rate) {
      spec.rate_per_gpu_hour =
          Number(f, "rate_per_gpu_hour", 0, kMaxScenarioRate, true);
    }
    // node and gpu: indexes within the pool, for a fault at at_s.
    auto read_index = [&](const char* key, int count, int* index) {
      if (!f.Has(key)) return;
      if (!at) FailKey(f, key, "applies to a fault at at_s");
      if (pool == nullptr) FailKey(f, key, "needs pool");
      *index = static_cast<int>(f.Int(key, 0, count - 1));
    };
    read_index("node", pool == nullptr ? 0 : pool->nodes, &spec.node);
    read_index("gpu", pool == nullptr ? 0 : pool->gpus_per_node, &spec.gpu);
    if (f.Has("recovery_s")) {
      spec.recovery_s = Number(f, "recovery_s", 0, kMaxSeconds);
    }
    if (f.Has("reset")) spec.reset = f.Bool("reset");
    if (f.Has("mig_reapply_s")) {
      if (!spec.reset) {
        FailKey(f, "mig_reapply_s",
                "applies to a fault with reset: true (a GPU reset destroys "
                "the MIG layout that mig-manager then recreates)");
      }
      if (pool != nullptr && !pool->sharing.mig_enabled) {
        FailKey(f, "mig_reapply_s",
                "pool '" + spec.pool + "' does not use MIG");
      }
      spec.mig_reapply_s = Number(f, "mig_reapply_s", 0, kMaxSeconds);
    }
    faults.push_back(std::move(spec));
  }
  return faults;
}

std::string DefaultName(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  return stem.empty() ? "scenario" : stem;
}

}  // namespace

Scenario ReadScenarioYaml(const std::string& text, const std::string& file,
                          const Catalog& catalog) {
  return ReadScenarioNode(ParseYaml(text, file), file, catalog);
}

Scenario ReadScenarioNode(const YAML::Node& root, const std::string& file,
                          const Catalog& catalog) {
  if (!root.IsDefined() || root.IsNull()) {
    throw InputError(file, 1, 1,
                     "empty scenario file (expected 'cluster:' and "
                     "'workload:')");
  }
  YamlMap top(file, root, "scenario");
  top.AllowOnly({"name", "seed", "horizon_s", "sample_interval_s", "cluster",
                 "workload", "scheduler", "model", "translation", "faults",
                 "device_plugin_stalls", "patrol", "priority_classes", "queues",
                 "kai_queues",
                 // Read by `compare` (decide/comparison_spec_reader.h)
                 // and `plan` (decide/plan_spec_reader.h).
                 "compare", "selection", "plan"});
  Scenario scenario;
  scenario.file = file;
  scenario.name = DefaultName(file);
  if (top.Has("name")) {
    scenario.name = top.String("name");
    if (scenario.name.empty()) {
      FailAt(file, top.Get("name"), "scenario name: must not be empty");
    }
  }
  if (top.Has("seed")) {
    scenario.seed = static_cast<uint64_t>(
        top.Int("seed", 0, std::numeric_limits<int64_t>::max()));
  }
  if (top.Has("horizon_s")) {
    scenario.horizon_s = Number(top, "horizon_s", 0, kMaxSeconds);
  }
  if (top.Has("sample_interval_s")) {
    // DCGM exporters sample every few seconds at the finest; a bound keeps
    // the number of samples (and the outputs) sane.
    scenario.sample_interval_s =
        Number(top, "sample_interval_s", 1, kMaxSeconds);
    if (scenario.horizon_s / scenario.sample_interval_s > 1e6) {
      FailAt(file, top.Get("sample_interval_s"),
             fmt::format("sample_interval_s: {} s over a horizon of {} s "
                         "makes more than 1,000,000 samples; sample less "
                         "often",
                         scenario.sample_interval_s, scenario.horizon_s));
    }
  }
  scenario.pools = ReadCluster(top, catalog);
  scenario.priority_classes = ReadPriorityClasses(top);
  scenario.queues = ReadQueues(top, scenario.pools);
  scenario.kai_queues = ReadKaiQueues(top);
  if (scenario.queues.enabled() && scenario.kai_queues.enabled()) {
    FailAt(file, top.Get("kai_queues"),
           "kai_queues: the scenario has queues (Kueue) as well; a cluster "
           "admits through one queueing system, so keep one of the two");
  }
  scenario.workload = ReadWorkload(
      top, scenario.horizon_s, scenario.priority_classes, scenario.queues,
      scenario.kai_queues, scenario.pools, catalog);
  scenario.scheduler = ReadScheduler(top);
  scenario.scheduler.seed = scenario.seed;
  scenario.model = ReadModel(top);
  scenario.translation = ReadTranslation(top);
  scenario.faults = ReadFaults(top, scenario.pools);
  scenario.device_plugin_stalls = ReadDevicePluginStalls(top, scenario.pools);
  scenario.patrol = ReadPatrolRules(top);
  return scenario;
}

Scenario ReadScenarioFile(const std::string& path, const Catalog& catalog) {
  return ReadScenarioYaml(ReadInputFile(path), path, catalog);
}

}  // namespace gpushare
