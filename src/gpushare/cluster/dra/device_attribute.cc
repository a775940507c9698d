#include "gpushare/cluster/dra/device_attribute.h"

#include <utility>

#include "gpushare/io/check.h"

namespace gpushare {

DeviceAttribute DeviceAttribute::Int(int64_t value) {
  DeviceAttribute a;
  a.kind_ = Kind::kInt;
  a.int_ = value;
  return a;
}

DeviceAttribute DeviceAttribute::Bool(bool value) {
  DeviceAttribute a;
  a.kind_ = Kind::kBool;
  a.bool_ = value;
  return a;
}

DeviceAttribute DeviceAttribute::String(std::string value) {
  DeviceAttribute a;
  a.kind_ = Kind::kString;
  a.string_ = std::move(value);
  return a;
}

DeviceAttribute DeviceAttribute::Version(Semver value) {
  DeviceAttribute a;
  a.kind_ = Kind::kVersion;
  a.version_ = value;
  return a;
}

int64_t DeviceAttribute::int_value() const {
  GS_CHECK(kind_ == Kind::kInt, "not an int attribute");
  return int_;
}

bool DeviceAttribute::bool_value() const {
  GS_CHECK(kind_ == Kind::kBool, "not a bool attribute");
  return bool_;
}

const std::string& DeviceAttribute::string_value() const {
  GS_CHECK(kind_ == Kind::kString, "not a string attribute");
  return string_;
}

const Semver& DeviceAttribute::version_value() const {
  GS_CHECK(kind_ == Kind::kVersion, "not a version attribute");
  return version_;
}

const char* DeviceAttribute::KindName() const {
  switch (kind_) {
    case Kind::kInt:
      return "int";
    case Kind::kBool:
      return "bool";
    case Kind::kString:
      return "string";
    case Kind::kVersion:
      return "version";
  }
  return "?";
}

std::string DeviceAttribute::ToString() const {
  switch (kind_) {
    case Kind::kInt:
      return std::to_string(int_);
    case Kind::kBool:
      return bool_ ? "true" : "false";
    case Kind::kString:
      return string_;
    case Kind::kVersion:
      return version_.ToString();
  }
  return "";
}

}  // namespace gpushare
