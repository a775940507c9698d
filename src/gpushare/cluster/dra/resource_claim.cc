#include "gpushare/cluster/dra/resource_claim.h"

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// The API's limit on selectors per request (DeviceSelectorsMaxSize).
constexpr size_t kClaimMaxSelectors = 32;

[[noreturn]] void ClaimFail(const std::string& claim_name,
                            const std::string& what) {
  throw InputError("claim " + claim_name + ": " + what);
}

void ClaimValidateSelection(const std::string& claim_name,
                            const std::string& where, const DeviceSelection& s,
                            const std::vector<DeviceClass>& classes) {
  if (s.device_class_name.empty()) {
    ClaimFail(claim_name, where + ": deviceClassName is required");
  }
  bool known = false;
  for (const DeviceClass& c : classes)
    known = known || c.name == s.device_class_name;
  if (!known) {
    ClaimFail(claim_name,
              where + ": unknown DeviceClass '" + s.device_class_name + "'");
  }
  if (s.selectors.size() > kClaimMaxSelectors) {
    ClaimFail(claim_name, where + ": " + std::to_string(s.selectors.size()) +
                              " selectors (at most " +
                              std::to_string(kClaimMaxSelectors) + ")");
  }
  if (s.allocation_mode == DeviceAllocationMode::kExactCount && s.count < 1) {
    ClaimFail(claim_name, where +
                              ": count must be >= 1 with allocationMode "
                              "ExactCount, got " +
                              std::to_string(s.count));
  }
  for (size_t i = 0; i < s.capacity_requests.size(); ++i) {
    const CapacityRequest& r = s.capacity_requests[i];
    if (r.name.empty()) {
      ClaimFail(claim_name, where + ": a capacity request needs a name");
    }
    if (r.value < 0) {
      ClaimFail(claim_name,
                where + ": capacity request '" + r.name + "' must be >= 0");
    }
    for (size_t j = 0; j < i; ++j) {
      if (s.capacity_requests[j].name == r.name &&
          s.capacity_requests[j].domain == r.domain) {
        ClaimFail(claim_name,
                  where + ": capacity '" + r.name + "' requested twice");
      }
    }
  }
}

// Whether constraint entry `ref` ("gpu" or "gpu/big") names a request or a
// subrequest of `spec`.
bool ClaimNamesRequest(const ResourceClaimSpec& spec, const std::string& ref) {
  const size_t slash = ref.find('/');
  const std::string base = ref.substr(0, slash);
  for (const DraDeviceRequest& r : spec.requests) {
    if (r.name != base) continue;
    if (slash == std::string::npos) return true;
    const std::string sub = ref.substr(slash + 1);
    for (const DeviceSubRequest& s : r.first_available) {
      if (s.name == sub) return true;
    }
  }
  return false;
}

}  // namespace

const char* DeviceAllocationModeName(DeviceAllocationMode mode) {
  return mode == DeviceAllocationMode::kAll ? "All" : "ExactCount";
}

bool IsDraDnsLabel(const std::string& name) {
  if (name.empty() || name.size() > 63) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
      return false;
    }
  }
  return name.front() != '-' && name.back() != '-';
}

ResourceClaim ResourceClaimTemplate::ClaimFor(
    const std::string& pod_name, const std::string& pod_claim_name) const {
  return ResourceClaim{pod_name + "-" + pod_claim_name, spec};
}

void ValidateResourceClaimSpec(const std::string& claim_name,
                               const ResourceClaimSpec& spec,
                               const std::vector<DeviceClass>& classes) {
  if (spec.requests.empty() || spec.requests.size() > kMaxDeviceRequests) {
    ClaimFail(claim_name, "devices.requests must have 1 to " +
                              std::to_string(kMaxDeviceRequests) +
                              " entries, got " +
                              std::to_string(spec.requests.size()));
  }
  for (size_t i = 0; i < spec.requests.size(); ++i) {
    const DraDeviceRequest& r = spec.requests[i];
    if (!IsDraDnsLabel(r.name)) {
      ClaimFail(claim_name, "request name '" + r.name +
                                "' is not a DNS label (lowercase letters, "
                                "digits and '-', at most 63)");
    }
    for (size_t j = 0; j < i; ++j) {
      if (spec.requests[j].name == r.name) {
        ClaimFail(claim_name, "request name '" + r.name + "' is used twice");
      }
    }
    const std::string where = "request " + r.name;
    if (r.admin_access) {
      ClaimFail(claim_name, where + ": adminAccess is not modelled");
    }
    if (r.has_exactly == !r.first_available.empty()) {
      ClaimFail(claim_name, where +
                                ": expected exactly one of 'exactly' and "
                                "'firstAvailable'");
    }
    if (r.has_exactly) {
      ClaimValidateSelection(claim_name, where, r.exactly, classes);
      continue;
    }
    if (r.first_available.size() > kMaxFirstAvailable) {
      ClaimFail(claim_name, where + ": firstAvailable has " +
                                std::to_string(r.first_available.size()) +
                                " subrequests (at most " +
                                std::to_string(kMaxFirstAvailable) + ")");
    }
    for (size_t k = 0; k < r.first_available.size(); ++k) {
      const DeviceSubRequest& s = r.first_available[k];
      if (!IsDraDnsLabel(s.name)) {
        ClaimFail(claim_name, where + ": subrequest name '" + s.name +
                                  "' is not a DNS label");
      }
      for (size_t j = 0; j < k; ++j) {
        if (r.first_available[j].name == s.name) {
          ClaimFail(claim_name,
                    where + ": subrequest name '" + s.name + "' is used twice");
        }
      }
      ClaimValidateSelection(claim_name, where + "/" + s.name, s.selection,
                             classes);
    }
  }
  if (spec.constraints.size() > kMaxDeviceConstraints) {
    ClaimFail(claim_name, "devices.constraints has " +
                              std::to_string(spec.constraints.size()) +
                              " entries (at most " +
                              std::to_string(kMaxDeviceConstraints) + ")");
  }
  for (size_t i = 0; i < spec.constraints.size(); ++i) {
    const DeviceConstraint& c = spec.constraints[i];
    const std::string where = "constraint #" + std::to_string(i);
    const size_t slash = c.match_attribute.find('/');
    if (slash == std::string::npos || slash == 0 ||
        slash + 1 == c.match_attribute.size()) {
      ClaimFail(claim_name, where + ": matchAttribute '" + c.match_attribute +
                                "' is not a fully qualified name "
                                "(DOMAIN/NAME, e.g. "
                                "gpu.nvidia.com/productName)");
    }
    for (const std::string& ref : c.requests) {
      if (!ClaimNamesRequest(spec, ref)) {
        ClaimFail(claim_name, where + ": requests names '" + ref +
                                  "', which is no request or subrequest of "
                                  "the claim");
      }
    }
  }
}

}  // namespace gpushare
