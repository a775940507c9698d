#include "gpushare/cluster/dra/device_class.h"

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/io/check.h"

namespace gpushare {
namespace {

CelSelector CompileBuiltinSelector(const std::string& expression) {
  CelCompileError error;
  std::optional<CelSelector> selector =
      CelSelector::Compile(expression, &error);
  GS_CHECK(selector.has_value(), "a built-in DeviceClass selector");
  return std::move(*selector);
}

}  // namespace

bool DeviceClass::Matches(const Device& device, const std::string& driver,
                          std::string* error) const {
  for (size_t i = 0; i < selectors.size(); ++i) {
    const CelResult result = selectors[i].Evaluate(device, driver);
    if (result.failed()) {
      if (error != nullptr) {
        *error = "class " + name + ": selector #" + std::to_string(i) +
                 ": CEL runtime error: " + result.ErrorMessage();
      }
      return false;
    }
    if (!result.matches()) return false;
  }
  return true;
}

DeviceClass NvidiaGpuDeviceClass() {
  DeviceClass c;
  c.name = "gpu.nvidia.com";
  c.selectors.push_back(CompileBuiltinSelector(kNvidiaGpuClassSelector));
  c.extended_resource_name = std::string(kNvidiaGpu);
  return c;
}

DeviceClass NvidiaMigDeviceClass() {
  DeviceClass c;
  c.name = "mig.nvidia.com";
  c.selectors.push_back(CompileBuiltinSelector(kNvidiaMigClassSelector));
  return c;
}

std::string NvidiaMigProfileClassName(const std::string& profile) {
  std::string name = "mig-";
  for (const char ch : profile) {
    name.push_back(ch == '.' || ch == '+' ? '-' : ch);
  }
  return name + ".gpu.nvidia.com";
}

std::string NvidiaMigProfileSelector(const std::string& profile) {
  std::string quoted;
  for (const char ch : profile) {
    if (ch == '\'' || ch == '\\') quoted.push_back('\\');
    quoted.push_back(ch);
  }
  return std::string(kNvidiaMigClassSelector) +
         " && device.attributes['gpu.nvidia.com'].profile == '" + quoted + "'";
}

DeviceClass NvidiaMigProfileDeviceClass(const std::string& profile) {
  DeviceClass c;
  c.name = NvidiaMigProfileClassName(profile);
  c.selectors.push_back(
      CompileBuiltinSelector(NvidiaMigProfileSelector(profile)));
  c.extended_resource_name = MigResourceName(profile);
  return c;
}

}  // namespace gpushare
