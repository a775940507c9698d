#include "gpushare/decide/scheme_variant.h"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "gpushare/catalog/mig_config.h"
#include "gpushare/decide/kai_quota_conversion.h"
#include "gpushare/decide/queue_quota_conversion.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// The sharing config `pool` gets under `scheme`; "" or why it falls back
// to exclusive.
std::string Convert(NodePoolSpec& pool, const GpuModel& model,
                    SharingScheme scheme, const CompareSpec& spec,
                    const std::string& mig_family) {
  const SharingScheme current = pool.sharing.scheme();
  if (scheme == current && scheme != SharingScheme::kMig) return "";
  SharingConfig next;
  switch (scheme) {
    case SharingScheme::kExclusive:
      next = ExclusiveSharing();
      break;
    case SharingScheme::kTimeSlicing:
      next = TimeSlicingSharing(spec.time_slicing_replicas);
      // NVIDIA's recommended setting (README, "With CUDA Time-Slicing"):
      // a pod asking several replicas fails admission rather than get
      // replicas of one GPU (docs/emit.md).
      next.replicas.fail_requests_greater_than_one = true;
      break;
    case SharingScheme::kMps:
      next = MpsSharing(spec.mps_replicas);
      break;
    case SharingScheme::kHami:
      next = HamiSharing();
      next.hami.split_count = spec.hami_split_count;
      break;
    case SharingScheme::kMig: {
      if (!model.mig_capable()) {
        pool.sharing = ExclusiveSharing();
        return fmt::format("{} has no MIG: pool {} stays exclusive",
                           model.name, pool.name);
      }
      const std::string config = MigConfigOfFamily(model, mig_family);
      if (config.empty()) {
        pool.sharing = ExclusiveSharing();
        return fmt::format(
            "{} has no MIG config of the {} family: pool {} stays exclusive",
            model.name, mig_family, pool.name);
      }
      next = MigSharing(MigStrategy::kMixed, config);
      break;
    }
  }
  try {
    next.Validate(model, pool.gpus_per_node);
  } catch (const InputError& e) {
    pool.sharing = ExclusiveSharing();
    return fmt::format("pool {} cannot run {} ({}): it stays exclusive",
                       pool.name, SharingSchemeName(scheme), e.what());
  }
  pool.sharing = next;
  return UseDevicePluginWhereDraCannot(pool);
}

}  // namespace

std::string UseDevicePluginWhereDraCannot(NodePoolSpec& pool) {
  if (pool.devices != PoolDevices::kDra) return "";
  // The driver settings that belong to the scheme the pool had: consumable
  // shares and the interval go with time-slicing (a count with its
  // replicas); extended_resource stays.
  if (pool.sharing.scheme() != SharingScheme::kTimeSlicing) {
    pool.dra.consumable_shares = DraConsumableShares::kDisabled;
    pool.dra.shares = 0;
    pool.dra.time_slice_interval = DraTimeSliceInterval::kDefault;
  } else if (pool.dra.consumable_shares == DraConsumableShares::kCount) {
    pool.dra.shares = pool.sharing.replicas.replicas;
  }
  if (pool.sharing.scheme() != SharingScheme::kMps) {
    pool.dra.mps_active_thread_percentage = 0;
    pool.dra.mps_pinned_memory_limit_mib = 0;
    pool.dra.mps_gpus.clear();
  }
  // "DRA MPS" shares a GPU only among pods that share a claim, which a
  // variant's classes do not: MPS variants run through the device plugin.
  if (pool.sharing.scheme() != SharingScheme::kMps &&
      PoolDevicesProblem(pool.devices, pool.sharing.scheme()).empty()) {
    return "";
  }
  const bool mps = pool.sharing.scheme() == SharingScheme::kMps;
  pool.devices = PoolDevices::kDevicePlugin;
  pool.dra = DraPoolSettings();
  return fmt::format(
      "pool {} runs {} through its device plugin ({})", pool.name,
      SharingSchemeName(pool.sharing.scheme()),
      mps ? "DRA MPS shares a GPU only among pods sharing a claim, and a "
            "variant's pods share none"
          : "devices: dra serves exclusive, time-slicing through consumable "
            "shares, static MIG and MPS through shared claims");
}

double VgpuLicencePerGpuHour(const Scenario& scenario, const CompareSpec& spec) {
  if (spec.vgpu_licence_per_gpu_hour >= 0) {
    return spec.vgpu_licence_per_gpu_hour;
  }
  double licence = 0;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.sharing.scheme() == SharingScheme::kHami) {
      licence = std::max(licence, pool.licence_per_gpu_hour);
    }
  }
  return licence;
}

std::string MigConfigOfFamily(const GpuModel& model, const std::string& family) {
  if (!model.mig_capable()) return "";
  if (family == "balanced") return "all-balanced";
  const MigGeometry& mig = *model.mig;
  const MigProfile* best = nullptr;
  for (const MigProfile& p : mig.profiles) {
    if (p.media_extension()) continue;
    if (fmt::format("{}g", p.compute_slices) != family) continue;
    if (best == nullptr || p.memory_mib < best->memory_mib) best = &p;
  }
  if (best == nullptr) return "";
  std::string name = "all-" + best->name;
  std::replace(name.begin(), name.end(), '+', '.');
  return name;
}

SchemeVariant MakeSchemeVariant(const Scenario& scenario, SharingScheme scheme,
                                const CompareSpec& spec,
                                const Catalog& catalog,
                                const std::vector<std::string>& mig_families) {
  SchemeVariant v = MakeMixedVariant(
      scenario,
      std::vector<std::optional<SharingScheme>>(scenario.pools.size(), scheme),
      spec, catalog, mig_families);
  v.name = std::string(SharingSchemeName(scheme));
  v.scheme = scheme;
  if (scheme != SharingScheme::kMig) v.mig_families.clear();
  return v;
}

SchemeVariant MakeMixedVariant(
    const Scenario& scenario,
    const std::vector<std::optional<SharingScheme>>& schemes,
    const CompareSpec& spec, const Catalog& catalog,
    const std::vector<std::string>& mig_families) {
  SchemeVariant v;
  v.name = "mixed";
  v.scenario = scenario;
  const double licence = VgpuLicencePerGpuHour(scenario, spec);
  bool changed = false;
  for (size_t i = 0; i < v.scenario.pools.size(); ++i) {
    NodePoolSpec& pool = v.scenario.pools[i];
    v.mig_families.emplace_back();
    if (pool.gpus_per_node == 0 || pool.gpu_model.empty()) continue;
    if (i >= schemes.size() || !schemes[i].has_value()) continue;
    const SharingScheme scheme = *schemes[i];
    const GpuModel& model = catalog.Get(pool.gpu_model);
    const std::string mig_family =
        i < mig_families.size() && !mig_families[i].empty() ? mig_families[i]
                                                            : "balanced";
    const SharingConfig before = pool.sharing;
    const bool was_hami = before.scheme() == SharingScheme::kHami;
    const std::string note = Convert(pool, model, scheme, spec, mig_family);
    if (!note.empty()) v.notes.push_back(note);
    if (pool.sharing.mig_enabled) v.mig_families[i] = mig_family;
    const bool is_hami = pool.sharing.scheme() == SharingScheme::kHami;
    if (!is_hami) pool.licence_per_gpu_hour = 0;
    if (is_hami && !was_hami) pool.licence_per_gpu_hour = licence;
    changed = changed || before.scheme() != pool.sharing.scheme() ||
              pool.sharing.mig.config_name != before.mig.config_name;
  }
  if (changed) {
    for (std::string& note : ConvertQueueQuotas(scenario, &v.scenario, catalog)) {
      v.notes.push_back(std::move(note));
    }
    for (std::string& note : ConvertKaiQuotas(scenario, &v.scenario, catalog)) {
      v.notes.push_back(std::move(note));
    }
    const auto& trace = v.scenario.workload.trace;
    if (trace.pods != nullptr && trace.keep_explicit_requests &&
        std::any_of(trace.pods->begin(), trace.pods->end(), [](const Pod& p) {
          return !p.explicit_requests.empty();
        })) {
      v.notes.push_back(
          "trace pods: requests written for the scenario's plan dropped; "
          "translated from their needs");
    }
    v.scenario.workload.trace.keep_explicit_requests = false;
    std::set<std::string> dropped;
    for (WorkloadClassSpec& c : v.scenario.workload.classes) {
      if (c.requests.empty()) continue;
      c.requests.clear();
      dropped.insert(c.name);
    }
    for (const std::string& name : dropped) {
      v.notes.push_back(fmt::format(
          "class {}: requests written for the scenario's plan dropped; "
          "translated from its needs",
          name));
    }
  }
  return v;
}

bool OffersDynamicMigVariant(const Scenario& scenario,
                             const CompareSpec& spec) {
  return spec.mig_dynamic ||
         std::any_of(scenario.pools.begin(), scenario.pools.end(),
                     [](const NodePoolSpec& p) {
                       return p.sharing.mig_enabled && p.sharing.mig.dynamic;
                     });
}

SchemeVariant MakeDynamicMigVariant(const Scenario& scenario,
                                    const CompareSpec& spec,
                                    const Catalog& catalog) {
  SchemeVariant v =
      MakeSchemeVariant(scenario, SharingScheme::kMig, spec, catalog);
  v.name = kDynamicMigVariant;
  v.mig_families.assign(v.scenario.pools.size(), "");
  std::vector<std::string> notes;
  for (const std::string& note : v.notes) {
    // The static layouts' fallbacks do not apply: every MIG GPU is served.
    if (note.find("has no MIG config") == std::string::npos) {
      notes.push_back(note);
    }
  }
  v.notes = std::move(notes);
  for (NodePoolSpec& pool : v.scenario.pools) {
    if (pool.gpus_per_node == 0 || pool.gpu_model.empty() ||
        !catalog.Get(pool.gpu_model).mig_capable()) {
      continue;
    }
    if (pool.devices != PoolDevices::kDra) {
      v.notes.push_back(fmt::format(
          "pool {} runs MIG through NVIDIA's DRA driver (dynamic MIG is the "
          "driver's DynamicMIG gate)",
          pool.name));
    }
    pool.devices = PoolDevices::kDra;
    pool.dra = DraPoolSettings();
    pool.sharing = MigSharing(MigStrategy::kMixed, "");
    pool.sharing.mig.dynamic = true;
    pool.licence_per_gpu_hour = 0;
  }
  return v;
}

SchemeVariant MakePlanVariant(const Scenario& scenario) {
  SchemeVariant v;
  v.name = "plan";
  v.plan = true;
  v.scenario = scenario;
  return v;
}

std::string VariantDisplayName(const std::string& variant) {
  if (variant == "pool-plan") return "pool plan";
  if (variant == kDynamicMigVariant) return "MIG (dynamic)";
  SharingScheme scheme;
  if (variant == "vgpu" || !ParseSharingScheme(variant, &scheme)) {
    return variant;
  }
  return std::string(SharingSchemeDisplayName(scheme));
}

bool HasMixedPlan(const Scenario& scenario) {
  std::set<SharingScheme> schemes;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node > 0) schemes.insert(pool.sharing.scheme());
  }
  return schemes.size() > 1;
}

}  // namespace gpushare
