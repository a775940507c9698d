#include "gpushare/cluster/dra/filter_messages.h"

namespace gpushare {

std::string DraDeviceClassMissing(const std::string& request,
                                  const std::string& device_class) {
  return "request " + request + ": device class " + device_class +
         " does not exist";
}

std::string DraTooManyDevices(const std::string& claim, size_t devices,
                              size_t limit) {
  return "claim " + claim + ": number of requested devices " +
         std::to_string(devices) + " exceeds the claim limit of " +
         std::to_string(limit);
}

std::string DraClassSelectorError(const std::string& device_class,
                                  size_t selector, const std::string& device,
                                  const std::string& cel_error) {
  return "class " + device_class + ": selector #" + std::to_string(selector) +
         " on device " + device + ": CEL runtime error: " + cel_error;
}

std::string DraClaimSelectorError(const std::string& claim, size_t selector,
                                  const std::string& device,
                                  const std::string& cel_error) {
  return "claim " + claim + ": selector #" + std::to_string(selector) +
         " on device " + device + ": CEL runtime error: " + cel_error;
}

std::string DraAllConstraintError(const std::string& claim,
                                  const std::string& request,
                                  const std::string& device) {
  return "claim " + claim + ", request " + request + ": cannot add device " +
         device + " because a claim constraint would not be satisfied";
}

}  // namespace gpushare
