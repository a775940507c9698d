#include "gpushare/catalog/gpu_model_parser.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "gpushare/io/suggest.h"

namespace gpushare {
namespace {

constexpr int64_t kMaxMemoryMib = int64_t{4} << 20;  // 4 TiB
constexpr int kMaxSms = 10000;

const std::vector<std::string>& KnownFamilies() {
  static const std::vector<std::string> families = {
      "kepler", "maxwell", "pascal",    "volta",     "turing",
      "ampere", "ada-lovelace", "hopper", "blackwell", "rubin"};
  return families;
}

const std::vector<std::string>& ModelFields() {
  static const std::vector<std::string> fields = {
      "name",           "aliases",        "family",
      "compute_capability", "memory_mib", "sms",
      "memory_bandwidth_gb_s", "fp8_tflops", "interconnect",
      "interconnect_gb_s", "relative_speed", "price_per_hour",
      "pci_device_ids",
      "unconfirmed",    "mig",            "mig.sms"};
  return fields;
}

const std::vector<std::string>& ProfileFields() {
  static const std::vector<std::string> fields = {
      "name",       "compute_slices", "memory_slices", "sms",
      "memory_mib", "max_count",      "starts",        "unconfirmed"};
  return fields;
}

// Reads `unconfirmed`: a list of field names out of `fields`.
std::vector<std::string> ParseUnconfirmed(const YamlMap& map,
                                          const std::vector<std::string>& fields) {
  std::vector<std::string> out = map.StringList("unconfirmed");
  size_t i = 0;
  for (const auto& item : map.Get("unconfirmed")) {
    if (std::find(fields.begin(), fields.end(), out[i]) == fields.end()) {
      map.Fail(item, "unconfirmed: '" + out[i] + "' is not a field" +
                         DidYouMean(out[i], fields, 1));
    }
    ++i;
  }
  return out;
}

MigProfile ParseProfile(const YamlMap& map, const MigGeometry& geometry,
                        const GpuModel& model) {
  map.AllowOnly({"name", "compute_slices", "memory_slices", "sms",
                 "memory_mib", "max_count", "starts", "unconfirmed"});
  MigProfile p;
  p.name = map.String("name");
  static const std::regex kProfileName(
      R"(([1-8])g\.(\d+)gb(\+me|\+me\.all|-me|\+gfx)?)");
  std::smatch match;
  if (!std::regex_match(p.name, match, kProfileName)) {
    map.Fail(map.Get("name"),
             "profile name '" + p.name +
                 "' is not of the form <G>g.<M>gb with an optional +me, "
                 "+me.all, -me or +gfx suffix");
  }
  p.compute_slices =
      static_cast<int>(map.Int("compute_slices", 1, geometry.compute_slices));
  if (p.compute_slices != std::stoi(match[1].str())) {
    map.Fail(map.Get("compute_slices"),
             fmt::format("compute_slices {} does not match the profile name "
                         "'{}'",
                         p.compute_slices, p.name));
  }
  p.memory_slices =
      static_cast<int>(map.Int("memory_slices", 1, geometry.memory_slices));
  p.sms = static_cast<int>(map.Int("sms", 1, geometry.sms));
  p.memory_mib = map.Int("memory_mib", 1, model.memory_mib);
  p.max_count =
      static_cast<int>(map.Int("max_count", 1, geometry.max_instances));
  for (int64_t s : map.IntList("starts", 0, geometry.memory_slices - 1)) {
    p.starts.push_back(static_cast<int>(s));
  }
  if (p.starts.empty()) map.Fail(map.Get("starts"), "starts must not be empty");
  for (size_t i = 0; i < p.starts.size(); ++i) {
    if (i > 0 && p.starts[i] <= p.starts[i - 1]) {
      map.Fail(map.Get("starts"), "starts must be strictly ascending");
    }
    if (p.starts[i] + p.memory_slices > geometry.memory_slices) {
      map.Fail(map.Get("starts"),
               fmt::format("an instance at {} of {} memory slices ends past "
                           "memory position {}",
                           p.starts[i], p.memory_slices,
                           geometry.memory_slices - 1));
    }
  }
  if (map.Has("unconfirmed")) p.unconfirmed = ParseUnconfirmed(map, ProfileFields());
  return p;
}

MigGeometry ParseMig(const YamlMap& map, const GpuModel& model) {
  map.AllowOnly({"compute_slices", "memory_slices", "max_instances", "sms",
                 "profiles"});
  MigGeometry g;
  g.compute_slices = static_cast<int>(map.Int("compute_slices", 1, 8));
  g.memory_slices = static_cast<int>(map.Int("memory_slices", 1, 16));
  g.max_instances =
      static_cast<int>(map.Int("max_instances", 1, g.compute_slices));
  g.sms = static_cast<int>(map.Int("sms", 1, model.sms));
  YAML::Node profiles = map.Get("profiles");
  if (!profiles.IsSequence() || profiles.size() == 0) {
    map.Fail(profiles, "profiles: expected a non-empty list of profiles");
  }
  for (const auto& node : profiles) {
    YamlMap pmap(map.file(), node, map.what() + " profile");
    MigProfile p = ParseProfile(pmap, g, model);
    if (g.FindProfile(p.name) >= 0) {
      pmap.Fail(pmap.Get("name"), "duplicate profile '" + p.name + "'");
    }
    g.profiles.push_back(std::move(p));
  }
  return g;
}

}  // namespace

GpuModel ParseGpuModel(const YamlMap& entry, const GpuModel* base) {
  entry.AllowOnly({"name", "aliases", "family", "compute_capability",
                   "memory_mib", "sms", "memory_bandwidth_gb_s",
                   "fp8_tflops", "interconnect", "interconnect_gb_s",
                   "relative_speed", "price_per_hour",
                   "pci_device_ids", "unconfirmed", "mig"});
  GpuModel m = base ? *base : GpuModel{};
  const bool required = base == nullptr;
  auto present = [&](const char* key) {
    if (entry.Has(key)) return true;
    if (required) entry.Get(key);  // throws "missing required key"
    return false;
  };
  // An override names the model it overrides (by name or alias); the model
  // keeps its canonical name.
  const std::string name = entry.String("name");
  if (base == nullptr) m.name = name;
  static const std::regex kModelName(R"([A-Za-z0-9][A-Za-z0-9._+-]*)");
  if (!std::regex_match(name, kModelName)) {
    entry.Fail(entry.Get("name"),
               "model name '" + name +
                   "' must be letters, digits, '.', '_', '+' or '-'");
  }
  if (entry.Has("aliases")) m.aliases = entry.StringList("aliases");
  if (present("family")) {
    m.family = entry.String("family");
    if (std::find(KnownFamilies().begin(), KnownFamilies().end(), m.family) ==
        KnownFamilies().end()) {
      entry.Fail(entry.Get("family"),
                 "unknown family '" + m.family + "' (expected one of " +
                     JoinNames(KnownFamilies()) + ")");
    }
  }
  if (present("compute_capability")) {
    m.compute_capability = entry.String("compute_capability");
    static const std::regex kCapability(R"(\d{1,2}\.\d)");
    if (!std::regex_match(m.compute_capability, kCapability)) {
      entry.Fail(entry.Get("compute_capability"),
                 "compute_capability '" + m.compute_capability +
                     "' is not of the form major.minor (e.g. \"9.0\")");
    }
  }
  if (present("memory_mib")) m.memory_mib = entry.Int("memory_mib", 1, kMaxMemoryMib);
  if (present("sms")) m.sms = static_cast<int>(entry.Int("sms", 1, kMaxSms));
  // Optional, also for a new model: --catalog files written before it
  // existed stay valid (0: unknown).
  if (entry.Has("memory_bandwidth_gb_s")) {
    m.memory_bandwidth_gb_s = entry.Double("memory_bandwidth_gb_s", 1, 1e6);
  }
  // Optional too (0 or empty: none or unknown).
  if (entry.Has("fp8_tflops")) {
    m.fp8_tflops = entry.Double("fp8_tflops", 0, 1e6);
  }
  if (entry.Has("interconnect")) {
    static const std::vector<std::string> kLinks = {
        "nvlink2", "nvlink3", "nvlink4", "nvlink5", "pcie3", "pcie4", "pcie5"};
    m.interconnect = entry.String("interconnect");
    if (std::find(kLinks.begin(), kLinks.end(), m.interconnect) ==
        kLinks.end()) {
      entry.Fail(entry.Get("interconnect"),
                 "unknown interconnect '" + m.interconnect +
                     "' (expected one of " + JoinNames(kLinks) + ")" +
                     DidYouMean(m.interconnect, kLinks, 2));
    }
  }
  if (entry.Has("interconnect_gb_s")) {
    m.interconnect_gb_s = entry.Double("interconnect_gb_s", 1, 1e6);
  }
  if (present("relative_speed")) {
    m.relative_speed = entry.Double("relative_speed", 1e-6, 1000);
  }
  if (present("price_per_hour")) {
    m.price_per_hour = entry.Double("price_per_hour", 0, 100000);
  }
  if (entry.Has("pci_device_ids")) {
    m.pci_device_ids = entry.StringList("pci_device_ids");
    static const std::regex kPciId(R"(0x[0-9A-Fa-f]{8})");
    for (const std::string& id : m.pci_device_ids) {
      if (!std::regex_match(id, kPciId)) {
        entry.Fail(entry.Get("pci_device_ids"),
                   "PCI device ID '" + id +
                       "' is not of the form 0x<device><vendor> (e.g. "
                       "0x20B010DE)");
      }
    }
  }
  if (entry.Has("unconfirmed")) {
    m.unconfirmed = ParseUnconfirmed(entry, ModelFields());
  }
  if (entry.Has("mig")) {
    YamlMap mig = entry.Map("mig", "model '" + m.name + "' mig");
    m.mig = ParseMig(mig, m);
  } else if (m.mig) {
    // An override that changes memory or SMs must still hold the old
    // geometry.
    for (const MigProfile& p : m.mig->profiles) {
      if (p.memory_mib > m.memory_mib || m.mig->sms > m.sms) {
        entry.Fail(entry.node(),
                   "overridden memory_mib or sms is smaller than the MIG "
                   "geometry's; give a new 'mig' section");
      }
    }
  }
  return m;
}

}  // namespace gpushare
