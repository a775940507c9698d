// Semantic versions as DRA device attributes hold them ("8.0.0").
//
// Contract: MAJOR.MINOR.PATCH, three non-negative decimal integers without
// leading zeros (Semantic Versioning 2.0.0 §2). Pre-release and build
// suffixes ("1.2.3-rc.1") are refused: the NVIDIA driver publishes none
// (it normalises "8.0" to "8.0.0" with Masterminds/semver, see
// kubernetes-sigs/dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin/deviceinfo.go).
// Ordering is numeric, field by field, as SemVer §11 orders versions
// without pre-release parts.

#ifndef GPUSHARE_CLUSTER_DRA_SEMVER_H_
#define GPUSHARE_CLUSTER_DRA_SEMVER_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpushare {

struct Semver {
  int64_t major = 0;
  int64_t minor = 0;
  int64_t patch = 0;

  auto operator<=>(const Semver&) const = default;
  // "8.0.0".
  std::string ToString() const;
};

// The version `text` names, or nullopt with the reason in `*why_not`.
std::optional<Semver> ParseSemver(std::string_view text, std::string* why_not);

// "8.0" or "8.0.1" (a compute capability, a driver version) as a Semver,
// as the NVIDIA driver normalises them: a missing patch is 0. Nullopt when
// `text` is not one or two or three dot-separated integers.
std::optional<Semver> NormalizeSemver(std::string_view text);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_SEMVER_H_
