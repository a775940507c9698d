#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {

const Device* ResourceSlice::FindDevice(std::string_view device_name) const {
  for (const Device& d : devices) {
    if (d.name == device_name) return &d;
  }
  return nullptr;
}

}  // namespace gpushare
