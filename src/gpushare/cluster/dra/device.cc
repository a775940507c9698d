#include "gpushare/cluster/dra/device.h"

#include <utility>

namespace gpushare {

const DeviceAttribute* Device::FindAttribute(std::string_view domain,
                                             std::string_view key) const {
  for (const NamedDeviceAttribute& a : attributes) {
    if (a.name == key && a.domain == domain) return &a.value;
  }
  return nullptr;
}

const DeviceCapacity* Device::FindCapacity(std::string_view domain,
                                           std::string_view key) const {
  for (const DeviceCapacity& c : capacities) {
    if (c.name == key && c.domain == domain) return &c;
  }
  return nullptr;
}

void Device::SetAttribute(std::string domain, std::string key,
                          DeviceAttribute value) {
  for (NamedDeviceAttribute& a : attributes) {
    if (a.name == key && a.domain == domain) {
      a.value = std::move(value);
      return;
    }
  }
  attributes.push_back({std::move(domain), std::move(key), std::move(value)});
}

void Device::SetCapacity(std::string domain, std::string key, int64_t value) {
  for (DeviceCapacity& c : capacities) {
    if (c.name == key && c.domain == domain) {
      c.value = value;
      return;
    }
  }
  capacities.push_back(
      {std::move(domain), std::move(key), value, std::nullopt});
}

}  // namespace gpushare
