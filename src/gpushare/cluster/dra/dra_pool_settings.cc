#include "gpushare/cluster/dra/dra_pool_settings.h"

#include <fmt/format.h>

namespace gpushare {

std::string_view DraTimeSliceIntervalName(DraTimeSliceInterval interval) {
  switch (interval) {
    case DraTimeSliceInterval::kDefault: return "Default";
    case DraTimeSliceInterval::kShort: return "Short";
    case DraTimeSliceInterval::kMedium: return "Medium";
    case DraTimeSliceInterval::kLong: return "Long";
  }
  return "Default";
}

bool ParseDraTimeSliceInterval(std::string_view text,
                               DraTimeSliceInterval* interval) {
  for (DraTimeSliceInterval i :
       {DraTimeSliceInterval::kDefault, DraTimeSliceInterval::kShort,
        DraTimeSliceInterval::kMedium, DraTimeSliceInterval::kLong}) {
    if (text == DraTimeSliceIntervalName(i)) {
      *interval = i;
      return true;
    }
  }
  return false;
}

std::string DraConsumableSharesValue(const DraPoolSettings& settings) {
  switch (settings.consumable_shares) {
    case DraConsumableShares::kDisabled: return "disabled";
    case DraConsumableShares::kCount: return std::to_string(settings.shares);
    case DraConsumableShares::kMemoryShares: return "memory";
    case DraConsumableShares::kUnlimited: return "unlimited";
  }
  return "disabled";
}

std::string DraPoolSettingsProblem(const DraPoolSettings& settings,
                                   const SharingConfig& sharing) {
  const SharingScheme scheme = sharing.scheme();
  if (sharing.mig.dynamic && scheme != SharingScheme::kMig) {
    return fmt::format(
        "dra.dynamic_mig needs sharing scheme mig (MIG instances made per "
        "claim), not '{}'",
        SharingSchemeName(scheme));
  }
  if (sharing.mig.dynamic && settings.extended_resource) {
    return "dra.extended_resource: true with dra.dynamic_mig is not modelled "
           "yet (pods of a dynamic-MIG pool ask a ResourceClaim per pod)";
  }
  if (sharing.mig_enabled && sharing.sharing == DeviceSharing::kTimeSlicing) {
    return "time-sliced MIG devices under DRA (the driver's consumable shares "
           "on MIG devices) are not modelled yet: several claims per MIG "
           "instance; use scheme mig without replicas, or time-slicing of "
           "whole GPUs";
  }
  if (settings.consumable_shares != DraConsumableShares::kDisabled &&
      scheme != SharingScheme::kTimeSlicing) {
    return fmt::format(
        "dra.consumable_shares {} needs sharing scheme time-slicing (claims "
        "sharing whole GPUs); scheme '{}' hands each claim its own device{}",
        DraConsumableSharesValue(settings), SharingSchemeName(scheme),
        scheme == SharingScheme::kMig
            ? " (consumable shares on MIG devices are not modelled yet)"
            : "");
  }
  if (settings.consumable_shares == DraConsumableShares::kCount &&
      settings.shares != sharing.replicas.replicas) {
    return fmt::format(
        "dra.consumable_shares {} disagrees with sharing.replicas {} (on a DRA "
        "pool, time-slicing replicas are the driver's --consumable-shares)",
        settings.shares, sharing.replicas.replicas);
  }
  if (settings.time_slice_interval != DraTimeSliceInterval::kDefault &&
      scheme != SharingScheme::kTimeSlicing) {
    return fmt::format(
        "dra.time_slicing_interval {} needs sharing scheme time-slicing (the "
        "claim's TimeSlicing config), not '{}'",
        DraTimeSliceIntervalName(settings.time_slice_interval),
        SharingSchemeName(scheme));
  }
  if (settings.extended_resource &&
      settings.consumable_shares == DraConsumableShares::kMemoryShares) {
    return "dra.extended_resource: true with dra.consumable_shares memory: a "
           "pod asking nvidia.com/gpu cannot ask memory, so the claim the "
           "scheduler makes for it takes the policy's default, the whole GPU; "
           "write the pods' claims (extended_resource: false) to share by "
           "memory";
  }
  const bool mps_settings = settings.mps_active_thread_percentage > 0 ||
                            settings.mps_pinned_memory_limit_mib > 0;
  if (mps_settings && scheme != SharingScheme::kMps) {
    return fmt::format(
        "dra.mps needs sharing scheme mps (the claims' GpuConfig MPS "
        "config), not '{}'",
        SharingSchemeName(scheme));
  }
  if (scheme == SharingScheme::kMps && settings.extended_resource) {
    return "dra.extended_resource: true with sharing mps: the claims the "
           "scheduler makes for pods asking nvidia.com/gpu carry no GpuConfig, "
           "so no MPS; write the pods' claims (extended_resource: false)";
  }
  return "";
}

DraPoolSettings EffectiveDraPoolSettings(const DraPoolSettings& settings,
                                         const SharingConfig& sharing) {
  DraPoolSettings out;
  out.extended_resource = settings.extended_resource;
  if (sharing.scheme() == SharingScheme::kMps) {
    out.mps_active_thread_percentage = settings.mps_active_thread_percentage;
    out.mps_pinned_memory_limit_mib = settings.mps_pinned_memory_limit_mib;
    out.mps_gpus = settings.mps_gpus;
  }
  if (sharing.scheme() != SharingScheme::kTimeSlicing) return out;
  out.time_slice_interval = settings.time_slice_interval;
  if (settings.consumable_shares == DraConsumableShares::kMemoryShares ||
      settings.consumable_shares == DraConsumableShares::kUnlimited) {
    out.consumable_shares = settings.consumable_shares;
    return out;
  }
  out.consumable_shares = DraConsumableShares::kCount;
  out.shares = sharing.replicas.replicas;
  return out;
}

std::string DraPoolSharingLabel(const DraPoolSettings& settings,
                                const SharingConfig& sharing,
                                const GpuModel* model) {
  const DraPoolSettings effective = EffectiveDraPoolSettings(settings, sharing);
  std::string out;
  switch (effective.consumable_shares) {
    case DraConsumableShares::kCount:
      out = fmt::format("DRA time-slicing x{}", effective.shares);
      break;
    case DraConsumableShares::kMemoryShares:
      out = "DRA shared capacity (memory)";
      break;
    case DraConsumableShares::kUnlimited:
      out = "DRA shared capacity (unlimited)";
      break;
    case DraConsumableShares::kDisabled: {
      if (sharing.scheme() == SharingScheme::kMps) {
        out = "DRA MPS";
        if (effective.mps_active_thread_percentage > 0) {
          out += fmt::format(", {}% threads",
                             effective.mps_active_thread_percentage);
        }
        if (effective.mps_pinned_memory_limit_mib > 0) {
          out += fmt::format(", {}Mi pinned",
                             effective.mps_pinned_memory_limit_mib);
        }
        break;
      }
      if (sharing.mig_enabled && sharing.mig.dynamic) {
        out = "MIG (dynamic)";
        break;
      }
      // "exclusive" or "MIG 3x 2g.20gb": the scheme, then its details.
      const std::string plain = SharingLabel(sharing, model);
      const size_t space = plain.find(' ');
      out = space == std::string::npos
                ? plain + " (DRA)"
                : plain.substr(0, space) + " (DRA)" + plain.substr(space);
      break;
    }
  }
  if (effective.time_slice_interval != DraTimeSliceInterval::kDefault) {
    out += fmt::format(", interval {}",
                       DraTimeSliceIntervalName(effective.time_slice_interval));
  }
  return out;
}

}  // namespace gpushare
