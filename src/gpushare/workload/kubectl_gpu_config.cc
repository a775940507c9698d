#include "gpushare/workload/kubectl_gpu_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "gpushare/cluster/dra/nvidia_device_name.h"
#include "gpushare/cluster/dra/quantity.h"

namespace gpushare {
namespace {

constexpr int64_t kGpuConfigBytesPerMib = int64_t{1} << 20;

// Whether a config entry's `requests` (empty: all) names `request`.
bool ConfigApplies(const JsonValue& entry, const std::string& request) {
  const std::vector<JsonValue> names = entry.Get("requests").Items();
  if (names.empty()) return true;
  const std::string parent = request.substr(0, request.find('/'));
  for (const JsonValue& n : names) {
    const std::string name = n.String();
    if (name == request || name == parent) return true;
  }
  return false;
}

// A pinned memory limit in MiB; the driver refuses one under 1Mi
// (sharing.go limit.Megabyte: "value set too low").
int64_t PinnedLimitMib(const JsonValue& at, const std::string& who) {
  std::string why;
  const std::optional<int64_t> bytes = ParseQuantity(at.String(), &why);
  if (!bytes) at.Fail(who + ": " + why);
  const int64_t mib = *bytes / kGpuConfigBytesPerMib;
  if (mib <= 0) {
    at.Fail(who +
            ": invalid limit: value set too low (the driver's MPS pinned "
            "memory limit is whole MiB, at least 1Mi); the kubelet plugin "
            "refuses to prepare the claim");
  }
  return mib;
}

// One opaque GpuConfig / MigDeviceConfig's sharing into `out`.
void ReadSharing(const JsonValue& parameters, const std::string& who,
                 NvidiaClaimSharing* out) {
  const std::string api = parameters.Get("apiVersion").String();
  if (api != "resource.nvidia.com/v1beta1") {
    parameters.Get("apiVersion")
        .Fail(who + ": expected the NVIDIA driver's config apiVersion "
                    "resource.nvidia.com/v1beta1, got '" + api + "'");
  }
  const std::string kind = parameters.Get("kind").String();
  const bool mig = kind == "MigDeviceConfig";
  if (kind != "GpuConfig" && !mig) {
    parameters.Get("kind").Fail(
        who + ": expected GpuConfig or MigDeviceConfig (the sharing configs "
              "of gpu.nvidia.com devices), got '" + kind + "'");
  }
  const JsonValue sharing = parameters.Get("sharing");
  *out = NvidiaClaimSharing();
  if (sharing.Missing()) return;  // DefaultGpuConfig(): no sharing
  out->at.emplace(sharing);
  const JsonValue strategy_at = sharing.Get("strategy");
  const std::string strategy = strategy_at.String();
  const JsonValue ts = sharing.Get("timeSlicingConfig");
  const JsonValue mps = sharing.Get("mpsConfig");
  const std::string refused =
      "; the kubelet plugin refuses to prepare the claim, so its pods never "
      "start";
  if (strategy == "TimeSlicing") {
    out->strategy = NvidiaClaimSharing::Strategy::kTimeSlicing;
    if (!mps.Missing()) {
      mps.Fail(who + ": cannot use MpsConfig with the 'TimeSlicing' strategy" +
               refused);
    }
    if (mig && !ts.Missing()) {
      ts.Fail(who + ": a MigDeviceConfig has no timeSlicingConfig (MIG "
                    "devices time-slice at the driver's default)" + refused);
    }
    const JsonValue interval = ts.Get("interval");
    if (!interval.Missing() &&
        !ParseDraTimeSliceInterval(interval.String(), &out->interval)) {
      interval.Fail(who + ": unknown time-slice interval: " +
                    interval.String() +
                    " (expected Default, Short, Medium or Long)" + refused);
    }
    return;
  }
  if (strategy == "MPS") {
    out->strategy = NvidiaClaimSharing::Strategy::kMps;
    if (!ts.Missing()) {
      ts.Fail(who + ": cannot use TimeSlicingConfig with the 'MPS' strategy" +
              refused);
    }
    const JsonValue pct = mps.Get("defaultActiveThreadPercentage");
    if (!pct.Missing()) {
      const int64_t v = pct.Int(std::numeric_limits<int32_t>::min(),
                              std::numeric_limits<int32_t>::max());
      if (v < 0 || v > 100) {
        pct.Fail(who + fmt::format(": active thread percentage must not be {}",
                                   v < 0 ? "negative"
                                         : "greater than 100") +
                 refused);
      }
      out->active_thread_percentage = static_cast<int>(v);
    }
    const JsonValue limit = mps.Get("defaultPinnedDeviceMemoryLimit");
    if (!limit.Missing()) {
      out->pinned_memory_limit_mib = PinnedLimitMib(limit, who);
    }
    for (const auto& [device, v] :
         mps.Get("defaultPerDevicePinnedMemoryLimit").Members()) {
      const int64_t mib = PinnedLimitMib(v, who);
      out->pinned_memory_limit_mib =
          out->pinned_memory_limit_mib == 0
              ? mib
              : std::min(out->pinned_memory_limit_mib, mib);
    }
    return;
  }
  strategy_at.Fail(
      who +
      (strategy == "Fabric"
           ? std::string(": fabric GPU sharing strategy is not enabled")
           : ": unknown GPU sharing strategy: " + strategy +
                 " (expected TimeSlicing or MPS)") +
      refused);
}

}  // namespace

NvidiaClaimSharing ReadNvidiaClaimSharing(const JsonValue& claim_spec,
                                          const JsonValue* class_config,
                                          const std::string& request,
                                          const std::string& claim_name) {
  NvidiaClaimSharing out;
  const std::string who = "claim " + claim_name;
  auto read = [&](const std::vector<JsonValue>& entries, bool claim) {
    for (const JsonValue& e : entries) {
      const JsonValue opaque = e.Get("opaque");
      if (opaque.Missing()) continue;
      if (opaque.Get("driver").String() != "gpu.nvidia.com") continue;
      // A class's entries apply to every request of that class.
      if (claim && !ConfigApplies(e, request)) continue;
      ReadSharing(opaque.Get("parameters"), who, &out);
    }
  };
  if (class_config != nullptr) read(class_config->Items(), false);
  read(claim_spec.Get("devices").Get("config").Items(), true);
  return out;
}

namespace {

// The deviceClassName of request `request` ("r" or "r/s") of a claim spec.
std::string RequestClass(const JsonValue& spec, const std::string& request) {
  const size_t slash = request.find('/');
  const std::string parent = request.substr(0, slash);
  for (const JsonValue& r : spec.Get("devices").Get("requests").Items()) {
    if (r.Get("name").String() != parent) continue;
    if (slash == std::string::npos) {
      return r.Get("exactly").Get("deviceClassName").String();
    }
    for (const JsonValue& sub : r.Get("firstAvailable").Items()) {
      if (sub.Get("name").String() == request.substr(slash + 1)) {
        return sub.Get("deviceClassName").String();
      }
    }
  }
  return "";
}

}  // namespace

void ApplyClaimSharingToNodes(const KubectlDraItems& items,
                              std::vector<ImportedNode>* nodes,
                              std::vector<std::string>* notes) {
  std::map<std::string, JsonValue> class_config;
  for (const JsonValue& c : items.device_classes) {
    class_config.emplace(c.Get("metadata").Get("name").String(),
                         c.Get("spec").Get("config"));
  }
  std::map<std::string, ImportedNode*> by_name;
  for (ImportedNode& n : *nodes) {
    if (n.devices == PoolDevices::kDra) by_name[n.name] = &n;
  }
  std::map<std::string, int> counts;  // note -> count
  std::map<std::string, const char*> node_strategy;  // node -> what it got
  std::map<std::string, int> plain_claims;           // node -> claims
  for (const JsonValue& claim : items.resource_claims) {
    const std::string name =
        claim.Get("metadata").Get("namespace").String("default") + "/" +
        claim.Get("metadata").Get("name").String();
    const JsonValue spec = claim.Get("spec");
    std::map<std::string, std::string> requests;  // request -> node
    std::map<std::string, std::vector<int>> request_gpus;  // request -> GPUs
    for (const JsonValue& r : claim.Get("status")
                                  .Get("allocation")
                                  .Get("devices")
                                  .Get("results")
                                  .Items()) {
      if (r.Get("driver").String() != "gpu.nvidia.com") continue;
      requests.emplace(r.Get("request").String(), r.Get("pool").String());
      if (const std::optional<NvidiaDeviceName> device =
              ParseNvidiaDeviceName(r.Get("device").String())) {
        request_gpus[r.Get("request").String()].push_back(device->gpu);
      }
    }
    for (const auto& [request, node_name] : requests) {
      auto found = class_config.find(RequestClass(spec, request));
      const NvidiaClaimSharing sharing = ReadNvidiaClaimSharing(
          spec, found != class_config.end() ? &found->second : nullptr,
          request, name);
      auto it = by_name.find(node_name);
      if (it == by_name.end()) continue;
      ImportedNode& node = *it->second;
      using Strategy = NvidiaClaimSharing::Strategy;
      if (sharing.strategy == Strategy::kNone) {
        ++plain_claims[node.name];
        continue;
      }
      if (sharing.strategy == Strategy::kMps) {
        if (node.dra.consumable_shares != DraConsumableShares::kDisabled) {
          sharing.at->Fail(
              "claim " + name + ": MPS sharing is not supported when "
              "consumable shares is enabled (its devices are on node '" +
              node.name + "', whose ResourceSlice publishes consumable "
              "shares); the NVIDIA driver's kubelet plugin refuses to prepare "
              "the claim (cmd/gpu-kubelet-plugin/device_state.go)");
        }
        if (node.sharing.mig_enabled) {
          ++counts["claim(s) with MPS on MIG devices: not modelled (each pod "
                   "of the claim holds the MIG device alone)"];
          continue;
        }
        // The driver applies the claim's config to its own devices.
        const std::vector<int>& gpus = request_gpus[request];
        std::vector<int>& mps_gpus = node.dra.mps_gpus;
        mps_gpus.insert(mps_gpus.end(), gpus.begin(), gpus.end());
        std::sort(mps_gpus.begin(), mps_gpus.end());
        mps_gpus.erase(std::unique(mps_gpus.begin(), mps_gpus.end()),
                       mps_gpus.end());
        if (node.sharing.scheme() == SharingScheme::kMps) {
          if (node.dra.mps_active_thread_percentage !=
                  sharing.active_thread_percentage ||
              node.dra.mps_pinned_memory_limit_mib !=
                  sharing.pinned_memory_limit_mib) {
            ++counts["claim(s) whose MPS settings differ from another claim's "
                     "on the same node: the node keeps the first claim's"];
          }
          continue;
        }
        node.sharing = MpsSharing(2);
        node.dra.mps_active_thread_percentage =
            sharing.active_thread_percentage;
        node.dra.mps_pinned_memory_limit_mib = sharing.pinned_memory_limit_mib;
        node_strategy[node.name] = "MPS";
        ++counts["node(s) whose allocated claims ask MPS (GpuConfig "
                 "sharing.strategy MPS) imported as DRA MPS with the claim's "
                 "thread percentage and pinned memory limit"];
        continue;
      }
      if (sharing.interval == DraTimeSliceInterval::kDefault) continue;
      if (node.dra.consumable_shares == DraConsumableShares::kDisabled) {
        ++counts["claim(s) with a TimeSlicing interval on a node without "
                 "consumable shares: their pods time-slice at the Default "
                 "interval"];
        continue;
      }
      if (node.dra.time_slice_interval != DraTimeSliceInterval::kDefault &&
          node.dra.time_slice_interval != sharing.interval) {
        ++counts["claim(s) whose TimeSlicing interval differs from another "
                 "claim's on the same node: the node keeps the first "
                 "claim's"];
        continue;
      }
      node.dra.time_slice_interval = sharing.interval;
    }
  }
  for (const auto& [node, strategy] : node_strategy) {
    auto plain = plain_claims.find(node);
    if (plain != plain_claims.end()) {
      counts["claim(s) without sharing config on a node whose claims ask "
             "MPS: they run without MPS limits on their own GPUs (the "
             "driver applies a claim's GpuConfig to its devices only)"] +=
          plain->second;
    }
  }
  if (notes == nullptr) return;
  for (const auto& [text, n] : counts) {
    notes->push_back(fmt::format("{} {}", n, text));
  }
}

}  // namespace gpushare
