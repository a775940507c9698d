#include "gpushare/metrics/gpu_uuid.h"

#include <fmt/format.h>

#include "gpushare/base/fake_uuid.h"

namespace gpushare {

std::string FakeGpuUuid(std::string_view node, int gpu) {
  return FakeNvmlUuid("GPU", fmt::format("{}/{}", node, gpu));
}

}  // namespace gpushare
