#include "gpushare/cluster/dra/nvidia_device_name.h"

namespace gpushare {
namespace {

// A decimal of 1..6 digits, no sign.
bool NvidiaNameNumber(std::string_view s, int* value) {
  if (s.empty() || s.size() > 6) return false;
  int v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

}  // namespace

std::optional<NvidiaDeviceName> ParseNvidiaDeviceName(std::string_view name) {
  constexpr std::string_view kGpu = "gpu-";
  constexpr std::string_view kMig = "-mig-";
  if (!name.starts_with(kGpu)) return std::nullopt;
  name.remove_prefix(kGpu.size());
  NvidiaDeviceName out;
  const size_t mig = name.find(kMig);
  if (mig == std::string_view::npos) {
    if (!NvidiaNameNumber(name, &out.gpu)) return std::nullopt;
    return out;
  }
  if (!NvidiaNameNumber(name.substr(0, mig), &out.gpu)) return std::nullopt;
  std::string_view rest = name.substr(mig + kMig.size());
  const size_t last = rest.rfind('-');
  if (last == std::string_view::npos ||
      !NvidiaNameNumber(rest.substr(last + 1), &out.start)) {
    return std::nullopt;
  }
  rest = rest.substr(0, last);
  const size_t id = rest.rfind('-');
  if (id == std::string_view::npos || id == 0 ||
      !NvidiaNameNumber(rest.substr(id + 1), &out.gi_profile_id)) {
    return std::nullopt;
  }
  out.mig = true;
  out.profile_part = std::string(rest.substr(0, id));
  return out;
}

std::string NvidiaMigDeviceNamePart(std::string_view profile) {
  std::string out;
  for (const char c : profile) {
    if (c == '.') continue;
    const char lower =
        (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep = (lower >= 'a' && lower <= 'z') ||
                      (lower >= '0' && lower <= '9') || lower == '-';
    out.push_back(keep ? lower : '-');
  }
  const size_t first = out.find_first_not_of('-');
  if (first == std::string::npos) return "";
  const size_t last = out.find_last_not_of('-');
  return out.substr(first, last - first + 1);
}

}  // namespace gpushare
