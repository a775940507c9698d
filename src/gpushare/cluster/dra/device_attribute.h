// DeviceAttribute: the value of one attribute of a DRA device.
//
// Contract: exactly one of an int, a bool, a string or a semantic version,
// as resource.k8s.io/v1 DeviceAttribute holds exactly one of IntValue,
// BoolValue, StringValue and VersionValue (kubernetes/api resource/v1
// types.go). Immutable once made; cheap to copy except for the string.

#ifndef GPUSHARE_CLUSTER_DRA_DEVICE_ATTRIBUTE_H_
#define GPUSHARE_CLUSTER_DRA_DEVICE_ATTRIBUTE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "gpushare/cluster/dra/semver.h"

namespace gpushare {

class DeviceAttribute {
 public:
  enum class Kind { kInt, kBool, kString, kVersion };

  static DeviceAttribute Int(int64_t value);
  static DeviceAttribute Bool(bool value);
  static DeviceAttribute String(std::string value);
  static DeviceAttribute Version(Semver value);

  Kind kind() const { return kind_; }
  // The value; each requires the matching kind (checked).
  int64_t int_value() const;
  bool bool_value() const;
  const std::string& string_value() const;
  const Semver& version_value() const;

  // The field resource.k8s.io names it by: "int", "bool", "string" or
  // "version".
  const char* KindName() const;
  // The value as a slice's YAML shows it: 3, true, gpu, 8.0.0.
  std::string ToString() const;

  bool operator==(const DeviceAttribute&) const = default;

 private:
  DeviceAttribute() = default;

  Kind kind_ = Kind::kInt;
  int64_t int_ = 0;
  bool bool_ = false;
  std::string string_;
  Semver version_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DEVICE_ATTRIBUTE_H_
