// A pool's `sharing:` (scheme and its settings: time-slicing replicas, MPS,
// MIG layouts, HAMi's resource names and policies), checked against the
// pool's GPU model by SharingConfig::Validate.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

namespace {

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

}  // namespace

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

}  // namespace scenario_internal
}  // namespace gpushare
