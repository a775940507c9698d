// The scenario's `cluster:` section: pools written out (GPU model, nodes,
// CPU, memory, labels, taints, sharing) and pools imported from a node
// list (`import:`, kubectl or openb) — their node counts, sharing and
// licences overridden per pool by `import.pools` — with unique names.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"
#include "gpushare/workload/cluster_import.h"
#include "gpushare/workload/trace_workload.h"

namespace gpushare {
namespace scenario_internal {

namespace {

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

// Where each pool was defined (for duplicate names).
struct PoolSource {
  std::string name;
  int line = 0;
};

// The pool's `dra:` map (cluster/dra/dra_pool_settings.h), only with
// `devices: dra`, and the rules of DraPoolSettingsProblem; without the map a
// DRA pool still gets them checked (time-sliced MIG is refused).

// `dra.mps` of a "DRA MPS" pool: the claims' GpuConfig mpsConfig
// (kubernetes-sigs/dra-driver-nvidia-gpu api/nvidia.com/resource/v1beta1/
// sharing.go MpsConfig).
void ReadDraMps(const YamlMap& dra, DraPoolSettings* settings) {
  const YamlMap mps = dra.Map("mps", dra.what() + " mps");
  mps.AllowOnly({"default_active_thread_percentage",
                 "default_pinned_device_memory_limit"});
  if (mps.Has("default_active_thread_percentage")) {
    settings->mps_active_thread_percentage = static_cast<int>(
        mps.Int("default_active_thread_percentage", 1, 100));
  }
  if (mps.Has("default_pinned_device_memory_limit")) {
    const std::string text = mps.String("default_pinned_device_memory_limit");
    std::string why;
    const std::optional<int64_t> bytes = ParseQuantity(text, &why);
    constexpr int64_t kMib = int64_t{1} << 20;
    if (!bytes || *bytes < kMib || *bytes % kMib != 0) {
      FailKey(mps, "default_pinned_device_memory_limit",
              fmt::format("'{}' is not a whole number of MiB of at least 1Mi "
                          "(a quantity such as 10Gi or 20480Mi){}",
                          text, why.empty() ? "" : ": " + why));
    }
    settings->mps_pinned_memory_limit_mib = *bytes / kMib;
  }
}

// `dra.dynamic_mig` (read before the sharing is validated: a dynamic-MIG
// pool has no layout).
bool ReadDynamicMig(const YamlMap& pool) {
  if (!pool.Has("dra") || !pool.Get("dra").IsMap()) return false;
  const YamlMap dra = pool.Map("dra", pool.what() + " dra");
  return dra.Has("dynamic_mig") && dra.Bool("dynamic_mig");
}

void ReadDraPoolSettings(const YamlMap& pool, NodePoolSpec* spec) {
  if (!pool.Has("dra")) {
    if (spec->devices == PoolDevices::kDra) {
      const std::string problem =
          DraPoolSettingsProblem(spec->dra, spec->sharing);
      if (!problem.empty()) FailKey(pool, "sharing", problem);
    }
    return;
  }
  if (spec->devices != PoolDevices::kDra) {
    FailKey(pool, "dra",
            "applies to pools with devices: dra (the NVIDIA DRA driver's "
            "settings)");
  }
  const YamlMap dra = pool.Map("dra", pool.what() + " dra");
  dra.AllowOnly({"consumable_shares", "time_slicing_interval",
                 "extended_resource", "mps", "dynamic_mig"});
  DraPoolSettings& settings = spec->dra;
  if (dra.Has("consumable_shares")) {
    const std::string value = dra.String("consumable_shares");
    if (value == "memory") {
      settings.consumable_shares = DraConsumableShares::kMemoryShares;
    } else if (value == "unlimited") {
      settings.consumable_shares = DraConsumableShares::kUnlimited;
    } else if (value == "disabled") {
      settings.consumable_shares = DraConsumableShares::kDisabled;
      if (spec->sharing.scheme() == SharingScheme::kTimeSlicing) {
        FailKey(dra, "consumable_shares",
                "disabled: time-slicing on a DRA pool is the driver's "
                "consumable shares (several claims per GPU); one claim shared "
                "by several pods is not modelled yet");
      }
    } else {
      settings.consumable_shares = DraConsumableShares::kCount;
      settings.shares =
          static_cast<int>(dra.Int("consumable_shares", 2, 1000000));
    }
  }
  if (dra.Has("time_slicing_interval")) {
    const std::string value = dra.String("time_slicing_interval");
    if (!ParseDraTimeSliceInterval(value, &settings.time_slice_interval)) {
      FailKey(dra, "time_slicing_interval",
              "unknown value '" + value +
                  "' (expected Default, Short, Medium or Long)");
    }
  }
  if (dra.Has("extended_resource")) {
    settings.extended_resource = dra.Bool("extended_resource");
  }
  if (dra.Has("mps")) ReadDraMps(dra, &settings);
  if (dra.Has("dynamic_mig")) {
    spec->sharing.mig.dynamic = dra.Bool("dynamic_mig");
  }
  const std::string problem = DraPoolSettingsProblem(settings, spec->sharing);
  if (!problem.empty()) FailKey(pool, "dra", problem);
}

NodePoolSpec ReadPool(const std::string& file, const YAML::Node& node,
                      const Catalog& catalog,
                      std::vector<PoolSource>* sources) {
  YamlMap pool(file, node, NamedWhat(file, node, "pool"));
  pool.AllowOnly({"name", "gpu", "nodes", "gpus_per_node", "cpu", "memory_gib",
                  "max_pods", "labels", "taints", "sharing",
                  "licence_per_gpu_hour", "match_labels", "devices", "dra",
                  "autoscaling"});
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
  // An autoscaled pool may start without nodes (scale from zero).
  spec.nodes = static_cast<int>(
      pool.Int("nodes", pool.Has("autoscaling") ? 0 : 1, kMaxNodesPerPool));
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
  if (pool.Has("match_labels")) {
    spec.match_labels = ReadLabels(pool, "match_labels");
    if (spec.match_labels.empty()) {
      FailKey(pool, "match_labels",
              "expected at least one label that selects the pool's nodes "
              "(or leave match_labels out: gpushare.io/node-pool=<pool>)");
    }
  }
  if (pool.Has("taints")) spec.taints = ReadTaints(pool);
  if (pool.Has("sharing")) {
    spec.sharing = ReadSharing(pool);
    spec.sharing.mig.dynamic = ReadDynamicMig(pool);
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
  if (pool.Has("devices")) {
    const std::string devices = pool.String("devices");
    if (devices == "dra") {
      spec.devices = PoolDevices::kDra;
    } else if (devices != "device-plugin") {
      FailKey(pool, "devices",
              "unknown value '" + devices +
                  "' (expected 'device-plugin', the default, or 'dra')");
    }
    if (spec.devices == PoolDevices::kDra && spec.gpus_per_node == 0) {
      FailKey(pool, "devices", "a pool without GPUs has no devices to hand out");
    }
    const std::string problem =
        PoolDevicesProblem(spec.devices, spec.sharing.scheme());
    if (!problem.empty()) FailKey(pool, "devices", problem);
  }
  ReadDraPoolSettings(pool, &spec);
  if (pool.Has("autoscaling")) ReadAutoscaling(pool, &spec);
  return spec;
}

}  // namespace

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

namespace {

// `import.pools`: per imported pool (by the name GroupNodePools gave it), its
// node count (ResizePool: grown with new nodes, shrunk by its last members),
// sharing and licence, as `plan --out` writes them.
void ReadImportPoolOverrides(const YamlMap& im, const Catalog& catalog,
                             std::vector<NodePoolSpec>* pools) {
  const YamlMap entries = im.Map("pools", im.what() + " pools");
  std::vector<std::string> names;
  for (const NodePoolSpec& p : *pools) names.push_back(p.name);
  for (const auto& kv : entries.node()) {
    const std::string name =
        ScalarString(im.file(), kv.first, entries.what() + " key");
    auto pool = std::find_if(
        pools->begin(), pools->end(),
        [&](const NodePoolSpec& p) { return p.name == name; });
    if (pool == pools->end()) {
      FailAt(im.file(), kv.first,
             fmt::format("{}: no imported pool is named '{}'{} (the imported "
                         "pools: {})",
                         entries.what(), name, DidYouMean(name, names, 1),
                         names.empty() ? "none" : JoinNames(names)));
    }
    const YamlMap o(im.file(), kv.second, entries.what() + "." + name);
    o.AllowOnly({"nodes", "sharing", "licence_per_gpu_hour"});
    if (o.Has("nodes")) {
      ResizePool(&*pool, static_cast<int>(o.Int("nodes", 1, kMaxNodesPerPool)));
    }
    if (o.Has("licence_per_gpu_hour")) {
      pool->licence_per_gpu_hour = o.Double("licence_per_gpu_hour", 0, 100000);
    }
    if (o.Has("sharing")) {
      SharingConfig sharing = ReadSharing(o);
      const bool shares =
          sharing.mig_enabled || sharing.sharing != DeviceSharing::kNone;
      if (pool->gpus_per_node == 0 && shares) {
        FailKey(o, "sharing", "a pool without GPUs cannot share GPUs");
      }
      if (pool->gpus_per_node > 0) {
        try {
          sharing.Validate(catalog.Get(pool->gpu_model), pool->gpus_per_node);
        } catch (const InputError& e) {
          FailKey(o, "sharing", e.message());
        }
      }
      pool->sharing = sharing;
    }
  }
}

std::vector<NodePoolSpec> ReadImport(const YamlMap& cluster,
                                     const Catalog& catalog,
                                     std::vector<std::string>* notes) {
  const YamlMap im = cluster.Map("import", "cluster import");
  im.AllowOnly({"format", "file", "prefix", "sharing", "model_map", "pools"});
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
  std::vector<NodePoolSpec> pools = ImportNodePools(spec, catalog, notes);
  if (im.Has("pools")) ReadImportPoolOverrides(im, catalog, &pools);
  return pools;
}

}  // namespace

std::vector<NodePoolSpec> ReadCluster(const YamlMap& top,
                                      const Catalog& catalog,
                                      std::vector<std::string>* notes) {
  YamlMap cluster = top.Map("cluster", "cluster");
  cluster.AllowOnly({"import", "pools"});
  if (!cluster.Has("import") && !cluster.Has("pools")) {
    cluster.Fail(cluster.node(), "give pools, an import, or both");
  }
  std::vector<NodePoolSpec> pools;
  if (cluster.Has("import")) pools = ReadImport(cluster, catalog, notes);
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

}  // namespace scenario_internal
}  // namespace gpushare
