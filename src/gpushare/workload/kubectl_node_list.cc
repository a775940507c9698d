#include "gpushare/workload/kubectl_node_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "gpushare/catalog/mig_config.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/kubectl_gpu_config.h"
#include "gpushare/workload/kubectl_mixed_list.h"
#include "gpushare/workload/kubectl_object.h"
#include "gpushare/workload/kubectl_resource_slices.h"

namespace gpushare {
namespace {

constexpr const char* kHamiRegister = "hami.io/node-nvidia-register";
// The label HAMi's device plugin DaemonSet selects (HAMi install guide).
constexpr const char* kHamiNodeLabel = "gpu";

bool ParseInt(std::string_view s, int64_t* v) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

// One GPU of HAMi's registration annotation.
struct HamiGpu {
  int64_t count = 0;    // split count
  int64_t devmem = 0;   // MiB x memory scaling
  int64_t devcore = 0;  // 100 x core scaling
  std::string type;     // "NVIDIA-NVIDIA A100-SXM4-80GB"
};

// Both forms HAMi has written: a JSON array of objects, or the legacy
// "id,count,devmem,devcore,type,numa,health:" list.
std::vector<HamiGpu> ParseHamiRegister(const JsonValue& at) {
  const std::string text = at.String();
  std::vector<HamiGpu> gpus;
  if (!text.empty() && text[0] == '[') {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_array()) {
      at.Fail("HAMi registration: not a JSON array");
    }
    for (const auto& d : j) {
      if (!d.is_object() || !d.contains("count") || !d.contains("devmem") ||
          !d["count"].is_number_integer() || !d["devmem"].is_number_integer()) {
        at.Fail("HAMi registration: each GPU needs integer count and devmem");
      }
      HamiGpu g;
      g.count = d["count"].get<int64_t>();
      g.devmem = d["devmem"].get<int64_t>();
      g.devcore = d.contains("devcore") && d["devcore"].is_number_integer()
                      ? d["devcore"].get<int64_t>()
                      : 100;
      g.type = d.contains("type") && d["type"].is_string()
                   ? d["type"].get<std::string>()
                   : "";
      gpus.push_back(g);
    }
  } else {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find(':', start);
      if (end == std::string::npos) end = text.size();
      const std::string entry = text.substr(start, end - start);
      start = end + 1;
      if (entry.empty()) continue;
      std::vector<std::string> f;
      size_t s = 0;
      while (true) {
        const size_t c = entry.find(',', s);
        f.push_back(entry.substr(s, c == std::string::npos ? c : c - s));
        if (c == std::string::npos) break;
        s = c + 1;
      }
      HamiGpu g;
      if (f.size() < 5 || !ParseInt(f[1], &g.count) ||
          !ParseInt(f[2], &g.devmem) || !ParseInt(f[3], &g.devcore)) {
        at.Fail(
            "HAMi registration: expected 'id,count,devmem,devcore,type,"
            "...' per GPU, got '" +
            entry + "'");
      }
      g.type = f[4];
      gpus.push_back(g);
    }
  }
  if (gpus.empty()) at.Fail("HAMi registration lists no GPUs");
  for (const HamiGpu& g : gpus) {
    if (g.count < 1 || g.devmem < 1 || g.devcore < 1) {
      at.Fail("HAMi registration: count, devmem and devcore must be positive");
    }
    if (g.count != gpus[0].count || g.devmem != gpus[0].devmem ||
        g.devcore != gpus[0].devcore || g.type != gpus[0].type) {
      at.Fail(
          "HAMi registration: the node's GPUs differ; the simulator "
          "models one GPU model and configuration per node");
    }
  }
  return gpus;
}

// The product as GFD writes it, without the sharing and MIG suffixes.
std::string BaseProduct(std::string product, std::string* mig_profile) {
  const std::string shared = "-SHARED";
  if (product.size() > shared.size() &&
      product.compare(product.size() - shared.size(), shared.size(), shared) ==
          0) {
    product.resize(product.size() - shared.size());
  }
  const size_t mig = product.find("-MIG-");
  if (mig != std::string::npos) {
    *mig_profile = product.substr(mig + 5);
    product.resize(mig);
  }
  return product;
}

int LabelInt(const Labels& labels, const JsonValue& at, const char* key,
             int if_missing) {
  auto it = labels.find(key);
  if (it == labels.end()) return if_missing;
  int64_t v = 0;
  if (!ParseInt(it->second, &v) || v < 0 || v > 100000) {
    at.Get("metadata")
        .Get("labels")
        .Get(key)
        .Fail("expected a non-negative integer, got '" + it->second + "'");
  }
  return static_cast<int>(v);
}

// The MIG layout of every GPU that advertises `counts` (profile name →
// instances on the node) over `gpus` GPUs.
void InferMigLayout(const JsonValue& item, const GpuModel& model, int gpus,
                    const std::map<std::string, int64_t>& counts,
                    const Labels& labels, SharingConfig* sharing) {
  if (!model.mig_capable()) {
    item.Get("status")
        .Get("allocatable")
        .Fail(model.name +
              " has no MIG, yet the node advertises MIG resources");
  }
  // Profile index → instances on the node.
  std::vector<int64_t> wanted(model.mig->profiles.size(), 0);
  for (const auto& [name, count] : counts) {
    int index = -1;
    for (size_t p = 0; p < model.mig->profiles.size(); ++p) {
      std::string r = model.mig->profiles[p].name;
      std::replace(r.begin(), r.end(), '+', '.');
      if (r == name) index = static_cast<int>(p);
    }
    if (index < 0) {
      item.Get("status")
          .Get("allocatable")
          .Get(kMigResourcePrefix + name)
          .Fail("MIG profile '" + name + "' is not one of " + model.name +
                "'s");
    }
    wanted[index] += count;
  }
  auto it = labels.find("nvidia.com/mig.config");
  if (it != labels.end()) {
    for (const NamedMigConfig& c : NamedMigConfigs(model)) {
      if (c.name != it->second || !c.mig_enabled) continue;
      bool same = true;
      for (size_t p = 0; p < wanted.size(); ++p) {
        const int64_t per_gpu = p < c.counts.size() ? c.counts[p] : 0;
        same = same && per_gpu * gpus == wanted[p];
      }
      if (same) {
        sharing->mig.config_name = c.name;
        return;
      }
    }
  }
  std::vector<std::string> layout;
  for (size_t p = 0; p < wanted.size(); ++p) {
    if (wanted[p] == 0) continue;
    if (wanted[p] % gpus != 0) {
      item.Get("status")
          .Get("allocatable")
          .Fail(fmt::format("{} instances of {} cannot be spread evenly over "
                            "{} GPUs; label the "
                            "node with its nvidia.com/mig.config",
                            wanted[p], model.mig->profiles[p].name, gpus));
    }
    layout.push_back(
        fmt::format("{}:{}", model.mig->profiles[p].name, wanted[p] / gpus));
  }
  sharing->mig.layouts = {layout};
}

// `from_slice`: the node's GPUs come from its gpu.nvidia.com ResourceSlice
// (ApplyNvidiaSlice), so its device-plugin signals are not read.
ImportedNode ReadNode(const JsonValue& item, const Catalog& catalog,
                      bool from_slice) {
  ImportedNode node;
  const JsonValue metadata = item.Get("metadata");
  node.name = metadata.Get("name").String();
  if (node.name.empty()) metadata.Get("name").Fail("a node needs a name");
  if (!IsNodeName(node.name)) {
    metadata.Get("name").Fail(
        fmt::format("invalid node name {:?}: {}", node.name, NodeNameRule()));
  }
  node.labels = ReadStringMap(metadata.Get("labels"));
  // Only HAMi's register annotation is read: others (last-applied
  // configurations, JSON blobs with line breaks) are left alone.
  bool hami = false;
  for (const auto& entry : metadata.Get("annotations").Members()) {
    hami = hami || entry.first == kHamiRegister;
  }
  const JsonValue spec = item.Get("spec");
  for (const JsonValue& t : spec.Get("taints").Items()) {
    Taint taint;
    taint.key = t.Get("key").String();
    if (taint.key.empty()) t.Get("key").Fail("a taint needs a key");
    taint.value = t.Get("value").String();
    taint.effect = ReadTaintEffect(t.Get("effect"));
    node.taints.push_back(taint);
  }
  if (spec.Get("unschedulable").Bool()) {
    node.taints.push_back(
        {"node.kubernetes.io/unschedulable", "", TaintEffect::kNoSchedule});
  }
  // Allocatable, falling back to capacity per resource.
  const JsonValue status = item.Get("status");
  std::map<std::string, JsonValue> resources;
  for (const auto& [name, v] : status.Get("capacity").Members()) {
    resources.insert_or_assign(name, v);
  }
  for (const auto& [name, v] : status.Get("allocatable").Members()) {
    resources.insert_or_assign(name, v);
  }
  std::map<std::string, int64_t> amount;
  for (const auto& [name, v] : resources) {
    amount[name] = ReadResourceAmount(v, name);
  }
  auto get = [&](const std::string& name) {
    auto it = amount.find(name);
    return it == amount.end() ? int64_t{0} : it->second;
  };
  node.cpu_milli = get("cpu");
  node.memory_mib = get("memory");
  if (node.cpu_milli < 1) {
    status.Get("allocatable").Get("cpu").Fail("a node needs cpu > 0");
  }
  if (node.memory_mib < 1) {
    status.Get("allocatable").Get("memory").Fail("a node needs memory > 0");
  }
  if (amount.count("pods") > 0) {
    node.max_pods =
        static_cast<int>(std::clamp<int64_t>(get("pods"), 1, 10000));
  }

  if (from_slice) return node;
  // GPU signals.
  const int64_t gpu = get("nvidia.com/gpu");
  const int64_t gpu_shared = get("nvidia.com/gpu.shared");
  std::map<std::string, int64_t> mig_counts;  // "1g.10gb" (as advertised)
  for (const auto& [name, n] : amount) {
    if (name.rfind(kMigResourcePrefix, 0) == 0 && n > 0) {
      std::string profile = name.substr(std::string(kMigResourcePrefix).size());
      const std::string shared = ".shared";
      if (profile.size() > shared.size() &&
          profile.compare(profile.size() - shared.size(), shared.size(),
                          shared) == 0) {
        profile.resize(profile.size() - shared.size());
      }
      mig_counts[profile] += n;
    }
  }
  // HAMi's device plugin runs on nodes labelled gpu=on; a node that has
  // not registered yet (or whose annotation was stripped) is still HAMi.
  auto gpu_on = node.labels.find(kHamiNodeLabel);
  const bool hami_label = !hami && gpu_on != node.labels.end() &&
                          gpu_on->second == "on" && mig_counts.empty();
  if (!hami && gpu == 0 && gpu_shared == 0 && mig_counts.empty()) {
    return node;  // CPU-only
  }
  const JsonValue labels_at = metadata.Get("labels");
  std::vector<HamiGpu> hami_gpus;
  if (hami) {
    hami_gpus =
        ParseHamiRegister(metadata.Get("annotations").Get(kHamiRegister));
  }
  std::string single_profile;
  std::string product;
  JsonValue product_at = labels_at.Get("nvidia.com/gpu.product");
  if (node.labels.count("nvidia.com/gpu.product") > 0) {
    product =
        BaseProduct(node.labels.at("nvidia.com/gpu.product"), &single_profile);
  } else if (hami) {
    product = hami_gpus[0].type;
    product_at = metadata.Get("annotations").Get(kHamiRegister);
  } else {
    labels_at.Fail("node '" + node.name +
                   "' has GPUs but no nvidia.com/gpu.product label (set by "
                   "gpu-feature-discovery) to tell their model");
  }
  const GpuModel& model = KubectlGpuModel(product_at, product, catalog);
  node.gpu_model = model.name;
  const int replicas =
      LabelInt(node.labels, item, "nvidia.com/gpu.replicas", 1);
  const int count_label =
      LabelInt(node.labels, item, "nvidia.com/gpu.count", 0);
  const bool renamed = gpu_shared > 0;
  const int64_t advertised = renamed ? gpu_shared : gpu;
  SharingConfig& sharing = node.sharing;
  auto strategy = node.labels.find("nvidia.com/mig.strategy");
  const bool single = strategy != node.labels.end() &&
                      strategy->second == "single" && !single_profile.empty();
  if (hami) {
    node.gpus = static_cast<int>(hami_gpus.size());
    sharing = HamiSharing();
    sharing.hami.split_count = static_cast<int>(hami_gpus[0].count);
    sharing.hami.memory_scaling =
        std::round(100.0 * static_cast<double>(hami_gpus[0].devmem) /
                   static_cast<double>(model.memory_mib)) /
        100.0;
    sharing.hami.core_scaling =
        static_cast<double>(hami_gpus[0].devcore) / 100.0;
  } else if (hami_label && advertised > count_label && replicas == 1) {
    // allocatable nvidia.com/gpu = GPUs x deviceSplitCount.
    if (count_label < 1) {
      labels_at.Fail(fmt::format(
          "node '{}' carries {}=on (HAMi) and advertises {} nvidia.com/gpu, "
          "but nothing tells its physical GPUs: add the label "
          "nvidia.com/gpu.count (gpu-feature-discovery) or HAMi's "
          "registration annotation {}",
          node.name, kHamiNodeLabel, advertised, kHamiRegister));
    }
    if (advertised % count_label != 0) {
      status.Get("allocatable")
          .Get("nvidia.com/gpu")
          .Fail(fmt::format(
              "HAMi node '{}': {} nvidia.com/gpu is not a whole number of "
              "devices per GPU over nvidia.com/gpu.count {} (HAMi "
              "advertises GPUs x deviceSplitCount)",
              node.name, advertised, count_label));
    }
    node.gpus = count_label;
    sharing = HamiSharing();
    sharing.hami.split_count = static_cast<int>(advertised / count_label);
    // Without the annotation the scalings are HAMi's defaults (1).
    sharing.hami.memory_scaling = 1.0;
    sharing.hami.core_scaling = 1.0;
  } else if (!mig_counts.empty()) {
    if (advertised > 0) {
      status.Get("allocatable")
          .Get("nvidia.com/gpu")
          .Fail(
              "a node with both MIG instances and whole GPUs is not supported; "
              "the simulator gives every GPU of a node the same configuration");
    }
    if (count_label < 1) {
      labels_at.Fail(
          "a MIG node needs the label nvidia.com/gpu.count (its "
          "physical GPUs)");
    }
    node.gpus = count_label;
    sharing = MigSharing(MigStrategy::kMixed, "");
    if (replicas > 1) {
      sharing.sharing = DeviceSharing::kTimeSlicing;
      sharing.replicas.replicas = replicas;
      sharing.replicas.rename_by_default = false;
      for (auto& [name, n] : mig_counts) {
        if (n % replicas != 0) {
          status.Get("allocatable")
              .Get(kMigResourcePrefix + name)
              .Fail(fmt::format(
                  "{} is not a multiple of nvidia.com/gpu.replicas {}", n,
                  replicas));
        }
        n /= replicas;
      }
    }
    InferMigLayout(item, model, node.gpus, mig_counts, node.labels, &sharing);
  } else if (single) {
    std::string config = "all-" + single_profile;
    std::replace(config.begin(), config.end(), '+', '.');
    const NamedMigConfig* found = nullptr;
    const std::vector<NamedMigConfig> configs = NamedMigConfigs(model);
    for (const NamedMigConfig& c : configs) {
      if (c.name == config) found = &c;
    }
    if (found == nullptr) {
      product_at.Fail("MIG profile '" + single_profile + "' is not one of " +
                      model.name + "'s");
    }
    const int64_t per_gpu = static_cast<int64_t>(found->layout.size());
    const int64_t devices = advertised / std::max(replicas, 1);
    if (per_gpu == 0 || devices % per_gpu != 0) {
      status.Get("allocatable")
          .Get("nvidia.com/gpu")
          .Fail(fmt::format(
              "{} MIG devices are not a whole number of GPUs of {} x {}",
              devices, per_gpu, single_profile));
    }
    node.gpus = static_cast<int>(devices / per_gpu);
    sharing = MigSharing(MigStrategy::kSingle, config);
    if (replicas > 1) {
      sharing.sharing = DeviceSharing::kTimeSlicing;
      sharing.replicas.replicas = replicas;
      sharing.replicas.rename_by_default = renamed;
    }
  } else if (replicas > 1) {
    auto ss = node.labels.find("nvidia.com/gpu.sharing-strategy");
    const bool mps = ss != node.labels.end() && ss->second == "mps";
    sharing = mps ? MpsSharing(replicas) : TimeSlicingSharing(replicas);
    sharing.replicas.rename_by_default = renamed;
    node.gpus =
        count_label > 0 ? count_label : static_cast<int>(advertised / replicas);
    if (count_label == 0 && advertised % replicas != 0) {
      status.Get("allocatable")
          .Get("nvidia.com/gpu")
          .Fail(
              fmt::format("{} is not a multiple of nvidia.com/gpu.replicas {}",
                          advertised, replicas));
    }
  } else {
    if (count_label > 0 && advertised > count_label) {
      // More devices than GPUs, and no label says how they are shared.
      status.Get("allocatable")
          .Get(renamed ? "nvidia.com/gpu.shared" : "nvidia.com/gpu")
          .Fail(fmt::format(
              "node '{}' advertises {} GPU devices on {} GPUs "
              "(nvidia.com/gpu.count) but no label says how they are "
              "shared: time-slicing and MPS nodes carry "
              "nvidia.com/gpu.replicas (gpu-feature-discovery), HAMi nodes "
              "{}=on or the annotation {}",
              node.name, advertised, count_label, kHamiNodeLabel,
              kHamiRegister));
    }
    sharing = ExclusiveSharing();
    node.gpus = static_cast<int>(std::min<int64_t>(advertised, 1000));
    if (node.gpus > kMaxGpusPerNode && count_label == 0) {
      labels_at.Fail(fmt::format(
          "node '{}' advertises {} nvidia.com/gpu, more than the {} GPUs a "
          "node has: if they are shared, the label nvidia.com/gpu.count "
          "(physical GPUs) with nvidia.com/gpu.replicas (time-slicing, MPS) "
          "or {}=on (HAMi) settles it",
          node.name, advertised, kMaxGpusPerNode, kHamiNodeLabel));
    }
  }
  if (node.gpus < 1 || node.gpus > kMaxGpusPerNode) {
    item.Get("status")
        .Get("allocatable")
        .Fail(fmt::format(
            "node '{}' has {} GPUs; the simulator models 1..{} per node",
            node.name, node.gpus, kMaxGpusPerNode));
  }
  try {
    sharing.Validate(model, node.gpus);
  } catch (const InputError& e) {
    item.Fail("node '" + node.name + "': " + e.message());
  }
  return node;
}

// The node's GPUs as its gpu.nvidia.com slice publishes them: a devices:
// dra node (kubectl_resource_slices.h).
void ApplyNvidiaSlice(const NvidiaSliceNode& slice, const Catalog& catalog,
                      ImportedNode* node) {
  node->gpu_model = slice.gpu_model;
  node->gpus = slice.gpus;
  node->devices = PoolDevices::kDra;
  node->dra = slice.dra;
  SharingConfig& sharing = node->sharing;
  sharing = ExclusiveSharing();
  if (!slice.mig_layouts.empty()) {
    sharing = MigSharing(MigStrategy::kMixed, "");
    sharing.mig.layouts = slice.mig_layouts;
  }
  if (slice.dra.consumable_shares != DraConsumableShares::kDisabled) {
    const int replicas =
        slice.dra.consumable_shares == DraConsumableShares::kCount
            ? slice.dra.shares
            : kDraImportReplicasWithoutCount;
    if (sharing.mig_enabled) {
      sharing.sharing = DeviceSharing::kTimeSlicing;
      sharing.replicas.replicas = replicas;
    } else {
      sharing = TimeSlicingSharing(replicas);
    }
  }
  if (node->gpus < 1 || node->gpus > kMaxGpusPerNode) {
    slice.at->Fail(fmt::format(
        "node '{}' has {} GPUs; the simulator models 1..{} per node",
        node->name, node->gpus, kMaxGpusPerNode));
  }
  try {
    sharing.Validate(catalog.Get(node->gpu_model), node->gpus);
  } catch (const InputError& e) {
    slice.at->Fail("node '" + node->name + "': " + e.message());
  }
}

// What the slices' import skipped, as notes.
void NvidiaSliceNotes(const NvidiaSliceImport& slices, int dra_nodes,
                      std::vector<std::string>* notes) {
  if (notes == nullptr) return;
  if (dra_nodes > 0) {
    notes->push_back(fmt::format(
        "{} node(s) with a gpu.nvidia.com ResourceSlice imported as "
        "devices: dra (their slices, not their labels, tell their GPUs)",
        dra_nodes));
  }
  const std::pair<int, const char*> counts[] = {
      {slices.other_driver_slices,
       "ResourceSlice(s) of other drivers than gpu.nvidia.com ignored"},
      {slices.nodeless_slices,
       "gpu.nvidia.com ResourceSlice(s) of no imported node ignored"},
      {slices.outdated_slices,
       "ResourceSlice(s) of an older pool generation ignored"},
      {slices.other_devices,
       "gpu.nvidia.com device(s) neither a whole GPU nor a MIG device "
       "ignored"}};
  for (const auto& [n, what] : counts) {
    if (n > 0) notes->push_back(fmt::format("{} {}", n, what));
  }
}

}  // namespace

std::vector<ImportedNode> ParseKubectlNodes(const std::string& file,
                                            const std::string& text,
                                            const Catalog& catalog,
                                            std::vector<std::string>* notes) {
  std::vector<ImportedNode> nodes;
  std::set<std::string> names;
  KubectlDraItems dra;
  int pods = 0;
  const std::vector<JsonValue> items =
      KubectlMixedItems(file, text, "Node", "Pod", &dra, &pods);
  NvidiaSliceImport slices =
      ReadNvidiaResourceSlices(dra.resource_slices, catalog);
  int dra_nodes = 0;
  for (const JsonValue& item : items) {
    const std::string name = item.Get("metadata").Get("name").String();
    auto slice = slices.nodes.find(name);
    const bool from_slice = slice != slices.nodes.end();
    nodes.push_back(ReadNode(item, catalog, from_slice));
    if (!names.insert(nodes.back().name).second) {
      item.Get("metadata")
          .Get("name")
          .Fail("node '" + nodes.back().name + "' is listed twice");
    }
    if (from_slice) {
      ApplyNvidiaSlice(slice->second, catalog, &nodes.back());
      ++dra_nodes;
    }
  }
  for (const auto& [name, slice] : slices.nodes) {
    if (names.count(name) > 0) continue;
    if (slice.by_node_name) {
      slice.at->Get("spec").Get("nodeName").Fail(
          "node '" + name +
          "' is not in the list; list the nodes with their slices (kubectl "
          "get nodes,resourceslices -o json)");
    }
    ++slices.nodeless_slices;
  }
  if (items.empty() && pods > 0) {
    throw InputError(fmt::format(
        "{}: {} Pod(s) and no Node: expected `kubectl get nodes -o json` (is "
        "this the pod list?)",
        file, pods));
  }
  NvidiaSliceNotes(slices, dra_nodes, notes);
  // The NVIDIA driver's opaque sharing config of the claims allocated on
  // those nodes (MPS, time-slicing intervals).
  ApplyClaimSharingToNodes(dra, &nodes, notes);
  return nodes;
}

std::vector<ImportedNode> ReadKubectlNodes(const std::string& path,
                                           const Catalog& catalog,
                                           std::vector<std::string>* notes) {
  return ParseKubectlNodes(path, ReadInputFile(path), catalog, notes);
}

}  // namespace gpushare
