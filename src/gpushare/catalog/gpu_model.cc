#include "gpushare/catalog/gpu_model.h"

#include <algorithm>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"

namespace gpushare {

bool MigProfile::media_extension() const {
  return name.find("+me") != std::string::npos;
}

std::string MigResourceName(std::string_view profile) {
  std::string resource = "nvidia.com/mig-" + std::string(profile);
  std::replace(resource.begin(), resource.end(), '+', '.');
  return resource;
}

std::string MigProfile::ResourceName() const { return MigResourceName(name); }

bool MigProfile::AllowsStart(int start) const {
  return std::find(starts.begin(), starts.end(), start) != starts.end();
}

int MigGeometry::FindProfile(const std::string& name) const {
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> MigGeometry::ProfileNames() const {
  std::vector<std::string> names;
  for (const MigProfile& p : profiles) names.push_back(p.name);
  return names;
}

const MigGeometry& GpuModel::RequireMig() const {
  if (!mig) {
    throw InputError(name + " does not support MIG (MIG-capable models have a "
                            "'mig' section in the catalog)");
  }
  return *mig;
}

double GpuModel::InstanceBandwidthGbS(const MigProfile& profile) const {
  const MigGeometry& g = RequireMig();
  return memory_bandwidth_gb_s * profile.memory_slices / g.memory_slices;
}

int GpuModel::RequireProfile(const std::string& profile_name) const {
  const MigGeometry& geometry = RequireMig();
  const int index = geometry.FindProfile(profile_name);
  if (index < 0) {
    throw InputError("unknown MIG profile '" + profile_name + "' on " + name +
                     DidYouMean(profile_name, geometry.ProfileNames()) +
                     " (profiles: " + JoinNames(geometry.ProfileNames()) + ")");
  }
  return index;
}

}  // namespace gpushare
