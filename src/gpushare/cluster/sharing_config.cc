#include "gpushare/cluster/sharing_config.h"

#include <fmt/format.h>

#include "gpushare/catalog/mig_config.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// MPS clients per GPU: 48 from compute capability 7.5 (Volta+ MPS server
// limit), 16 before (k8s-device-plugin mps/device.go).
int MaxMpsReplicas(const GpuModel& model) {
  const int major = std::stoi(model.compute_capability);
  const int minor = std::stoi(
      model.compute_capability.substr(model.compute_capability.find('.') + 1));
  return major * 10 + minor >= 75 ? 48 : 16;
}

}  // namespace

std::string_view SharingSchemeName(SharingScheme scheme) {
  switch (scheme) {
    case SharingScheme::kExclusive:
      return "exclusive";
    case SharingScheme::kTimeSlicing:
      return "time-slicing";
    case SharingScheme::kMps:
      return "mps";
    case SharingScheme::kMig:
      return "mig";
    case SharingScheme::kHami:
      return "hami";
  }
  return "";
}

std::string_view SharingSchemeDisplayName(SharingScheme scheme) {
  switch (scheme) {
    case SharingScheme::kExclusive:
      return "exclusive";
    case SharingScheme::kTimeSlicing:
      return "time-slicing";
    case SharingScheme::kMps:
      return "MPS";
    case SharingScheme::kMig:
      return "MIG";
    case SharingScheme::kHami:
      return "vGPU (HAMi)";
  }
  return "";
}

namespace {

// Per-GPU layouts as runs of GPUs with the same profile counts: "7g.80gb on
// GPUs 0-1, 2 x 3g.40gb on GPUs 2-3" (one run: the counts alone);
// "custom layout" when they do not validate.
std::string PerGpuMigLabel(const SharingConfig& s, const GpuModel& model) {
  std::vector<MigLayout> layouts;
  try {
    layouts = s.Validate(model, static_cast<int>(s.mig.layouts.size()));
  } catch (const InputError&) {
    return "custom layout";
  }
  std::vector<std::string> runs;
  size_t first = 0;
  for (size_t gpu = 1; gpu <= layouts.size(); ++gpu) {
    const std::vector<int> counts = MigProfileCounts(model, layouts[first]);
    if (gpu < layouts.size() &&
        MigProfileCounts(model, layouts[gpu]) == counts) {
      continue;
    }
    const std::string what = FormatMigCounts(model, counts);
    if (first == 0 && gpu == layouts.size()) return what;
    runs.push_back(gpu - first == 1
                       ? fmt::format("{} on GPU {}", what, first)
                       : fmt::format("{} on GPUs {}-{}", what, first, gpu - 1));
    first = gpu;
  }
  std::string out;
  for (const std::string& r : runs) out += (out.empty() ? "" : ", ") + r;
  return out;
}

}  // namespace

std::string SharingLabel(const SharingConfig& s, const GpuModel* model) {
  std::string out(SharingSchemeDisplayName(s.scheme()));
  if (s.mig_enabled) {
    if (s.mig.dynamic) {
      out += " dynamic";
    } else if (!s.mig.config_name.empty()) {
      out += " " + s.mig.config_name;
    } else if (s.mig.layouts.size() == 1 && model != nullptr &&
               model->mig_capable()) {
      try {
        const std::vector<MigLayout> layouts = s.Validate(*model, 1);
        out +=
            " " + FormatMigCounts(*model, MigProfileCounts(*model, layouts[0]));
      } catch (const InputError&) {
        out += " custom layout";
      }
    } else if (model != nullptr && model->mig_capable()) {
      out += " " + PerGpuMigLabel(s, *model);
    } else {
      out += " custom layout";
    }
  }
  if (s.sharing == DeviceSharing::kTimeSlicing ||
      s.sharing == DeviceSharing::kMps) {
    out += fmt::format(" x{}", s.replicas.replicas);
  }
  if (s.sharing == DeviceSharing::kHami) {
    out += fmt::format(" split {}", s.hami.split_count);
  }
  return out;
}

bool ParseSharingScheme(std::string_view text, SharingScheme* scheme) {
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
        SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami}) {
    if (text == SharingSchemeName(s)) {
      *scheme = s;
      return true;
    }
  }
  if (text == "vgpu") {
    *scheme = SharingScheme::kHami;
    return true;
  }
  return false;
}

SharingScheme SharingConfig::scheme() const {
  if (sharing == DeviceSharing::kHami) return SharingScheme::kHami;
  if (mig_enabled) return SharingScheme::kMig;
  if (sharing == DeviceSharing::kTimeSlicing) return SharingScheme::kTimeSlicing;
  if (sharing == DeviceSharing::kMps) return SharingScheme::kMps;
  return SharingScheme::kExclusive;
}

std::vector<MigLayout> SharingConfig::Validate(const GpuModel& model,
                                               int gpus_per_node) const {
  if (sharing == DeviceSharing::kTimeSlicing || sharing == DeviceSharing::kMps) {
    const char* what =
        sharing == DeviceSharing::kMps ? "MPS" : "time-slicing";
    if (replicas.replicas < 2) {
      throw InputError(fmt::format(
          "{} replicas must be at least 2 (the NVIDIA device plugin rejects "
          "replicas < 2), got {}",
          what, replicas.replicas));
    }
    if (sharing == DeviceSharing::kMps &&
        replicas.replicas > MaxMpsReplicas(model)) {
      throw InputError(fmt::format(
          "MPS replicas {} exceed the {} MPS clients per GPU of {} (compute "
          "capability {})",
          replicas.replicas, MaxMpsReplicas(model), model.name,
          model.compute_capability));
    }
  }
  if (sharing == DeviceSharing::kHami) {
    if (hami.split_count < 1 || hami.split_count > 1000) {
      throw InputError(fmt::format(
          "HAMi deviceSplitCount must be 1..1000, got {}", hami.split_count));
    }
    if (!(hami.memory_scaling > 0 && hami.memory_scaling <= 100)) {
      throw InputError(fmt::format(
          "HAMi deviceMemoryScaling must be > 0 and <= 100, got {}",
          hami.memory_scaling));
    }
    if (!(hami.core_scaling > 0 && hami.core_scaling <= 100)) {
      throw InputError(fmt::format(
          "HAMi deviceCoreScaling must be > 0 and <= 100, got {}",
          hami.core_scaling));
    }
    if (hami.default_cores < 0 || hami.default_cores > 100) {
      throw InputError(fmt::format("HAMi defaultCores must be 0..100, got {}",
                                   hami.default_cores));
    }
    if (hami.default_memory_mib < 0 ||
        hami.default_memory_mib > model.memory_mib) {
      throw InputError(fmt::format(
          "HAMi defaultMemory must be 0..{} MiB on {}, got {}",
          model.memory_mib, model.name, hami.default_memory_mib));
    }
  }
  std::vector<MigLayout> layouts;
  if (!mig_enabled) return layouts;
  if (!model.mig) {
    throw InputError(model.name + " does not support MIG");
  }
  if (sharing == DeviceSharing::kMps) {
    throw InputError(
        "MPS sharing is not supported on MIG-enabled GPUs by the NVIDIA "
        "device plugin; use time-slicing on MIG, or MPS on whole GPUs");
  }
  if (sharing == DeviceSharing::kHami) {
    throw InputError(
        "HAMi on MIG (dynamic MIG, operatingmode: mig) is not modelled; use "
        "HAMi on whole GPUs, or MIG with the NVIDIA device plugin");
  }
  if (mig.dynamic) {
    // Instances are made per claim: no layout to resolve.
    if (!mig.config_name.empty() || !mig.layouts.empty()) {
      throw InputError(
          "dynamic MIG makes instances per claim: drop mig_config / "
          "mig_layouts (a static layout) or dra.dynamic_mig");
    }
    if (sharing != DeviceSharing::kNone) {
      throw InputError(
          "time-sliced MIG instances (mig with replicas) are not modelled "
          "with dynamic MIG");
    }
    return layouts;
  }
  if (!mig.config_name.empty() && !mig.layouts.empty()) {
    throw InputError("give either a named MIG config or explicit layouts, "
                     "not both");
  }
  if (!mig.config_name.empty()) {
    const NamedMigConfig config = FindNamedMigConfig(model, mig.config_name);
    if (!config.mig_enabled) {
      throw InputError("MIG config '" + mig.config_name +
                       "' disables MIG; drop the mig section instead");
    }
    layouts.assign(gpus_per_node, config.layout);
  } else if (mig.layouts.empty()) {
    throw InputError("MIG is enabled but neither a config name nor layouts "
                     "are given");
  } else if (mig.layouts.size() != 1 &&
             static_cast<int>(mig.layouts.size()) != gpus_per_node) {
    throw InputError(fmt::format(
        "give one MIG layout for all GPUs or one per GPU ({}), got {}",
        gpus_per_node, mig.layouts.size()));
  } else {
    for (int gpu = 0; gpu < gpus_per_node; ++gpu) {
      const auto& items = mig.layouts.size() == 1 ? mig.layouts[0]
                                                  : mig.layouts[gpu];
      try {
        layouts.push_back(ResolveMigLayout(model, items));
      } catch (const InputError& e) {
        throw InputError(fmt::format("MIG layout of GPU {}: {}", gpu,
                                     e.message()));
      }
    }
  }
  if (mig.strategy == MigStrategy::kSingle) {
    int profile = -1;
    for (const MigLayout& layout : layouts) {
      if (layout.empty()) {
        throw InputError(
            "mig strategy single needs MIG instances on every GPU (GFD "
            "would label the node " +
            model.name + "-MIG-INVALID)");
      }
      for (const MigInstance& in : layout) {
        if (profile >= 0 && in.profile != profile) {
          throw InputError(fmt::format(
              "mig strategy single needs one profile on every GPU, but the "
              "layout has {} and {} (GFD would label the node "
              "{}-MIG-INVALID); use strategy mixed",
              model.mig->profiles[profile].name,
              model.mig->profiles[in.profile].name, model.name));
        }
        profile = in.profile;
      }
    }
  }
  return layouts;
}

SharingConfig ExclusiveSharing() { return SharingConfig{}; }

SharingConfig TimeSlicingSharing(int replicas) {
  SharingConfig c;
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = replicas;
  return c;
}

SharingConfig MpsSharing(int replicas) {
  SharingConfig c;
  c.sharing = DeviceSharing::kMps;
  c.replicas.replicas = replicas;
  c.replicas.fail_requests_greater_than_one = true;  // MPS default (config.go)
  return c;
}

SharingConfig MigSharing(MigStrategy strategy, std::string config_name) {
  SharingConfig c;
  c.mig_enabled = true;
  c.mig.strategy = strategy;
  c.mig.config_name = std::move(config_name);
  return c;
}

SharingConfig HamiSharing() {
  SharingConfig c;
  c.sharing = DeviceSharing::kHami;
  return c;
}

}  // namespace gpushare
