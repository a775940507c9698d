#include "gpushare/cluster/device_plugin.h"

namespace gpushare {

std::string DevicePlugin::AdmissionError(const ResourceList& /*requests*/) const {
  return "";
}

}  // namespace gpushare
