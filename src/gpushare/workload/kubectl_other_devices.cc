#include "gpushare/workload/kubectl_other_devices.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/cluster/dra/semver.h"

namespace gpushare {
namespace {

// "domain/name" or "name" (the driver's domain).
std::pair<std::string, std::string> SplitKey(const std::string& key,
                                             const std::string& driver) {
  const size_t slash = key.find('/');
  if (slash == std::string::npos) return {driver, key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

Device ReadDevice(const JsonValue& d, const std::string& driver) {
  if (!d.IsObject()) d.Fail("expected a device object");
  Device device;
  device.name = d.Get("name").String();
  if (device.name.empty()) d.Get("name").Fail("a device needs a name");
  for (const auto& [key, value] : d.Get("attributes").Members()) {
    auto [domain, name] = SplitKey(key, driver);
    if (!value.Get("int").Missing()) {
      device.SetAttribute(std::move(domain), std::move(name),
                          DeviceAttribute::Int(value.Get("int").Int(
                              std::numeric_limits<int64_t>::min(),
                              std::numeric_limits<int64_t>::max())));
    } else if (!value.Get("bool").Missing()) {
      device.SetAttribute(std::move(domain), std::move(name),
                          DeviceAttribute::Bool(value.Get("bool").Bool()));
    } else if (!value.Get("string").Missing()) {
      device.SetAttribute(
          std::move(domain), std::move(name),
          DeviceAttribute::String(value.Get("string").String()));
    } else if (!value.Get("version").Missing()) {
      std::string why;
      const std::optional<Semver> v =
          ParseSemver(value.Get("version").String(), &why);
      if (v) {
        device.SetAttribute(std::move(domain), std::move(name),
                            DeviceAttribute::Version(*v));
      }
    } else {
      value.Fail("expected one of int, bool, string and version");
    }
  }
  for (const auto& [key, value] : d.Get("capacity").Members()) {
    auto [domain, name] = SplitKey(key, driver);
    std::string why;
    const std::optional<int64_t> amount =
        ParseQuantity(value.Get("value").String(), &why);
    if (!amount) value.Get("value").Fail(why);
    device.SetCapacity(std::move(domain), std::move(name), *amount);
  }
  return device;
}

}  // namespace

std::vector<ResourceSlice> ReadOtherDriverDevices(
    const std::vector<JsonValue>& slices) {
  std::vector<ResourceSlice> out;
  for (const JsonValue& s : slices) {
    const JsonValue spec = s.Get("spec");
    ResourceSlice slice;
    slice.driver = spec.Get("driver").String();
    if (slice.driver.empty() || slice.driver == kNvidiaGpuDriver) continue;
    slice.name = s.Get("metadata").Get("name").String();
    slice.node_name = spec.Get("nodeName").String();
    slice.pool_name = spec.Get("pool").Get("name").String();
    for (const JsonValue& d : spec.Get("devices").Items()) {
      slice.devices.push_back(ReadDevice(d, slice.driver));
    }
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace gpushare
