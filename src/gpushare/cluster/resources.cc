#include "gpushare/cluster/resources.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

ResourceRegistry::ResourceRegistry() {
  GS_CHECK(Intern(kCpu) == kCpuId, "cpu must be resource 0");
  GS_CHECK(Intern(kMemory) == kMemoryId, "memory must be resource 1");
}

ResourceId ResourceRegistry::Intern(std::string_view name) {
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  const ResourceId id = size();
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  ignored_.push_back(name == kHamiGpuMem || name == kHamiGpuMemPercentage ||
                     name == kHamiGpuCores);
  kinds_.push_back(name == kCpu                    ? Kind::kCpuKind
                   : name == kMemory               ? Kind::kMemoryKind
                   : name == kNvidiaGpu            ? Kind::kNvidiaGpuKind
                   : name == kHamiGpuMem           ? Kind::kGpuMemKind
                   : name == kHamiGpuMemPercentage ? Kind::kGpuMemPercentageKind
                   : name == kHamiGpuCores         ? Kind::kGpuCoresKind
                   : name.substr(0, kDraClassResourcePrefix.size()) ==
                           kDraClassResourcePrefix
                       ? Kind::kDraClassKind
                                                   : Kind::kOther);
  return id;
}

ResourceId ResourceRegistry::Find(std::string_view name) const {
  auto it = ids_.find(std::string(name));
  return it == ids_.end() ? -1 : it->second;
}

void ResourceList::Set(ResourceId id, int64_t quantity) {
  auto it = std::lower_bound(
      items_.begin(), items_.end(), id,
      [](const Item& item, ResourceId key) { return item.first < key; });
  if (it != items_.end() && it->first == id) {
    if (quantity == 0) {
      items_.erase(it);
    } else {
      it->second = quantity;
    }
  } else if (quantity != 0) {
    items_.insert(it, {id, quantity});
  }
}

void ResourceList::Add(ResourceId id, int64_t quantity) {
  Set(id, Get(id) + quantity);
}

std::string ResourceList::ToString(const ResourceRegistry& registry) const {
  std::string out;
  for (const auto& [id, quantity] : items_) {
    if (!out.empty()) out += " ";
    out += registry.Name(id) + "=" + std::to_string(quantity);
    if (id == ResourceRegistry::kCpuId) out += "m";
    if (id == ResourceRegistry::kMemoryId) out += "Mi";
  }
  return out;
}

}  // namespace gpushare
