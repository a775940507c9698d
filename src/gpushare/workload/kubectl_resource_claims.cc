#include "gpushare/workload/kubectl_resource_claims.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "gpushare/cluster/dra/cel_selector.h"
#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/dra/nvidia_device_name.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/workload/kubectl_claim_validation.h"
#include "gpushare/workload/kubectl_gpu_config.h"
#include "gpushare/workload/kubectl_other_devices.h"

namespace gpushare {
namespace {

constexpr int64_t kClaimBytesPerMib = int64_t{1} << 20;
// AllocationResultsMaxSize (kubernetes/api resource/v1 types.go).
constexpr int64_t kClaimMaxDevices = 32;

constexpr const char* kListHint =
    "list them with the pods: kubectl get pods,resourceclaims,"
    "resourceclaimtemplates,deviceclasses -A -o json";

// Notes (the text after the count).
constexpr const char* kNoteFirstAvailable =
    "firstAvailable request(s) imported as their allocated subrequest, else "
    "their first";
constexpr const char* kNoteAll =
    "allocationMode All request(s) of unallocated claims imported as one "
    "device";
constexpr const char* kNoteConstraints =
    "claim(s) with constraints (matchAttribute): not modelled (a node's "
    "GPUs are alike)";
constexpr const char* kNoteAdminAccess =
    "adminAccess request(s) left out (they take no device)";
constexpr const char* kNoteNotGpu =
    "request(s) of DeviceClasses that select no NVIDIA GPU or MIG device "
    "left out";
constexpr const char* kNoteShared =
    "pod reference(s) to a second shared ResourceClaim of one pod: imported "
    "without its devices (the first pod in the list holds them)";
constexpr const char* kNoteSharedClaim =
    "pod(s) sharing a ResourceClaim with other pods (resourceClaimName): "
    "each runs on the claim's devices, allocated once";
constexpr const char* kNoteMpsUnallocated =
    "request(s) of unallocated claims with MPS config (GpuConfig sharing "
    "MPS): MPS applies where a node's allocated claims ask it (node import); "
    "elsewhere their pods run without MPS limits";
constexpr const char* kNoteMixed =
    "pod(s) asking whole GPUs and MIG devices imported with the whole GPUs";
constexpr const char* kNoteProfiles =
    "pod(s) asking MIG devices of several profiles imported with the largest";
constexpr const char* kNoteSomeModels =
    "request(s) of classes that select only some GPU models: their pods are "
    "held to the pools of those models";
constexpr const char* kNoteSomeProfiles =
    "request(s) of classes that select MIG devices of several profiles "
    "imported as the profile of least memory";
constexpr const char* kNoteGpuAndMig =
    "request(s) of classes that select whole GPUs and MIG devices imported "
    "as whole GPUs";
constexpr const char* kNoteUnallocatable =
    "request(s) that no device of the list's ResourceSlices or of the "
    "catalog's GPUs satisfies: their pods are unschedulable (cannot allocate "
    "all claims)";
constexpr const char* kNoteOtherNode =
    "allocated claim(s) on another node than their pod's spec.nodeName "
    "(spec.nodeName wins)";

// The least memory of MIG profile `name` over the catalog's models; 0 when
// none has it.
int64_t ClaimProfileMemory(const Catalog& catalog, const std::string& name) {
  int64_t best = 0;
  for (const GpuModel& m : catalog.models()) {
    if (!m.mig_capable()) continue;
    for (const MigProfile& p : m.mig->profiles) {
      if (p.name == name && (best == 0 || p.memory_mib < best)) {
        best = p.memory_mib;
      }
    }
  }
  return best;
}

// The CEL selectors of a `selectors` array, compiled; `*at` (if set) gets
// each one's expression, for errors.
std::vector<CelSelector> ClaimSelectors(const JsonValue& selectors,
                                        std::vector<JsonValue>* where =
                                            nullptr) {
  std::vector<CelSelector> out;
  for (const JsonValue& s : selectors.Items()) {
    const JsonValue at = s.Get("cel").Get("expression");
    if (at.Missing()) s.Fail("expected a cel selector with an expression");
    if (where != nullptr) where->push_back(at);
    // A multi-line expression (kubectl prints its line breaks as \n) is
    // located by line and column within it.
    const std::string expression = at.MultilineString();
    CelCompileError error;
    std::optional<CelSelector> compiled =
        CelSelector::Compile(expression, &error);
    if (!compiled) {
      const std::string_view before = std::string_view(expression).substr(
          0, static_cast<size_t>(std::max(error.column - 1, 0)));
      const size_t line_start = before.rfind('\n');
      if (line_start == std::string_view::npos) {
        at.Fail(fmt::format("CEL selector, column {}: {}", error.column,
                            error.message));
      }
      at.Fail(fmt::format(
          "CEL selector, line {}, column {}: {}",
          1 + std::count(before.begin(), before.end(), '\n'),
          before.size() - line_start, error.message));
    }
    out.push_back(std::move(*compiled));
  }
  return out;
}

}  // namespace

// What a class (with a request's selectors) selects.
struct KubectlDraClaims::Mapping {
  enum class Kind { kNone, kGpu, kMig };
  Kind kind = Kind::kNone;
  bool other_driver = false;  // a device of another driver matches
  std::string error;          // the first CEL runtime error, as upstream's
  std::optional<JsonValue> error_at;  // its selector (or class name)
  std::string profile;                // kMig
  std::vector<std::string> profiles;  // kMig: every profile selected
  std::vector<std::string> models;    // kGpu: the models, when only some
  const char* approximation = nullptr;  // a note, or null
};

struct KubectlDraClaims::ClassEntry {
  DeviceClass device_class;
  std::vector<JsonValue> selector_at;  // a listed class's expressions
};

namespace {

// One probe device: a catalog model's whole GPU or one MIG device.
struct ClaimProbe {
  Device device;
  std::string model;
  std::string profile;  // "" for the whole GPU
  int64_t memory_mib = 0;
};

std::vector<ClaimProbe> ClaimProbes(const Catalog& catalog) {
  std::vector<ClaimProbe> out;
  for (const GpuModel& m : catalog.models()) {
    NvidiaGpuNode node;
    node.node_name = "probe";
    node.model = &m;
    node.gpu_count = 1;
    out.push_back({NvidiaGpuResourceSlice(node).devices.front(), m.name, "",
                   m.memory_mib});
    if (!m.mig_capable()) continue;
    for (size_t p = 0; p < m.mig->profiles.size(); ++p) {
      const MigProfile& profile = m.mig->profiles[p];
      if (profile.starts.empty()) continue;
      const MigLayout layout = {
          MigInstance{static_cast<int>(p), profile.starts.front()}};
      if (!FindMigLayoutProblem(m, layout).empty()) continue;
      node.mig_layouts = {layout};
      out.push_back({NvidiaGpuResourceSlice(node).devices.front(), m.name,
                     profile.name, profile.memory_mib});
    }
    node.mig_layouts.clear();
  }
  return out;
}

}  // namespace

KubectlDraClaims::KubectlDraClaims(const KubectlDraItems& items,
                                   const Catalog& catalog)
    : catalog_(catalog) {
  auto key_of = [](const JsonValue& item) {
    const JsonValue metadata = item.Get("metadata");
    const std::string name = metadata.Get("name").String();
    if (name.empty()) metadata.Get("name").Fail("an object needs a name");
    return metadata.Get("namespace").String("default") + "/" + name;
  };
  // Every object as the API server validates it, used or not.
  for (const JsonValue& c : items.resource_claims) {
    ValidateKubectlClaimSpec(c.Get("spec"));
    const JsonValue allocation = c.Get("status").Get("allocation");
    if (!allocation.Missing()) {
      ValidateKubectlAllocation(allocation, c.Get("spec"));
    }
    if (!claims_.emplace(key_of(c), c).second) {
      c.Get("metadata").Get("name").Fail("ResourceClaim listed twice");
    }
  }
  for (const JsonValue& t : items.resource_claim_templates) {
    ValidateKubectlClaimSpec(t.Get("spec").Get("spec"));
    if (!templates_.emplace(key_of(t), t).second) {
      t.Get("metadata").Get("name").Fail("ResourceClaimTemplate listed twice");
    }
  }
  for (const JsonValue& c : items.device_classes) {
    auto entry = std::make_unique<ClassEntry>();
    DeviceClass& dc = entry->device_class;
    dc.name = c.Get("metadata").Get("name").String();
    if (dc.name.empty()) {
      c.Get("metadata").Get("name").Fail("a DeviceClass needs a name");
    }
    dc.selectors =
        ClaimSelectors(c.Get("spec").Get("selectors"), &entry->selector_at);
    dc.extended_resource_name =
        c.Get("spec").Get("extendedResourceName").String();
    const std::string name = dc.name;
    if (!classes_.emplace(name, std::move(entry)).second) {
      c.Get("metadata").Get("name").Fail("DeviceClass '" + name +
                                         "' is listed twice");
    }
  }
  std::vector<ClaimProbe> probes = ClaimProbes(catalog);
  // A probe is a one-device slice: node_name its model, pool_name its
  // profile ("" for the whole GPU).
  for (ClaimProbe& p : probes) {
    ResourceSlice slice;
    slice.driver = kNvidiaGpuDriver;
    slice.node_name = p.model;
    slice.pool_name = p.profile;
    slice.devices.push_back(std::move(p.device));
    probes_.push_back(std::move(slice));
  }
  has_slices_ = !items.resource_slices.empty();
  other_devices_ = ReadOtherDriverDevices(items.resource_slices);
  // Every listed class is mapped once: those that select no GPU are
  // reported.
  for (const JsonValue& c : items.device_classes) {
    const Mapping m = Map(c.Get("metadata").Get("name"), {}, {}, "");
    if (m.kind == Mapping::Kind::kNone) {
      unmapped_classes_.insert(c.Get("metadata").Get("name").String());
    }
  }
}

KubectlDraClaims::~KubectlDraClaims() = default;

const KubectlDraClaims::ClassEntry& KubectlDraClaims::Class(
    const JsonValue& name_at) {
  const std::string name = name_at.String();
  if (name.empty()) name_at.Fail("a request needs a deviceClassName");
  auto it = classes_.find(name);
  if (it != classes_.end()) return *it->second;
  auto entry = std::make_unique<ClassEntry>();
  if (name == kNvidiaGpuDriver) {
    entry->device_class = NvidiaGpuDeviceClass();
  } else if (name == "mig.nvidia.com") {
    entry->device_class = NvidiaMigDeviceClass();
  } else {
    bool found = false;
    for (const GpuModel& m : catalog_.models()) {
      if (!m.mig_capable() || found) continue;
      for (const MigProfile& p : m.mig->profiles) {
        if (NvidiaMigProfileClassName(p.name) == name) {
          entry->device_class = NvidiaMigProfileDeviceClass(p.name);
          found = true;
          break;
        }
      }
    }
    if (!found) {
      name_at.Fail("DeviceClass '" + name +
                   "' is not in the list and is not one of the NVIDIA "
                   "driver's (gpu.nvidia.com, mig.nvidia.com, "
                   "mig-<profile>.gpu.nvidia.com); " +
                   kListHint);
    }
  }
  return *classes_.emplace(name, std::move(entry)).first->second;
}

KubectlDraClaims::Mapping KubectlDraClaims::Map(
    const JsonValue& class_name_at, const std::vector<CelSelector>& own,
    const std::vector<JsonValue>& own_at, const std::string& claim_name) {
  const ClassEntry& entry = Class(class_name_at);
  const DeviceClass& dc = entry.device_class;
  Mapping found;
  // Whether `device` passes the class's selectors, then the request's, in
  // order, as the allocator tries them; the first runtime error is kept.
  auto passes = [&](const Device& device, const std::string& driver,
                    const std::string& where) {
    auto fail = [&](const std::string& who, size_t i, const CelResult& r,
                    const JsonValue& at) {
      if (found.error_at) return;
      found.error = fmt::format("{}: selector #{}: CEL runtime error: {} (on {})",
                                who, i, r.ErrorMessage(), where);
      found.error_at.emplace(at);
    };
    for (size_t i = 0; i < dc.selectors.size(); ++i) {
      const CelResult r = dc.selectors[i].Evaluate(device, driver);
      if (r.failed()) {
        fail("class " + dc.name, i, r,
             i < entry.selector_at.size() ? entry.selector_at[i]
                                          : class_name_at);
      }
      if (!r.matches()) return false;
    }
    for (size_t i = 0; i < own.size(); ++i) {
      const CelResult r = own[i].Evaluate(device, driver);
      if (r.failed()) fail("claim " + claim_name, i, r, own_at[i]);
      if (!r.matches()) return false;
    }
    return true;
  };
  std::set<std::string> whole_models;
  std::set<std::string> all_models;
  std::map<std::string, int64_t> profiles;  // name -> least memory
  for (const ResourceSlice& probe : probes_) {
    const Device& device = probe.devices.front();
    const bool whole = probe.pool_name.empty();
    if (whole) all_models.insert(probe.node_name);
    if (!passes(device, probe.driver,
                fmt::format("device {} of model {}, as the NVIDIA driver "
                            "publishes it",
                            device.name, probe.node_name))) {
      continue;
    }
    if (whole) {
      whole_models.insert(probe.node_name);
    } else {
      const int64_t memory = ClaimProfileMemory(catalog_, probe.pool_name);
      profiles.emplace(probe.pool_name, memory);
    }
  }
  for (const ResourceSlice& slice : other_devices_) {
    for (const Device& device : slice.devices) {
      if (found.other_driver) break;
      found.other_driver = passes(
          device, slice.driver,
          fmt::format("device {}/{}/{}", slice.driver, slice.pool_name,
                      device.name));
    }
  }
  Mapping m = std::move(found);
  if (!whole_models.empty()) {
    m.kind = Mapping::Kind::kGpu;
    if (!profiles.empty()) {
      m.approximation = kNoteGpuAndMig;
    } else if (whole_models.size() < all_models.size()) {
      m.approximation = kNoteSomeModels;
      m.models.assign(whole_models.begin(), whole_models.end());
    }
    return m;
  }
  if (profiles.empty()) return m;
  m.kind = Mapping::Kind::kMig;
  for (const auto& [name, memory] : profiles) {
    m.profiles.push_back(name);
    if (m.profile.empty() || memory < profiles[m.profile]) m.profile = name;
  }
  if (profiles.size() > 1) m.approximation = kNoteSomeProfiles;
  return m;
}

void KubectlDraClaims::AddRequest(const JsonValue& request,
                                  const JsonValue* allocation,
                                  const std::string& claim_name,
                                  DraPodDemand* demand) {
  const std::string name = request.Get("name").String();
  if (name.empty()) request.Get("name").Fail("a request needs a name");
  const JsonValue exactly = request.Get("exactly");
  const JsonValue first = request.Get("firstAvailable");
  if (exactly.Missing() == first.Missing()) {
    request.Fail(
        "a request needs exactly one of `exactly` and `firstAvailable` "
        "(resource.k8s.io/v1)");
  }
  // This request's gpu.nvidia.com results. JsonValues are never assigned
  // (YAML::Node's assignment writes through), only constructed.
  auto results_of = [&](const std::string& request_name) {
    std::vector<JsonValue> out;
    if (allocation == nullptr) return out;
    for (const JsonValue& r :
         allocation->Get("devices").Get("results").Items()) {
      if (r.Get("request").String() == request_name &&
          r.Get("driver").String() == kNvidiaGpuDriver) {
        out.push_back(r);
      }
    }
    return out;
  };
  std::optional<JsonValue> picked;
  std::vector<JsonValue> results;
  if (!first.Missing()) {
    const std::vector<JsonValue> subs = first.Items();
    if (subs.empty()) first.Fail("firstAvailable needs a subrequest");
    size_t index = 0;
    for (size_t i = 0; i < subs.size() && results.empty(); ++i) {
      results = results_of(name + "/" + subs[i].Get("name").String());
      if (!results.empty()) index = i;
    }
    picked.emplace(subs[index]);
    ++counts_[kNoteFirstAvailable];
  } else {
    picked.emplace(exactly);
    results = results_of(name);
  }
  const JsonValue& chosen = *picked;
  if (chosen.Get("adminAccess").Bool()) {
    ++counts_[kNoteAdminAccess];
    return;
  }
  std::vector<JsonValue> own_at;
  const std::vector<CelSelector> own =
      ClaimSelectors(chosen.Get("selectors"), &own_at);
  const Mapping m = Map(chosen.Get("deviceClassName"), own, own_at,
                        claim_name);
  if (m.kind == Mapping::Kind::kNone && !m.other_driver && results.empty()) {
    // No device at all: the allocator either stops at the selector's error
    // (an Error status: the pod is retried and never scheduled) or finds no
    // device (Unschedulable).
    if (m.error_at) {
      m.error_at->Fail(m.error +
                       "; the scheduler's allocator stops at this error, so "
                       "the claim's pods never run");
    }
    if (has_slices_) {
      ++counts_[kNoteUnallocatable];
      demand->unallocatable = kDraCannotAllocateAllClaims;
      return;
    }
  }
  if (m.kind == Mapping::Kind::kNone) {
    ++counts_[kNoteNotGpu];
    unmapped_classes_.insert(chosen.Get("deviceClassName").String());
    return;
  }
  const std::string mode = chosen.Get("allocationMode").String("ExactCount");
  int64_t count = 1;
  if (mode == "ExactCount") {
    if (!chosen.Get("count").Missing()) {
      count = chosen.Get("count").Int(1, kClaimMaxDevices);
    }
  } else if (mode == "All") {
    if (results.empty()) ++counts_[kNoteAll];
  } else {
    chosen.Get("allocationMode")
        .Fail("expected ExactCount or All, got '" + mode + "'");
  }
  if (!results.empty()) count = static_cast<int64_t>(results.size());
  // An allocated MIG device names its profile: no guess then.
  if (m.approximation != nullptr &&
      !(m.approximation == kNoteSomeProfiles && !results.empty())) {
    ++counts_[m.approximation];
  }
  const JsonValue asked = chosen.Get("capacity").Get("requests");
  const JsonValue memory =
      asked.Get("memory").Missing()
          ? asked.Get(std::string(kNvidiaGpuDriver) + "/memory")
          : asked.Get("memory");
  if (!memory.Missing()) {
    std::string why;
    const std::optional<int64_t> bytes = ParseQuantity(memory.String(), &why);
    if (!bytes) memory.Fail(why);
    demand->memory_mib = std::max(
        demand->memory_mib, (*bytes + kClaimBytesPerMib - 1) / kClaimBytesPerMib);
  }
  for (const JsonValue& r : results) {
    const std::string pool = r.Get("pool").String();
    if (!pool.empty() && demand->allocated_node.empty()) {
      demand->allocated_node = pool;
    }
    if (pool == demand->allocated_node) {
      demand->allocated_devices.push_back(r.Get("device").String());
    }
  }
  if (m.kind == Mapping::Kind::kGpu) {
    demand->whole_gpus += count;
    if (!m.models.empty()) {
      // Every request must be met on the pod's node: the models all allow.
      if (demand->gpu_models.empty()) {
        demand->gpu_models = m.models;
      } else {
        std::vector<std::string> both;
        std::set_intersection(demand->gpu_models.begin(),
                              demand->gpu_models.end(), m.models.begin(),
                              m.models.end(), std::back_inserter(both));
        demand->gpu_models = both.empty() ? m.models : both;
      }
    }
    return;
  }
  std::string profile = m.profile;
  if (!results.empty()) {
    const std::optional<NvidiaDeviceName> device =
        ParseNvidiaDeviceName(results.front().Get("device").String());
    for (const std::string& p : m.profiles) {
      if (device && device->mig &&
          NvidiaMigDeviceNamePart(p) == device->profile_part) {
        profile = p;
      }
    }
  }
  if (!demand->mig_profile.empty() && demand->mig_profile != profile) {
    ++counts_[kNoteProfiles];
    if (ClaimProfileMemory(catalog_, profile) <
        ClaimProfileMemory(catalog_, demand->mig_profile)) {
      profile = demand->mig_profile;
    }
  }
  demand->mig_profile = profile;
  demand->mig_devices += count;
}

void KubectlDraClaims::CountClaimReferences(const JsonValue& pod,
                                            const std::string& ns) {
  std::set<std::string> named;
  for (const JsonValue& entry : pod.Get("spec").Get("resourceClaims").Items()) {
    const JsonValue claim_at = entry.Get("resourceClaimName");
    if (claim_at.Missing()) continue;
    const std::string key = ns + "/" + claim_at.String();
    if (named.insert(key).second) ++references_[key];
  }
}

DraPodDemand KubectlDraClaims::PodDemand(const JsonValue& pod,
                                         const std::string& ns) {
  ValidateKubectlPodClaims(pod.Get("spec"));
  DraPodDemand demand;
  // The claims this pod's entries resolved to: a claim named by two
  // entries gives its devices once.
  std::set<std::string> own;
  std::map<std::string, std::string> generated;  // entry -> claim name
  for (const JsonValue& s :
       pod.Get("status").Get("resourceClaimStatuses").Items()) {
    generated[s.Get("name").String()] = s.Get("resourceClaimName").String();
  }
  for (const JsonValue& entry : pod.Get("spec").Get("resourceClaims").Items()) {
    const std::string entry_name = entry.Get("name").String();
    const JsonValue claim_at = entry.Get("resourceClaimName");
    const JsonValue template_at = entry.Get("resourceClaimTemplateName");
    if (claim_at.Missing() == template_at.Missing()) {
      entry.Fail(
          "expected one of resourceClaimName and resourceClaimTemplateName");
    }
    std::optional<JsonValue> spec;
    std::optional<JsonValue> allocation;
    // As upstream names it (namespace/name); a template's claim is
    // <pod>-<entry> until status.resourceClaimStatuses names it.
    std::string claim_name =
        ns + "/" + pod.Get("metadata").Get("name").String() + "-" + entry_name;
    if (!claim_at.Missing()) {
      const std::string key = ns + "/" + claim_at.String();
      claim_name = key;
      auto it = claims_.find(key);
      if (it == claims_.end()) {
        claim_at.Fail("ResourceClaim " + key + " is not in the list; " +
                      kListHint);
      }
      if (!own.insert(key).second) continue;
      auto refs = references_.find(key);
      if (refs != references_.end() && refs->second > 1 &&
          demand.shared_claim.empty()) {
        // Shared: every pod naming it gets its devices, which the
        // scheduler allocates once (Pod::dra_claim).
        demand.shared_claim = key;
        ++counts_[kNoteSharedClaim];
      } else if (!held_claims_.insert(key).second) {
        ++counts_[kNoteShared];
        continue;
      }
      spec.emplace(it->second.Get("spec"));
      allocation.emplace(it->second.Get("status").Get("allocation"));
    } else {
      const std::string key = ns + "/" + template_at.String();
      auto it = templates_.find(key);
      if (it == templates_.end()) {
        template_at.Fail("ResourceClaimTemplate " + key +
                         " is not in the list; " + kListHint);
      }
      spec.emplace(it->second.Get("spec").Get("spec"));
      auto g = generated.find(entry_name);
      if (g != generated.end() && !g->second.empty()) {
        // Another entry may name the claim made from this one.
        if (!own.insert(ns + "/" + g->second).second) continue;
        claim_name = ns + "/" + g->second;
        held_claims_.insert(ns + "/" + g->second);
        auto c = claims_.find(ns + "/" + g->second);
        if (c != claims_.end()) {
          allocation.emplace(c->second.Get("status").Get("allocation"));
        }
      }
    }
    const JsonValue devices = spec->Get("devices");
    // The NVIDIA driver's opaque config, checked as its kubelet plugin
    // checks it (an error where it refuses the claim); the node import
    // applies it where the claim is allocated (kubectl_gpu_config.h).
    for (const JsonValue& request : devices.Get("requests").Items()) {
      const NvidiaClaimSharing sharing = ReadNvidiaClaimSharing(
          *spec, nullptr, request.Get("name").String(), claim_name);
      if (sharing.strategy == NvidiaClaimSharing::Strategy::kMps &&
          (allocation == std::nullopt || allocation->Missing())) {
        ++counts_[kNoteMpsUnallocated];
      }
    }
    if (!devices.Get("constraints").Items().empty()) {
      ++counts_[kNoteConstraints];
    }
    const JsonValue* alloc =
        allocation && !allocation->Missing() ? &*allocation : nullptr;
    for (const JsonValue& request : devices.Get("requests").Items()) {
      AddRequest(request, alloc, claim_name, &demand);
    }
  }
  if (demand.whole_gpus > 0 && demand.mig_devices > 0) {
    ++counts_[kNoteMixed];
    demand.mig_devices = 0;
    demand.mig_profile.clear();
  }
  const std::string node = pod.Get("spec").Get("nodeName").String();
  if (!node.empty() && !demand.allocated_node.empty() &&
      node != demand.allocated_node) {
    ++counts_[kNoteOtherNode];
  }
  return demand;
}

std::vector<std::string> KubectlDraClaims::Notes() const {
  std::vector<std::string> notes;
  for (const auto& [text, n] : counts_) {
    notes.push_back(fmt::format("{} {}", n, text));
  }
  if (!unmapped_classes_.empty()) {
    notes.push_back(fmt::format(
        "DeviceClass(es) that select no NVIDIA GPU or MIG device (not "
        "modelled): {}",
        fmt::join(unmapped_classes_, ", ")));
  }
  return notes;
}

}  // namespace gpushare
