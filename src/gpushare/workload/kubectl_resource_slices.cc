#include "gpushare/workload/kubectl_resource_slices.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/nvidia_device_name.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/kubectl_object.h"

namespace gpushare {
namespace {

// spec.pool.generation is an int64 that must be >= 0 (kubernetes/
// kubernetes pkg/apis/resource/validation validateResourcePool).
constexpr int64_t kSliceMaxGeneration = std::numeric_limits<int64_t>::max();

// A member of attributes/capacity, unqualified or in the driver's domain.
JsonValue SliceMember(const JsonValue& map, const std::string& name) {
  const JsonValue plain = map.Get(name);
  if (!plain.Missing()) return plain;
  return map.Get(std::string(kNvidiaGpuDriver) + "/" + name);
}

// A string attribute's value ("" when absent).
std::string SliceStringAttribute(const JsonValue& device,
                                 const std::string& name) {
  const JsonValue a = SliceMember(device.Get("attributes"), name);
  if (a.Missing()) return "";
  if (a.Get("string").Missing()) a.Fail("expected a string attribute");
  return a.Get("string").String();
}

int64_t SliceQuantity(const JsonValue& at) {
  std::string why;
  const std::optional<int64_t> v = ParseQuantity(at.String(), &why);
  if (!v) at.Fail(why);
  return *v;
}

// The devices of one node, gathered over its slices.
struct SliceNodeDraft {
  NvidiaSliceNode node;
  std::string product;
  std::optional<JsonValue> product_at;
  std::set<int> whole;                                      // GPU indexes
  std::map<int, std::vector<std::pair<int, std::string>>> mig;  // start, profile
  std::optional<JsonValue> mig_at;  // the first MIG device, for errors
  bool shares_seen = false;
};

// The consumable-shares mode a device shows (consumable_shares.go).
DraPoolSettings SliceDeviceShares(const JsonValue& device) {
  DraPoolSettings s;
  if (!device.Get("allowMultipleAllocations").Bool()) return s;
  const JsonValue capacity = device.Get("capacity");
  const JsonValue shares = SliceMember(capacity, "shares");
  if (!shares.Missing()) {
    const int64_t n = SliceQuantity(shares.Get("value"));
    if (n < 1 || n > 1000000) {
      shares.Get("value").Fail("expected 1..1000000 shares");
    }
    if (n >= 2) {
      s.consumable_shares = DraConsumableShares::kCount;
      s.shares = static_cast<int>(n);
    }
    return s;
  }
  const JsonValue memory = SliceMember(capacity, "memory");
  const JsonValue policy = memory.Get("requestPolicy");
  if (memory.Missing() || policy.Missing() || policy.Get("default").Missing()) {
    device.Get("allowMultipleAllocations")
        .Fail(
            "a shared device (allowMultipleAllocations) without a `shares` "
            "capacity needs a memory capacity with a requestPolicy default, "
            "as the NVIDIA driver's --consumable-shares publishes it");
  }
  const int64_t whole = SliceQuantity(memory.Get("value"));
  const int64_t fallback = SliceQuantity(policy.Get("default"));
  if (fallback == whole) {
    s.consumable_shares = DraConsumableShares::kMemoryShares;
  } else if (fallback == 0) {
    s.consumable_shares = DraConsumableShares::kUnlimited;
  } else {
    policy.Get("default").Fail(
        "expected the default of the driver's --consumable-shares: the whole "
        "memory (memory) or 0 (unlimited)");
  }
  return s;
}


// One device into the node's draft; false when it is neither a whole GPU
// nor a MIG device.
bool ReadSliceDevice(const JsonValue& device, SliceNodeDraft* d) {
  if (!device.IsObject()) device.Fail("expected a device object");
  const std::string name = device.Get("name").String();
  if (name.empty()) device.Get("name").Fail("a device needs a name");
  const std::string type = SliceStringAttribute(device, "type");
  const std::optional<NvidiaDeviceName> parsed = ParseNvidiaDeviceName(name);
  if (!parsed || (type != "gpu" && type != "mig" && !type.empty()) ||
      (!type.empty() && (type == "mig") != parsed->mig)) {
    return false;
  }
  const std::string product = SliceStringAttribute(device, "productName");
  const JsonValue product_at =
      SliceMember(device.Get("attributes"), "productName");
  if (product.empty()) {
    device.Get("attributes")
        .Fail("device '" + name +
              "' has no productName attribute to tell its GPU model");
  }
  if (d->product.empty()) {
    d->product = product;
    d->product_at.emplace(product_at);
  } else if (product != d->product) {
    product_at.Fail("GPUs of two products on one node ('" + d->product +
                    "' and '" + product +
                    "'); the simulator models one GPU model per node");
  }
  const DraPoolSettings shares = SliceDeviceShares(device);
  if (!d->shares_seen) {
    d->node.dra = shares;
    d->shares_seen = true;
  } else if (!(shares == d->node.dra)) {
    device.Fail(fmt::format(
        "device '{}' is shared as '{}' but another device of the node as "
        "'{}'; the simulator gives every GPU of a node the same "
        "configuration",
        name, DraConsumableSharesValue(shares),
        DraConsumableSharesValue(d->node.dra)));
  }
  if (!parsed->mig) {
    if (!d->whole.insert(parsed->gpu).second) {
      device.Get("name").Fail("device '" + name + "' is listed twice");
    }
    return true;
  }
  const std::string profile = SliceStringAttribute(device, "profile");
  if (profile.empty()) {
    device.Get("attributes")
        .Fail("MIG device '" + name + "' has no profile attribute");
  }
  d->mig[parsed->gpu].emplace_back(parsed->start, profile);
  if (!d->mig_at) d->mig_at.emplace(device);
  return true;
}

// The draft's GPUs, model and layouts.
NvidiaSliceNode FinishSliceNode(const std::string& node_name,
                                SliceNodeDraft& d, const Catalog& catalog) {
  NvidiaSliceNode& n = d.node;
  const GpuModel& model = KubectlGpuModel(*d.product_at, d.product, catalog);
  n.gpu_model = model.name;
  if (!d.whole.empty() && !d.mig.empty()) {
    d.mig_at->Fail("node '" + node_name +
                   "' publishes both whole GPUs and MIG devices; the "
                   "simulator gives every GPU of a node the same "
                   "configuration");
  }
  if (d.mig.empty()) {
    n.gpus = static_cast<int>(d.whole.size());
    return n;
  }
  if (!model.mig_capable()) {
    d.mig_at->Fail(model.name + " has no MIG, yet node '" + node_name +
                   "' publishes MIG devices");
  }
  n.gpus = static_cast<int>(d.mig.size());
  for (auto& [gpu, instances] : d.mig) {
    std::sort(instances.begin(), instances.end());
    std::vector<std::string> items;
    for (const auto& [start, profile] : instances) {
      items.push_back(fmt::format("{}@{}", profile, start));
    }
    try {
      ResolveMigLayout(model, items);
    } catch (const InputError& e) {
      d.mig_at->Fail(fmt::format("node '{}', GPU {}: MIG devices {}: {}",
                                 node_name, gpu, fmt::join(items, ", "),
                                 e.message()));
    }
    n.mig_layouts.push_back(std::move(items));
  }
  // One layout for every GPU when they are alike.
  if (std::all_of(n.mig_layouts.begin(), n.mig_layouts.end(),
                  [&](const auto& l) { return l == n.mig_layouts.front(); })) {
    n.mig_layouts.resize(1);
  }
  return n;
}

}  // namespace

NvidiaSliceImport ReadNvidiaResourceSlices(const std::vector<JsonValue>& slices,
                                           const Catalog& catalog) {
  NvidiaSliceImport out;
  // The newest generation of each gpu.nvidia.com pool.
  std::map<std::string, int64_t> newest;
  for (const JsonValue& slice : slices) {
    const JsonValue spec = slice.Get("spec");
    if (spec.Get("driver").String() != kNvidiaGpuDriver) continue;
    const JsonValue pool = spec.Get("pool");
    const std::string name = pool.Get("name").String();
    if (name.empty()) pool.Get("name").Fail("a ResourceSlice needs a pool name");
    const int64_t generation =
        pool.Get("generation").Missing()
            ? 0
            : pool.Get("generation").Int(0, kSliceMaxGeneration);
    auto [it, added] = newest.emplace(name, generation);
    if (!added) it->second = std::max(it->second, generation);
  }
  std::map<std::string, SliceNodeDraft> drafts;
  for (const JsonValue& slice : slices) {
    const JsonValue spec = slice.Get("spec");
    const std::string driver = spec.Get("driver").String();
    if (driver.empty()) spec.Get("driver").Fail("a ResourceSlice needs a driver");
    if (driver != kNvidiaGpuDriver) {
      ++out.other_driver_slices;
      continue;
    }
    const JsonValue pool = spec.Get("pool");
    const std::string pool_name = pool.Get("name").String();
    const int64_t generation =
        pool.Get("generation").Missing()
            ? 0
            : pool.Get("generation").Int(0, kSliceMaxGeneration);
    if (generation < newest[pool_name]) {
      ++out.outdated_slices;
      continue;
    }
    std::string node = spec.Get("nodeName").String();
    const bool by_node_name = !node.empty();
    if (!by_node_name) {
      if (spec.Get("allNodes").Bool() || !spec.Get("nodeSelector").Missing()) {
        ++out.nodeless_slices;
        continue;
      }
      node = pool_name;
    }
    auto it = drafts.find(node);
    if (it == drafts.end()) {
      it = drafts.emplace(node, SliceNodeDraft()).first;
      it->second.node.at.emplace(slice);
      it->second.node.by_node_name = by_node_name;
    }
    for (const JsonValue& device : spec.Get("devices").Items()) {
      if (!ReadSliceDevice(device, &it->second)) ++out.other_devices;
    }
  }
  for (auto& [name, d] : drafts) {
    if (d.product.empty()) continue;  // no GPU among its devices
    out.nodes.emplace(name, FinishSliceNode(name, d, catalog));
  }
  return out;
}

}  // namespace gpushare
