#include "gpushare/emit/node_target.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpushare {
namespace {

// HAMi's device plugin runs on nodes labelled gpu=on (its chart's
// devicePlugin.nvidiaNodeSelector).
constexpr const char* kHamiNodeLabel = "gpu";
constexpr const char* kHamiNodeValue = "on";

// Whether `taints` holds a taint of t's key and effect: setting it with
// --overwrite replaces t (a node has one taint per key and effect), so t
// needs no removal of its own.
bool HasTaint(const std::vector<Taint>& taints, const Taint& t) {
  return std::any_of(taints.begin(), taints.end(), [&](const Taint& o) {
    return o.key == t.key && o.effect == t.effect;
  });
}

void RemoveUnless(NodeTarget* target, const std::string& key,
                  const std::string& only_value = "") {
  if (target->set.count(key) == 0) target->remove.push_back({key, only_value});
}

}  // namespace

void AddTaintOnce(std::vector<Taint>* taints, const Taint& taint) {
  if (std::find(taints->begin(), taints->end(), taint) == taints->end()) {
    taints->push_back(taint);
  }
}

std::string TaintText(const Taint& taint) {
  return fmt::format("{}={}:{}", taint.key, taint.value,
                     TaintEffectName(taint.effect));
}

NodeTarget PoolNodeTarget(const NodePoolSpec& pool,
                          const std::string& mig_config, bool mig_capable,
                          const NodePoolSpec* before) {
  NodeTarget t;
  t.set[kNodePoolLabel] = pool.name;
  for (const auto& [k, v] : pool.labels) t.set[k] = v;
  if (pool.sharing.sharing == DeviceSharing::kHami) {
    t.set[kHamiNodeLabel] = kHamiNodeValue;
    t.set[kDeployDevicePluginLabel] = "false";
  } else if (pool.devices == PoolDevices::kDra) {
    // NVIDIA's DRA driver hands out the GPUs: no device plugin beside it
    // (its chart's templates/validation.yaml).
    t.set[kDeployDevicePluginLabel] = "false";
  } else {
    t.set[kDevicePluginConfigLabel] = pool.name;
    t.set[kDeployDevicePluginLabel] = "true";
  }
  RemoveUnless(&t, kHamiNodeLabel, kHamiNodeValue);
  RemoveUnless(&t, kDevicePluginConfigLabel);
  const bool dynamic_mig = pool.sharing.mig_enabled && pool.sharing.mig.dynamic;
  if (!dynamic_mig && before != nullptr && before->sharing.mig_enabled &&
      before->sharing.mig.dynamic) {
    t.remove.push_back({kDeployMigManagerLabel, ""});  // the MIG manager back
  }
  if (dynamic_mig) {
    // The DRA driver makes and removes MIG instances itself: no MIG
    // manager on the node (the GPU Operator's deploy label), no layout.
    t.set[kDeployMigManagerLabel] = "false";
    t.remove.push_back({kMigConfigLabel, ""});
  } else if (!mig_config.empty()) {
    t.mig_config = mig_config;
  } else if (mig_capable) {
    t.disable_mig = true;
  } else {
    t.remove.push_back({kMigConfigLabel, ""});
  }
  t.taints = pool.taints;
  if (before != nullptr) {
    for (const auto& [k, v] : before->labels) RemoveUnless(&t, k);
    for (const Taint& taint : before->taints) {
      if (!HasTaint(t.taints, taint)) t.remove_taints.push_back(taint);
    }
  }
  return t;
}

NodeTarget RestoreNodeTarget(const NodeIdentity& node,
                             const NodeTarget& applied) {
  NodeTarget t;
  auto restore = [&](const std::string& key) {
    const auto it = node.labels.find(key);
    if (it != node.labels.end()) {
      t.set[key] = it->second;
    } else if (std::none_of(t.remove.begin(), t.remove.end(),
                            [&](const LabelRemoval& r) { return r.key == key; })) {
      t.remove.push_back({key, ""});
    }
  };
  for (const auto& [k, v] : applied.set) restore(k);
  for (const LabelRemoval& r : applied.remove) {
    if (r.key != kMigConfigLabel) restore(r.key);
  }
  const auto mig = node.labels.find(kMigConfigLabel);
  if (!applied.mig_config.empty() || applied.disable_mig) {
    if (mig != node.labels.end()) {
      t.mig_config = mig->second;
    } else if (!applied.mig_config.empty()) {
      t.mig_config = kMigDisabledConfig;  // out of MIG, as it was
    } else {
      t.disable_mig = true;
    }
  } else if (mig != node.labels.end()) {
    t.set[kMigConfigLabel] = mig->second;
  }
  t.taints = node.taints;
  for (const Taint& taint : applied.taints) {
    if (!HasTaint(node.taints, taint)) t.remove_taints.push_back(taint);
  }
  return t;
}

}  // namespace gpushare
